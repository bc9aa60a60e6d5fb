// A kernel generic over the generation, bounded by the arm it restores and saves: CAYMAN has no
// DVE checkpoint arm, so instantiating it for CAYMAN fails with CAYMAN's own message and arms.
use isa_core::arm::{Dve, RngXorwow, Xorwow};
use isa_core::generic::{RestoreArm, SaveArm, Typed};

fn kernel<G>() -> [[u8; 64]; 2]
where
    G: Typed + SaveArm<(Dve, RngXorwow, Xorwow), 24> + RestoreArm<(Dve, RngXorwow, Xorwow), 24>,
{
    let state = G::state_tensor::<24>(G::sbuf(0, 0).unwrap());
    let save = G::save::<Dve, RngXorwow, Xorwow, 24>(state, 128);
    let restore = G::restore::<Dve, RngXorwow, Xorwow, 24>(state, 128);
    [save.to_bytes(), restore.to_bytes()]
}

fn main() {
    let _ = kernel::<isa_cayman::Cayman>();
}
