// The state tensor holds the arm's word count: Pool Philox is 7 words, by SRC_TENSOR or by IMM_SINGLE.
// Naming N gives the legality message; leaving it to inference gives a type mismatch naming N.
use isa_sunda::arm::{Philox, Pool, RngPhilox};
use isa_sunda::{RandGetState, RandSetState, StateTensor};

fn main() {
    let _ = RandSetState::restore::<Pool, RngPhilox, Philox, 8>(StateTensor::sbuf(0, 0).unwrap(), 128);
    let _ = RandSetState::restore::<Pool, RngPhilox, Philox, _>(StateTensor::<8>::sbuf(0, 0).unwrap(), 128);
    let _ = RandGetState::save::<Pool, RngPhilox, Philox, _>(StateTensor::<6>::sbuf(0, 0).unwrap(), 128);
    let _ = RandSetState::seed_immediate::<Pool, RngPhilox, Philox, _>([0; 8], 128);
}
