//! What a [`Violation`] reports of the predicate that failed: the path of validator
//! functions down to it and the fields it read, with the limits of both. The explain pass
//! builds them ([`crate::explain`]); a violation carries and prints them.
//!
//! [`Violation`]: crate::Violation

use core::fmt;

/// Most field values a [`Violation`](crate::Violation) carries.
pub const MAX_FIELDS: usize = 10;

/// A field a failing predicate reads: its name and, for an enum, how to name a value.
#[derive(Clone, Copy, Debug)]
pub struct FieldSpec {
    /// Dotted path inside the operand struct (`src_mem_pattern.num_elem[0]`), or a
    /// validator argument such as `engine`.
    pub name: &'static str,
    /// For an enum field: the vendor member name of a value.
    pub member: Option<fn(u64) -> Option<&'static str>>,
}

/// Most steps a [`Violation`](crate::Violation) path holds (deeper steps are dropped, the outermost kept).
pub const MAX_PATH: usize = 8;

/// The predicate chain of a [`Violation`](crate::Violation), top-level validator first: a small array of static
/// names that dereferences to a slice (`path.starts_with(..)`, `path.last()`, `path[0]`) and
/// compares equal to arrays and slices of `&str`.
#[derive(Clone, Copy)]
pub struct PredicatePath {
    steps: [&'static str; MAX_PATH],
    len: usize,
}

impl PredicatePath {
    pub(crate) fn new(steps: [&'static str; MAX_PATH], len: usize) -> Self {
        PredicatePath {
            steps,
            len: len.min(MAX_PATH),
        }
    }

    pub(crate) fn of(path: &'static [&'static str]) -> Self {
        let mut steps = [""; MAX_PATH];
        for (slot, s) in steps.iter_mut().zip(path) {
            *slot = s;
        }
        PredicatePath::new(steps, path.len())
    }
}

impl core::ops::Deref for PredicatePath {
    type Target = [&'static str];
    fn deref(&self) -> &[&'static str] {
        &self.steps[..self.len]
    }
}

impl<'a> IntoIterator for &'a PredicatePath {
    type Item = &'a &'static str;
    type IntoIter = core::slice::Iter<'a, &'static str>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for PredicatePath {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for PredicatePath {}

impl<const N: usize> PartialEq<[&str; N]> for PredicatePath {
    fn eq(&self, other: &[&str; N]) -> bool {
        **self == other[..]
    }
}

impl PartialEq<[&str]> for PredicatePath {
    fn eq(&self, other: &[&str]) -> bool {
        **self == *other
    }
}

impl PartialEq<&[&str]> for PredicatePath {
    fn eq(&self, other: &&[&str]) -> bool {
        **self == **other
    }
}

impl fmt::Debug for PredicatePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
