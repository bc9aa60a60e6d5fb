// Act checkpoints only its LFSR (2 words): an Xorwow arm on Act is not in either table.
use isa_mariana::arm::{Act, RngXorwow, Xorwow};
use isa_mariana::{RandGetState, RandSetState, StateTensor};

fn main() {
    let _ = RandSetState::restore::<Act, RngXorwow, Xorwow, 6>(StateTensor::sbuf(0, 0).unwrap(), 128);
    let _ = RandGetState::save::<Act, RngXorwow, Xorwow, 6>(StateTensor::sbuf(0, 0).unwrap(), 128);
}
