// rand_generator and rand_algorithm must name the same generator.
use isa_maverick::arm::{Philox, Pool, RngPhilox, RngXorwow, Xorwow};
use isa_maverick::{RandGetState, RandSetState, StateTensor};

fn main() {
    let _ = RandSetState::restore::<Pool, RngXorwow, Philox, 7>(StateTensor::sbuf(0, 0).unwrap(), 128);
    let _ = RandGetState::save::<Pool, RngPhilox, Xorwow, 6>(StateTensor::sbuf(0, 0).unwrap(), 128);
}
