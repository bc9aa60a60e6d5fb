// MAVERICK sizes PSUM out (PSUM_BUF_PARTITION_SIZE is 0): `TensorAddress::psum` is there only as a
// name whose call fails with that reason, instead of rustc's "no function or associated item".
use isa_maverick::TensorAddress;

fn main() {
    let _ = TensorAddress::psum(0, 0);
}
