// MAVERICK sizes PSUM out (PSUM_BUF_SZ = 0), so PE_MANAGE_SEED's SAVE_SEED, whose validator pins the
// destination to PSUM_BUF_OFFSET and forbids SBUF, is valid for no instruction: the generator writes
// no constructor (and says so in its report), only the name under a bound nothing satisfies, so a call
// fails with that reason instead of rustc's "no function or associated item". LOAD_SEED is there.
use isa_maverick::{Dtype, PeManageSeed};

fn main() {
    let _ = PeManageSeed::save_seed(Dtype::Bfloat16);
}
