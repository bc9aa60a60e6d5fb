//! The text assembly (`isa_core::asm`): every decodable word's disassembly reads back to it.

use crate::fuzz;
use isa_core::construct::Construct;
use isa_core::{Isa, INST_NBYTES};
use rand_pcg::rand_core::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rng_core::Generation;

/// Word -> text -> word is the identity and text -> word -> text gives the same line, for
/// `words` decodable words of `G` from the decoder fuzz test's classes; returns the count.
fn round_trip<G: Isa + Generation + Construct>(words: u64, seed: u64) -> u64 {
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    let pool = fuzz::valid_words::<G>(&mut rng);
    let mapped: Vec<G::Opcode> = G::opcodes()
        .iter()
        .copied()
        .filter(|&op| G::fields_of(op).is_some())
        .collect();
    let mut done = 0;
    let mut k = 0u64;
    while done < words {
        // Classes 1 and 2 (changed valid words, random operands of a mapped opcode).
        let (_, bytes) = fuzz::input::<G>(&mut rng, 1 + k % 2, &pool, &mapped);
        k += 1;
        let word: [u8; INST_NBYTES] = bytes.as_slice().try_into().unwrap();
        let Ok(inst) = G::decode(&word) else { continue };
        let text = inst.to_string();
        let back = G::parse_instruction(&text).unwrap_or_else(|e| {
            panic!(
                "{}: `{text}` does not parse at column {}: {e}",
                <G as Isa>::INFO.name,
                e.column()
            )
        });
        assert_eq!(
            G::encode(&back),
            word,
            "{}: `{text}`",
            <G as Isa>::INFO.name
        );
        assert_eq!(back.to_string(), text);
        done += 1;
    }
    done
}

#[test]
fn decodable_words_read_back_from_their_text() {
    let seed = fuzz::seed();
    let n = 20_000;
    round_trip::<isa_sunda::Sunda>(n, seed);
    round_trip::<isa_cayman::Cayman>(n, seed ^ 1);
    round_trip::<isa_mariana::Mariana>(n, seed ^ 2);
    round_trip::<isa_maverick::Maverick>(n, seed ^ 3);
}
