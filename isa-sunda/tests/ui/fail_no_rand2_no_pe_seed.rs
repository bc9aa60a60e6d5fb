// RAND2 (D3_RAND) and PE_MANAGE_SEED (S2S1D2_PE_SEED, NC-v4 and later) are not in this
// generation's tree: there is no type to build them with.
use isa_sunda::{PeManageSeed, Rand2};

fn main() {}
