// A kernel generic over the generation that draws with RAND2 and loads the PE seeds: SUNDA's
// tree has neither instruction, so the kernel does not instantiate for SUNDA.
use isa_core::generic::{PeLoadSeed, Rand2Uniform, Typed};
use isa_core::vocab::Dtype;
use isa_core::{Immediate, Instruction64};

fn kernel<G: Typed + Rand2Uniform + PeLoadSeed>() -> [[u8; 64]; 2] {
    let at = G::sbuf(0, 0x100).unwrap();
    let fp32 = G::dtype(Dtype::Fp32).unwrap();
    let draw = G::rand2(G::tensor3d(at, [8, 1, 1]).unwrap(), 4, fp32, Immediate::fp32(-1.0), Immediate::fp32(1.0));
    let bf16 = G::dtype(Dtype::Bfloat16).unwrap();
    let seeds = G::load_seed(G::tensor2d(at, [16, 1]).unwrap(), bf16);
    [draw.to_bytes(), seeds.to_bytes()]
}

fn main() {
    let _ = kernel::<isa_sunda::Sunda>();
}
