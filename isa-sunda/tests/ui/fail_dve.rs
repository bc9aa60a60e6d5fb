// SUNDA's validators are written for Pool alone: no arm of either table runs on DVE.
use isa_sunda::arm::{Dve, Philox, RngPhilox};
use isa_sunda::{RandGetState, RandSetState, StateTensor};

fn main() {
    let _ = RandSetState::restore::<Dve, RngPhilox, Philox, 7>(StateTensor::sbuf(0, 0).unwrap(), 128);
    let _ = RandGetState::save::<Dve, RngPhilox, Philox, 7>(StateTensor::sbuf(0, 0).unwrap(), 128);
}
