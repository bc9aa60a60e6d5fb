// PE_MANAGE_SEED's validator admits mode LOAD_SEED and SAVE_SEED only: NONE has no constructor.
use isa_maverick::{Dtype, PeManageSeed};

fn main() {
    let _ = PeManageSeed::none(Dtype::Bfloat16);
}
