// IMM_SINGLE loads an inline state only for Philox; Pool Xorwow is legal by SRC_TENSOR only.
use isa_cayman::arm::{Pool, RngXorwow, Xorwow};
use isa_cayman::RandSetState;

fn main() {
    let _ = RandSetState::seed_immediate::<Pool, RngXorwow, Xorwow, 6>([1; 6], 128);
}
