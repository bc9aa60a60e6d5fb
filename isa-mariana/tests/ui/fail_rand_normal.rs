// RAND's validator admits post_process RAW_U32 and UNIFORM_IN_RANGE only: NORMAL ("no hardware
// support yet") has no constructor, so a RAND with NORMAL cannot be expressed.
use isa_mariana::{Dtype, Rand, Tensor4d, TensorAddress};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dst = Tensor4d::contiguous(TensorAddress::sbuf(0, 0x100)?, [4, 1, 1, 1])?;
    let _ = Rand::normal(dst, 128, Dtype::Fp32);
    Ok(())
}
