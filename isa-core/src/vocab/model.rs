//! The model choices `rng-runtime.json` may override by name (the `ModelChoices` fields of
//! rng-core that hold these enums), named as the file spells them.

use core::fmt;

vocabulary! {
    /// Meaning of the Philox "counter offset" word.
    ///
    /// Source: rng-facts §4.6 (the header names a "4-byte counter offset"; its
    /// meaning is UNKNOWN, rng-facts §6 item 2). The project's reading follows
    /// cuRAND's `STATE` index into the current output block (anchors §C.5).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum PhiloxOffset [] {
        /// The offset word is the index (0..4) of the next output word inside the
        /// block of the current counter; a value `>= 4` means "block used up": the
        /// next draw first increments the counter and continues at index 0. The
        /// counter words are the current block's counter, so a saved state
        /// restores exactly (`set(get(s)) == s`).
        WordInBlock = "word_in_block",
        /// The counter words are a fixed start; the offset word counts the words
        /// drawn since it. The next word is word `offset % 4` of
        /// `block(start + offset / 4)`. When the offset wraps past `u32::MAX` the
        /// start advances by 2^30 blocks, so the position is never lost.
        WordsFromStart = "words_from_start",
    }
}

vocabulary! {
    /// How the 24 words of a DVE XORWOW checkpoint map to its 4 sub-generators.
    ///
    /// Source: rng-facts §4.3 and §6 item 4 (ENC: "4× XorwowState, each 6
    /// uint32"; SIM §2.3: on restore "the 24-byte sub-blocks are transposed in
    /// DWORD order"); the exact mapping is UNKNOWN.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum SubGeneratorLayout [] {
        /// Words `[6g, 6g + 6)` are sub-generator `g`'s x, y, z, w, v, d (ENC's reading).
        SubGeneratorMajor = "sub_generator_major",
        /// Word `k·G + g` (G sub-generators, 4 on DVE) is word `k` (x, y, z, w, v, d)
        /// of sub-generator `g`: the simulator's "transposed" reading.
        WordMajor = "word_major",
    }
}

/// What RAND_SET_STATE does to an XORWOW (sub-)generator whose words 0..4 (x..v) are all zero.
///
/// Source: rng-facts §4.7 (CONFLICT): the simulator forces `word[4] = 1`
/// (SIM §2.3), the compiler-side reading forces `word[0] = 1` (ENC);
/// whether the hardware has a guard at all is UNKNOWN (rng-facts §6 item 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ZeroGuard {
    /// Set this word (0..=4, counted inside the sub-generator's x, y, z, w, v, d) to 1.
    ForceWordToOne(u8),
    /// Restore the words as given (an all-zero x..v state then stays dead).
    Disabled,
}

vocabulary! {
    /// Which sub-generator of a lane produces which element of a draw.
    ///
    /// Source: rng-facts §4.3 ("element→sub-generator mapping UNKNOWN", SIM §2.2)
    /// and anchors §D (v4 VectorE "4 × 32-bit values per lane per cycle"). The
    /// element index counts from 0 at the start of every draw (every
    /// instruction), so no hidden position outlives the checkpoint words.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub enum LaneInterleave [] {
        /// Element `j` comes from sub-generator `j % k`; only the sub-generators
        /// that produce an element advance.
        RoundRobin = "round_robin",
        /// As `RoundRobin`, but the `k` sub-generators step together: a trailing
        /// group of fewer than `k` elements still steps all `k` and discards the
        /// surplus outputs (the "4 values per lane per cycle" reading).
        Lockstep = "lockstep",
        /// Element `j` of an `n`-element draw comes from sub-generator `⌊j·k/n⌋`:
        /// each sub-generator produces one contiguous block of the draw (the
        /// simulator's reading that a lane "drives each output column", SIM §2.2).
        Blocked = "blocked",
    }
}

impl ZeroGuard {
    /// The last word a guard may force (x..v are words 0..=4).
    pub const MAX_WORD: u8 = 4;

    /// The spellings `rng-runtime.json` accepts, for messages.
    pub const FORMS: [&'static str; 2] = ["disabled", "force_word_to_one:<0..4>"];

    /// The guard spelled `name`: `disabled`, or `force_word_to_one:<k>` with `k` in
    /// 0..=[`ZeroGuard::MAX_WORD`].
    pub fn from_name(name: &str) -> Option<ZeroGuard> {
        if name == "disabled" {
            return Some(ZeroGuard::Disabled);
        }
        let word = name
            .strip_prefix("force_word_to_one:")?
            .parse::<u8>()
            .ok()?;
        (word <= ZeroGuard::MAX_WORD).then_some(ZeroGuard::ForceWordToOne(word))
    }
}

/// The spelling [`ZeroGuard::from_name`] reads.
impl fmt::Display for ZeroGuard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ZeroGuard::Disabled => f.write_str("disabled"),
            ZeroGuard::ForceWordToOne(word) => write!(f, "force_word_to_one:{word}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn zero_guards_round_trip_and_stop_at_word_four() {
        for word in 0..=ZeroGuard::MAX_WORD {
            let g = ZeroGuard::ForceWordToOne(word);
            assert_eq!(ZeroGuard::from_name(&g.to_string()), Some(g));
        }
        assert_eq!(ZeroGuard::from_name("disabled"), Some(ZeroGuard::Disabled));
        assert_eq!(ZeroGuard::Disabled.to_string(), "disabled");
        for bad in [
            "force_word_to_one:5",
            "force_word_to_one:",
            "force_word_to_one:-1",
            "Disabled",
        ] {
            assert_eq!(ZeroGuard::from_name(bad), None, "{bad}");
        }
    }
}
