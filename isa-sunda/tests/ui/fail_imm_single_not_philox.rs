// IMM_SINGLE loads an inline state only for Philox; SUNDA has no other arm at all.
use isa_sunda::arm::{Lfsr, Pool, RngLfsr};
use isa_sunda::RandSetState;

fn main() {
    let _ = RandSetState::seed_immediate::<Pool, RngLfsr, Lfsr, 1>([1; 1], 128);
}
