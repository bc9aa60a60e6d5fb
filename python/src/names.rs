//! Spellings of the vendor vocabulary as Python takes them: the command line's (`rng-xorwow`,
//! `src-tensor`, `dve`) or the vendor member name itself (`RNG_XORWOW`), nothing in between.

/// The command-line spelling of a vendor member name (`RNG_XORWOW` → `rng-xorwow`).
pub fn spelling(vendor_name: &str) -> String {
    vendor_name.to_ascii_lowercase().replace('_', "-")
}

/// The member of `members` spelt `text`, by `name` (its vendor member name).
pub fn lookup<T: Copy>(members: &[T], name: impl Fn(T) -> &'static str, text: &str) -> Option<T> {
    members
        .iter()
        .copied()
        .find(|&m| name(m) == text || spelling(name(m)) == text)
}

/// The command-line spellings of `members`, comma-separated (for messages).
pub fn choices<T: Copy>(members: &[T], name: impl Fn(T) -> &'static str) -> String {
    let all: Vec<String> = members.iter().map(|&m| spelling(name(m))).collect();
    all.join(", ")
}

/// `fp32` → `FP32`, `fp8-exp4` → `FP8_EXP4`: what the typed constructors take for a dtype or
/// an enum member (the command line maps its values the same way).
pub fn vendor_form(text: &str) -> String {
    text.to_ascii_uppercase().replace('-', "_")
}

#[cfg(test)]
mod tests {
    use super::*;
    use rng_core::{Engine, Generator, StateUpdate};

    #[test]
    fn both_spellings_and_only_those_are_taken() {
        let g = |t| lookup(Generator::ALL, Generator::name, t);
        assert_eq!(g("rng-xorwow"), Some(Generator::RngXorwow));
        assert_eq!(g("RNG_XORWOW"), Some(Generator::RngXorwow));
        assert_eq!(g("Rng-Xorwow"), None);
        assert_eq!(g("rng_xorwow"), None);
        assert_eq!(
            lookup(StateUpdate::ALL, StateUpdate::name, "imm-single"),
            Some(StateUpdate::ImmSingle)
        );
        assert_eq!(choices(Engine::ALL, Engine::name), "pool, dve, act");
        assert_eq!(vendor_form("fp8-exp4"), "FP8_EXP4");
    }
}
