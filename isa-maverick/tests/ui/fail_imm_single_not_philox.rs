// IMM_SINGLE loads an inline state only for Philox; Pool Xorwow is legal by SRC_TENSOR only.
use isa_maverick::arm::{Pool, RngXorwow, Xorwow};
use isa_maverick::RandSetState;

fn main() {
    let _ = RandSetState::seed_immediate::<Pool, RngXorwow, Xorwow, 6>([1; 6], 128);
}
