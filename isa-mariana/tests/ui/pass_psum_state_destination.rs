// RAND_GET_STATE's destination may be SBUF or PSUM by the tensor rule: a DVE save into PSUM
// compiles in the per-generation API and in the generic path (with the space in the bound), and
// validates; the SBUF source restores it.
use isa_core::arm::{Dve, RngXorwow, Xorwow};
use isa_core::generic::{SaveArm, Typed};
use isa_core::space::AnySpace;
use isa_mariana::{Mariana, RandGetState, RandSetState, StateTensor, TensorAddress};

fn kernel<G: Typed + SaveArm<(Dve, RngXorwow, Xorwow), 24, AnySpace>>(
    at: G::Address,
) -> [u8; 64] {
    G::save_arm(G::state_tensor_at::<24>(at), 128).to_bytes()
}

fn main() {
    let psum = TensorAddress::psum(0, 0).unwrap();
    let save = RandGetState::save::<Dve, RngXorwow, Xorwow, 24>(StateTensor::from(psum), 128);
    save.validate().unwrap();
    assert_eq!(kernel::<Mariana>(psum), save.to_bytes());
    let src = StateTensor::sbuf(0, 0).unwrap();
    RandSetState::restore::<Dve, RngXorwow, Xorwow, 24>(src, 128).validate().unwrap();
}
