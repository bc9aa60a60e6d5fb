// MAVERICK sizes PSUM out, and SAVE_SEED writes the start of PSUM: its validator admits no
// SAVE_SEED word, so a kernel that saves the PE seeds does not instantiate for MAVERICK.
use isa_core::generic::{PeSaveSeed, Typed};
use isa_core::vocab::Dtype;
use isa_core::Instruction64;

fn kernel<G: Typed + PeSaveSeed>() -> [u8; 64] {
    G::save_seed(G::dtype(Dtype::Bfloat16).unwrap()).to_bytes()
}

fn main() {
    let _ = kernel::<isa_maverick::Maverick>();
}
