// In a kernel generic over the generation, the state tensor's space is part of the bound: a
// kernel restoring from a tensor that may lie in PSUM (`AnySpace`) does not instantiate for
// MARIANA, whose RAND_SET_STATE source is SBUF only.
use isa_core::arm::{Dve, RngXorwow, Xorwow};
use isa_core::generic::{RestoreArm, Typed};
use isa_core::space::AnySpace;

fn kernel<G: Typed + RestoreArm<(Dve, RngXorwow, Xorwow), 24, AnySpace>>(
    at: G::Address,
) -> [u8; 64] {
    G::restore_arm(G::state_tensor_at::<24>(at), 128).to_bytes()
}

fn main() {
    let _ = kernel::<isa_mariana::Mariana>(isa_mariana::TensorAddress::psum(0, 0).unwrap());
}
