use crate::explain::{Explain, MAX_ARGS};
use crate::predicate::{FieldSpec, Note, PredicatePath, Shown, MAX_FIELDS};
use core::fmt;

/// A field a failed predicate read, with the value it held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InvolvedField {
    /// Dotted path inside the operand struct, or a validator argument such as `engine`.
    pub name: &'static str,
    /// The value (enums by discriminant, signed fields sign-extended).
    pub value: i64,
    /// For an enum value, its vendor member name without prefix (`"XORWOW"`).
    pub member: Option<&'static str>,
    /// How the value is written (decimal, an address in hex, an fp32 immediate as a float).
    pub shown: Shown,
}

impl InvolvedField {
    /// Writes the value `v` as this field's values are written: `129`, `0x2000000`, `-1.0`,
    /// an enum value as `3 (XORWOW)`.
    fn write_value(&self, f: &mut fmt::Formatter<'_>, v: i64, member: Option<&str>) -> fmt::Result {
        self.shown.write(f, v)?;
        match member {
            Some(m) => write!(f, " ({m})"),
            None => Ok(()),
        }
    }
}

/// `name = value`, the value written as the field says ([`InvolvedField::shown`]).
impl fmt::Display for InvolvedField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} = ", self.name)?;
        self.write_value(f, self.value, self.member)
    }
}

/// Which validator predicate rejected an instruction, and why.
///
/// The path runs from the top-level validator down to the predicate that
/// failed, the way the vendor's debug validators report
/// `inst failed assertion check: '<name>'`. Path steps and field names are
/// static strings; a violation from a generated validator keeps only the
/// rejected word and the engine, and re-runs the generated explain pass
/// (see [`crate::explain`]) when it is inspected, so it is small (at most
/// 120 bytes), `Copy`, and never allocates.
#[derive(Clone, Copy)]
pub struct Violation(Repr);

#[derive(Clone, Copy)]
enum Repr {
    /// Path and fields known statically.
    Static {
        path: &'static [&'static str],
        fields: &'static [FieldSpec],
        values: [i64; MAX_FIELDS],
    },
    /// A word the generated explain function walks on demand.
    Traced {
        word: [u8; crate::INST_NBYTES],
        args: [i64; MAX_ARGS],
        explain: fn(&mut Explain),
    },
}

/// What a violation says, computed (the path, the fields and their values).
struct Trace {
    path: PredicatePath,
    fields: [Option<(&'static FieldSpec, i64)>; MAX_FIELDS],
    truncated: bool,
    note: Option<Note>,
}

impl Violation {
    /// A violation along `path` (top-level validator first), reporting `fields` with `values`
    /// (`values[k]` belongs to `fields[k]`; fields beyond [`MAX_FIELDS`] are not shown).
    pub const fn new(
        path: &'static [&'static str],
        fields: &'static [FieldSpec],
        values: [i64; MAX_FIELDS],
    ) -> Self {
        Violation(Repr::Static {
            path,
            fields,
            values,
        })
    }

    /// The violation of the validator `explain` walks, for the rejected instruction `word`
    /// executed with `args` (the engine; at most [`MAX_ARGS`]). Nothing is evaluated until the
    /// violation is inspected; `explain` must reject `word` the way the validator did.
    pub fn traced(word: [u8; crate::INST_NBYTES], args: &[i64], explain: fn(&mut Explain)) -> Self {
        let mut a = [0; MAX_ARGS];
        for (slot, v) in a.iter_mut().zip(args) {
            *slot = *v;
        }
        Violation(Repr::Traced {
            word,
            args: a,
            explain,
        })
    }

    fn trace(&self) -> Trace {
        match &self.0 {
            Repr::Static {
                path,
                fields,
                values,
            } => {
                let mut out = [None; MAX_FIELDS];
                for (slot, (f, v)) in out.iter_mut().zip(fields.iter().zip(values)) {
                    *slot = Some((f, *v));
                }
                Trace {
                    path: PredicatePath::of(path),
                    fields: out,
                    truncated: fields.len() > MAX_FIELDS,
                    note: None,
                }
            }
            Repr::Traced {
                word,
                args,
                explain,
            } => {
                let mut x = Explain::new(*word, *args);
                explain(&mut x);
                Trace {
                    path: x.path(),
                    fields: x.fields(),
                    truncated: x.truncated(),
                    note: x.note(),
                }
            }
        }
    }

    /// The predicate chain, top-level validator first.
    pub fn path(&self) -> PredicatePath {
        self.trace().path
    }

    /// The predicate that failed: the last element of [`Violation::path`].
    pub fn predicate(&self) -> &'static str {
        self.path().last().copied().unwrap_or("")
    }

    /// The fields the failing predicate read, with their values.
    pub fn fields(&self) -> impl Iterator<Item = InvolvedField> {
        involved(self.trace())
    }

    /// What the violation says beyond the fields, when the explain walk can tell: the bound a
    /// compared field broke, or the memory a start address lies in that the operand may not use.
    pub fn note(&self) -> Option<Note> {
        self.trace().note
    }

    /// The value recorded for the field `name`, if the violation reports it.
    pub fn value_of(&self, name: &str) -> Option<i64> {
        self.fields().find(|f| f.name == name).map(|f| f.value)
    }

    /// True when the predicate read more fields than a violation carries.
    pub fn is_truncated(&self) -> bool {
        self.trace().truncated
    }
}

fn involved(trace: Trace) -> impl Iterator<Item = InvolvedField> {
    trace
        .fields
        .into_iter()
        .flatten()
        .map(|(spec, value)| InvolvedField {
            name: spec.name,
            value,
            member: spec.member.and_then(|m| m(value as u64)),
            shown: spec.shown,
        })
}

impl PartialEq for Violation {
    fn eq(&self, other: &Self) -> bool {
        self.path() == other.path() && self.fields().eq(other.fields())
    }
}

impl Eq for Violation {}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let trace = self.trace();
        let path = trace.path;
        let predicate = path.last().copied().unwrap_or("");
        write!(f, "inst failed assertion check: '{predicate}' (")?;
        for (k, step) in path.iter().enumerate() {
            if k > 0 {
                f.write_str(" -> ")?;
            }
            f.write_str(step)?;
        }
        f.write_str(")")?;
        let (note, truncated) = (trace.note, trace.truncated);
        let specs = trace.fields;
        for (k, field) in involved(trace).enumerate() {
            f.write_str(if k == 0 { "; " } else { ", " })?;
            write!(f, "{field}")?;
            if let Some(Note::Bound {
                field: name,
                relation,
                bound,
            }) = note
            {
                if name == field.name {
                    write!(f, ", {} ", relation.words())?;
                    let member = specs[k]
                        .and_then(|(spec, _)| spec.member)
                        .and_then(|m| m(bound as u64));
                    field.write_value(f, bound, member)?;
                }
            }
        }
        if truncated {
            f.write_str(" [more fields not shown]")?;
        }
        if let Some(Note::Space {
            allowed,
            address,
            found,
        }) = note
        {
            write!(
                f,
                "; {allowed}: start address {address:#x} is in {}",
                found.name()
            )?;
        }
        Ok(())
    }
}

impl fmt::Debug for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Violation")
            .field("path", &self.path())
            .field("fields", &FieldsDebug(self))
            .finish()
    }
}

struct FieldsDebug<'a>(&'a Violation);

impl fmt::Debug for FieldsDebug<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.fields()).finish()
    }
}

impl core::error::Error for Violation {}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::string::ToString;

    fn algo_name(v: u64) -> Option<&'static str> {
        (v == 3).then_some("XORWOW")
    }

    static PATH: [&str; 2] = ["is_valid_s1_rand", "rand_set_state_legal_combinations"];
    static FIELDS: [FieldSpec; 2] = [
        FieldSpec {
            name: "rand_algorithm",
            member: Some(algo_name),
            shown: Shown::Decimal,
        },
        FieldSpec::named("src_mem_pattern.num_elem[0]"),
    ];

    #[test]
    fn renders_like_the_vendor_and_stays_small() {
        let mut values = [0; MAX_FIELDS];
        values[0] = 3;
        values[1] = 5;
        let v = Violation::new(&PATH, &FIELDS, values);
        assert_eq!(v.predicate(), "rand_set_state_legal_combinations");
        assert_eq!(v.value_of("src_mem_pattern.num_elem[0]"), Some(5));
        assert_eq!(
            v.to_string(),
            "inst failed assertion check: 'rand_set_state_legal_combinations' \
             (is_valid_s1_rand -> rand_set_state_legal_combinations); \
             rand_algorithm = 3 (XORWOW), src_mem_pattern.num_elem[0] = 5"
        );
        // Below clippy's `result_large_err` threshold, so `Result<_, Violation>` stays cheap.
        assert!(core::mem::size_of::<Violation>() <= 120);
        assert!(!v.is_truncated());
    }
}
