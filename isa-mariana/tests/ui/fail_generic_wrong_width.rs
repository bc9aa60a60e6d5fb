// In a kernel generic over the generation, the arm's width is part of the bound: DVE XORWOW is
// 24 words on MARIANA, so a kernel asking for 6 does not instantiate for MARIANA.
use isa_core::arm::{Dve, RngXorwow, Xorwow};
use isa_core::generic::{RestoreArm, Typed};

fn kernel<G: Typed + RestoreArm<(Dve, RngXorwow, Xorwow), 6>>() -> [u8; 64] {
    let state = G::state_tensor::<6>(G::sbuf(0, 0).unwrap());
    G::restore::<Dve, RngXorwow, Xorwow, 6>(state, 128).to_bytes()
}

fn main() {
    let _ = kernel::<isa_mariana::Mariana>();
}
