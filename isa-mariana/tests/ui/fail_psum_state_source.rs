// RAND_SET_STATE's validator passes its source AllowedInSBUF::True, AllowedInPSUM::False: a state
// tensor built from a PSUM address (`StateTensor<24, AnySpace>`) is no source, at compile time.
use isa_mariana::arm::{Dve, RngXorwow, Xorwow};
use isa_mariana::{RandSetState, StateTensor, TensorAddress};

fn main() {
    let psum = TensorAddress::psum(0, 0).unwrap();
    let _ = RandSetState::restore::<Dve, RngXorwow, Xorwow, 24>(StateTensor::from(psum), 128);
}
