// A checkpoint word built for an engine carries it in its type: a DVE restore is neither
// validated on POOL nor passed where a POOL word is expected.
use isa_core::arm::{Dve, Pool, RngXorwow, Xorwow};
use isa_core::generic::Typed;
use isa_core::OnEngine;
use isa_mariana::{Mariana, NeuronEngine, RandSetState, StateTensor};

fn on_pool<G: Typed>(word: OnEngine<G::RandSetState, Pool>) -> [u8; 64] {
    word.to_bytes()
}

fn main() {
    let state = StateTensor::<24>::sbuf(0, 0).unwrap();
    let restore = Mariana::restore::<Dve, RngXorwow, Xorwow, 24>(state, 128);
    let _ = on_pool::<Mariana>(restore);
    let _ = RandSetState::restore::<Dve, RngXorwow, Xorwow, 24>(state, 128).validate(NeuronEngine::Pool);
}
