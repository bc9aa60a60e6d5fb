//! `rng`: a single generator's output stream.

use crate::cli::{RngCmd, RngOut};
use crate::fail::{Failure, Outcome};
use crate::out::Out;
use rng_core::lfsr::Lfsr32;
use rng_core::pcg32::{Pcg32, SIMULATOR_INCREMENT};
use rng_core::philox::Philox4x32;
use rng_core::xorwow::Xorwow;
use std::io::Write;

/// Prints `cmd`'s outputs.
pub fn rng<W: Write>(cmd: &RngCmd, out: &mut Out<W>) -> Outcome {
    match cmd {
        RngCmd::Xorwow { state, out: o } => {
            let mut g = Xorwow::from_state(*state);
            emit(o, out, || g.step())
        }
        RngCmd::Philox {
            counter,
            key,
            out: o,
        } => {
            let mut g = Philox4x32::new(*counter, *key);
            emit(o, out, || g.next_word())
        }
        RngCmd::Pcg32 { state, inc, out: o } => {
            let mut g = Pcg32::from_raw(*state, inc.unwrap_or(SIMULATOR_INCREMENT))
                .map_err(|e| Failure::usage(format!("rng pcg32 --inc: {e}")))?;
            emit(o, out, || g.step())
        }
        RngCmd::Lfsr { state, out: o } => {
            let mut g = Lfsr32::new(*state);
            emit(o, out, || g.step())
        }
    }
}

fn emit<W: Write>(o: &RngOut, out: &mut Out<W>, mut next: impl FnMut() -> u32) -> Outcome {
    for _ in 0..o.count {
        let v = next();
        if o.hex {
            out.hex(u64::from(v), 8);
        } else {
            out.dec(u64::from(v));
        }
        out.str("\n");
        out.maybe_flush()?;
    }
    out.flush()?;
    Ok(())
}
