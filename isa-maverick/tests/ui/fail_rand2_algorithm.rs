// RAND2's validator pins rand_algorithm to XORWOW and post_process to UNIFORM_IN_RANGE: the
// constructor writes them and takes neither, so another algorithm cannot be expressed.
use isa_maverick::{Dtype, Immediate, Rand2, RandAlgorithm, Tensor3d, TensorAddress};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dst = Tensor3d::contiguous(TensorAddress::sbuf(0, 0x100)?, [4, 1, 1])?;
    let _ = Rand2::new(
        dst,
        128,
        Dtype::Fp32,
        Immediate::fp32(0.0),
        Immediate::fp32(1.0),
        RandAlgorithm::Lfsr,
    );
    Ok(())
}
