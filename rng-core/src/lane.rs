//! The lanes (partitions) every bank and kernel works in: their count and a row of one word per
//! lane, the unit of the banks' structure-of-arrays storage.

/// Lanes (partitions) of a bank.
pub const LANES: usize = 128;

/// One row of a bank: a word for every lane.
pub type LaneRow = [u32; LANES];
