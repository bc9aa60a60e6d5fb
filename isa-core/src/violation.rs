use core::fmt;

/// Most field values a [`Violation`] carries.
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

/// A field a failed predicate read, with the value it held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InvolvedField {
    /// Dotted path inside the operand struct, or a validator argument such as `engine`.
    pub name: &'static str,
    /// The value (enums by discriminant, signed fields sign-extended).
    pub value: i64,
    /// For an enum value, its vendor member name without prefix (`"XORWOW"`).
    pub member: Option<&'static str>,
}

/// Which validator predicate rejected an instruction, and why.
///
/// The path runs from the top-level validator down to the predicate that
/// failed, the way the vendor's debug validators report
/// `inst failed assertion check: '<name>'`. Paths and field names are static
/// (the generator knows every path a validator can fail along); only the
/// values are recorded at run time, so a violation is small, `Copy` and never
/// allocates.
#[derive(Clone, Copy)]
pub struct Violation {
    path: &'static [&'static str],
    fields: &'static [FieldSpec],
    values: [i64; MAX_FIELDS],
}

impl Violation {
    /// A violation along `path` (top-level validator first), reporting `fields` with `values`
    /// (`values[k]` belongs to `fields[k]`; fields beyond [`MAX_FIELDS`] are not shown).
    pub const fn new(
        path: &'static [&'static str],
        fields: &'static [FieldSpec],
        values: [i64; MAX_FIELDS],
    ) -> Self {
        Violation {
            path,
            fields,
            values,
        }
    }

    /// The predicate chain, top-level validator first.
    pub fn path(&self) -> &'static [&'static str] {
        self.path
    }

    /// The predicate that failed: the last element of [`Violation::path`].
    pub fn predicate(&self) -> &'static str {
        self.path.last().copied().unwrap_or("")
    }

    /// The fields the failing predicate read, with their values.
    pub fn fields(&self) -> impl Iterator<Item = InvolvedField> + '_ {
        self.fields
            .iter()
            .zip(self.values.iter())
            .map(|(spec, &value)| InvolvedField {
                name: spec.name,
                value,
                member: spec.member.and_then(|m| m(value as u64)),
            })
    }

    /// The value recorded for the field `name`, if the violation reports it.
    pub fn value_of(&self, name: &str) -> Option<i64> {
        self.fields().find(|f| f.name == name).map(|f| f.value)
    }

    /// True when the predicate read more fields than a violation carries.
    pub fn is_truncated(&self) -> bool {
        self.fields.len() > MAX_FIELDS
    }
}

impl PartialEq for Violation {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path && self.fields().eq(other.fields())
    }
}

impl Eq for Violation {}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "inst failed assertion check: '{}' (", self.predicate())?;
        for (k, step) in self.path.iter().enumerate() {
            if k > 0 {
                f.write_str(" -> ")?;
            }
            f.write_str(step)?;
        }
        f.write_str(")")?;
        for (k, field) in self.fields().enumerate() {
            f.write_str(if k == 0 { "; " } else { ", " })?;
            match field.member {
                Some(member) => write!(f, "{} = {} ({member})", field.name, field.value)?,
                None => write!(f, "{} = {:#x}", field.name, field.value)?,
            }
        }
        if self.is_truncated() {
            f.write_str(" [more fields not shown]")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Violation")
            .field("path", &self.path)
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
        },
        FieldSpec {
            name: "src_mem_pattern.num_elem[0]",
            member: None,
        },
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
             rand_algorithm = 3 (XORWOW), src_mem_pattern.num_elem[0] = 0x5"
        );
        assert!(core::mem::size_of::<Violation>() <= 128);
        assert!(!v.is_truncated());
    }
}
