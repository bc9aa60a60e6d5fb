// SUNDA's headers have no XORWOW arm, so the crate has no XORWOW markers to name.
use isa_sunda::arm::Pool;
use isa_sunda::{RandGetState, RandSetState, StateTensor};

fn main() {
    let _ = RandSetState::restore::<Pool, isa_sunda::arm::RngXorwow, isa_sunda::arm::Xorwow, 6>(
        StateTensor::sbuf(0, 0).unwrap(),
        128,
    );
    let _ = RandGetState::save::<Pool, isa_sunda::arm::RngXorwow, isa_sunda::arm::Xorwow, 6>(
        StateTensor::sbuf(0, 0).unwrap(),
        128,
    );
}
