// MAVERICK folds ACT into DVE: the Act LFSR checkpoint arm (2 words on MARIANA) is gone.
use isa_maverick::arm::{Act, Lfsr, OutputCvtLfsr};
use isa_maverick::{RandGetState, RandSetState, StateTensor};

fn main() {
    let _ = RandSetState::restore::<Act, OutputCvtLfsr, Lfsr, 2>(StateTensor::sbuf(0, 0).unwrap(), 128);
    let _ = RandGetState::save::<Act, OutputCvtLfsr, Lfsr, 2>(StateTensor::sbuf(0, 0).unwrap(), 128);
}
