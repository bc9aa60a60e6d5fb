// rand_generator and rand_algorithm must name the same generator.
use isa_sunda::arm::{Lfsr, Philox, Pool, RngLfsr, RngPhilox};
use isa_sunda::{RandGetState, RandSetState, StateTensor};

fn main() {
    let _ = RandSetState::restore::<Pool, RngLfsr, Philox, 7>(StateTensor::sbuf(0, 0).unwrap(), 128);
    let _ = RandGetState::save::<Pool, RngPhilox, Lfsr, 7>(StateTensor::sbuf(0, 0).unwrap(), 128);
}
