//! Reports: a serialisable summary of a generation's ISA surface, and the
//! semantic diff between two summaries (what a header drop changed).

pub mod api;
pub mod diff;
pub mod semver;
pub mod summary;

pub use diff::{diff, Change};
pub use summary::Summary;
