//! Runtime CPU-feature dispatch for the lane-bank kernels: the crate's only `unsafe`.
//!
//! A kernel is written once, as portable code over arrays of lanes that LLVM vectorises
//! ([`crate::kernel`]); here it is compiled twice more, with AVX2 and with AVX-512 enabled, and
//! the best copy the CPU runs is taken. Baseline x86-64 has SSE2 only: half the vector width,
//! and no per-lane variable shifts, which PCG32's rotate needs. AVX-512 (its VL, DQ and BW
//! parts, on 256-bit registers) adds three-input logic (`vpternlogd`: XORWOW's and the LFSR's
//! chains of XORs in one instruction), rotates (PCG32) and a 64-bit lane multiply (PCG32's
//! state step). All copies compute the same words; the bank's tests run every kernel at every
//! [`Level`] this CPU has against the scalar model.

#![allow(unsafe_code)]

/// An instruction-set level a kernel can be run at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Level {
    /// The target's baseline (SSE2 on x86-64).
    Baseline,
    /// AVX2 (x86-64), taken only where the CPU reports it.
    #[cfg(target_arch = "x86_64")]
    Avx2,
    /// AVX-512 F, VL, DQ and BW (x86-64), taken only where the CPU reports all four.
    #[cfg(target_arch = "x86_64")]
    Avx512,
}

#[cfg(target_arch = "x86_64")]
cpufeatures::new!(cpu_avx2, "avx2");
#[cfg(target_arch = "x86_64")]
cpufeatures::new!(cpu_avx512, "avx512f", "avx512vl", "avx512dq", "avx512bw");

impl Level {
    /// The best level this CPU runs.
    pub(crate) fn best() -> Level {
        #[cfg(target_arch = "x86_64")]
        if cpu_avx512::get() && cpu_avx2::get() {
            return Level::Avx512;
        }
        #[cfg(target_arch = "x86_64")]
        if cpu_avx2::get() {
            return Level::Avx2;
        }
        Level::Baseline
    }

    /// Every level this CPU runs (for the tests that compare them with the model).
    #[cfg(test)]
    pub(crate) fn available() -> impl Iterator<Item = Level> {
        let all = [
            Level::Baseline,
            #[cfg(target_arch = "x86_64")]
            Level::Avx2,
            #[cfg(target_arch = "x86_64")]
            Level::Avx512,
        ];
        all.into_iter().filter(|l| *l <= Level::best())
    }
}

impl PartialOrd for Level {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Level {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        (*self as u8).cmp(&(*other as u8))
    }
}

/// A kernel: all its work in `run`, which is `#[inline(always)]` (with everything it calls) so
/// that it is compiled into each level's copy below.
pub(crate) trait Kernel {
    /// Does the work.
    fn run(self);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn run_avx2<K: Kernel>(kernel: K) {
    kernel.run();
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,avx512f,avx512vl,avx512dq,avx512bw")]
fn run_avx512<K: Kernel>(kernel: K) {
    kernel.run();
}

/// Runs `kernel` at `level`, or at the baseline where the CPU lacks `level`.
pub(crate) fn run<K: Kernel>(level: Level, kernel: K) {
    match level {
        #[cfg(target_arch = "x86_64")]
        Level::Avx512 if cpu_avx512::get() && cpu_avx2::get() => {
            // SAFETY: the CPU has AVX2 and AVX-512 F, VL, DQ and BW, checked just above
            // (cpufeatures also checks that the OS saves the AVX-512 state), which is all
            // `run_avx512`'s target features require.
            unsafe { run_avx512(kernel) }
        }
        #[cfg(target_arch = "x86_64")]
        Level::Avx2 if cpu_avx2::get() => {
            // SAFETY: the CPU has AVX2, checked just above (cpufeatures also checks that the OS
            // saves the AVX registers), which is all `run_avx2`'s target feature requires.
            unsafe { run_avx2(kernel) }
        }
        _ => kernel.run(),
    }
}
