// The state tensor holds the arm's word count: Pool Xorwow is 6 words, Dve Xorwow 24, Philox by IMM_SINGLE 7.
// Naming N gives the legality message; leaving it to inference gives a type mismatch naming N.
use isa_maverick::arm::{Dve, Philox, Pool, RngPhilox, RngXorwow, Xorwow};
use isa_maverick::{RandGetState, RandSetState, StateTensor};

fn main() {
    let _ = RandSetState::restore::<Pool, RngXorwow, Xorwow, 7>(StateTensor::sbuf(0, 0).unwrap(), 128);
    let _ = RandSetState::restore::<Pool, RngXorwow, Xorwow, _>(StateTensor::<7>::sbuf(0, 0).unwrap(), 128);
    let _ = RandGetState::save::<Dve, RngXorwow, Xorwow, _>(StateTensor::<23>::sbuf(0, 0).unwrap(), 128);
    let _ = RandSetState::seed_immediate::<Pool, RngPhilox, Philox, _>([0; 8], 128);
}
