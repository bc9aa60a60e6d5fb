// Every legal arm of MAVERICK's RAND_SET_STATE table (7, 1 of them IMM_SINGLE) and
// RAND_GET_STATE table (6) compiles through the typed constructors; at run time each instruction
// passes the validator on its engine, and the arms met are the whole table, in its order.
use isa_maverick::arm::{
    Dve, ImmSingle, Lfsr, NeuronEngineMarker, OutputCvtLfsr, Philox, Pool, RandAlgorithmMarker,
    RandSrcMarker, RngLfsr, RngPhilox, RngXorwow, SrcTensor, Xorwow,
};
use isa_maverick::legality::{
    LegalRandGetState, LegalRandSetState, RandGetStateArm, RandSetStateArm,
};
use isa_maverick::{RandGetState, RandSetState, StateTensor};

fn restore<E: NeuronEngineMarker, G: RandSrcMarker, A: RandAlgorithmMarker, const N: usize>(
) -> RandSetStateArm
where
    (E, G, A, SrcTensor): LegalRandSetState<N>,
{
    let inst = RandSetState::restore::<E, G, A, N>(StateTensor::sbuf(0, 0x100).unwrap(), 128);
    inst.validate().unwrap();
    <(E, G, A, SrcTensor) as LegalRandSetState<N>>::ARM
}

fn seed<E: NeuronEngineMarker, G: RandSrcMarker, A: RandAlgorithmMarker, const N: usize>(
    state: [u32; N],
) -> RandSetStateArm
where
    (E, G, A, ImmSingle): LegalRandSetState<N>,
{
    let inst = RandSetState::seed_immediate::<E, G, A, N>(state, 128);
    inst.validate().unwrap();
    <(E, G, A, ImmSingle) as LegalRandSetState<N>>::ARM
}

fn save<E: NeuronEngineMarker, G: RandSrcMarker, A: RandAlgorithmMarker, const N: usize>(
) -> RandGetStateArm
where
    (E, G, A): LegalRandGetState<N>,
{
    let inst = RandGetState::save::<E, G, A, N>(StateTensor::sbuf(0, 0x100).unwrap(), 128);
    inst.validate().unwrap();
    <(E, G, A) as LegalRandGetState<N>>::ARM
}

fn main() {
    let set = [
        seed::<Pool, RngPhilox, Philox, 7>([1, 2, 3, 4, 5, 6, 7]),
        restore::<Pool, RngPhilox, Philox, 7>(),
        restore::<Pool, RngXorwow, Xorwow, 6>(),
        restore::<Pool, OutputCvtLfsr, Lfsr, 1>(),
        restore::<Dve, RngXorwow, Xorwow, 24>(),
        restore::<Dve, RngLfsr, Lfsr, 4>(),
        restore::<Dve, OutputCvtLfsr, Lfsr, 4>(),
    ];
    let get = [
        save::<Pool, RngPhilox, Philox, 7>(),
        save::<Pool, RngXorwow, Xorwow, 6>(),
        save::<Pool, OutputCvtLfsr, Lfsr, 1>(),
        save::<Dve, RngXorwow, Xorwow, 24>(),
        save::<Dve, RngLfsr, Lfsr, 4>(),
        save::<Dve, OutputCvtLfsr, Lfsr, 4>(),
    ];
    assert_eq!(&set[..], RandSetState::LEGAL_ARMS);
    assert_eq!(&get[..], RandGetState::LEGAL_ARMS);
}
