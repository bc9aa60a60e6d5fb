// CAYMAN's validators are written for Pool alone: no arm of either table runs on DVE.
use isa_cayman::arm::{Dve, RngXorwow, Xorwow};
use isa_cayman::{RandGetState, RandSetState, StateTensor};

fn main() {
    let _ = RandSetState::restore::<Dve, RngXorwow, Xorwow, 24>(StateTensor::sbuf(0, 0).unwrap(), 128);
    let _ = RandGetState::save::<Dve, RngXorwow, Xorwow, 24>(StateTensor::sbuf(0, 0).unwrap(), 128);
}
