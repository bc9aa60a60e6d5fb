// MAVERICK sizes PSUM out (PSUM_BUF_SZ = 0), so PE_MANAGE_SEED's SAVE_SEED, whose validator pins the
// destination to PSUM_BUF_OFFSET and forbids SBUF, is valid for no instruction: the generator leaves
// `save_seed` out (and says so in its report). LOAD_SEED is there.
use isa_maverick::{Dtype, PeManageSeed};

fn main() {
    let _ = PeManageSeed::save_seed(Dtype::Bfloat16);
}
