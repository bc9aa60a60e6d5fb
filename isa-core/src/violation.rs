use core::fmt;

/// Deepest predicate chain a [`Violation`] records.
pub const MAX_PATH: usize = 8;
/// Most fields a [`Violation`] records.
pub const MAX_FIELDS: usize = 12;

/// An instruction field that a failed predicate read, with the value it held.
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
/// `inst failed assertion check: '<name>'`. Recording is fixed-size and never
/// allocates; a deeper chain or more fields than fit set [`Violation::is_truncated`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Violation {
    path: [&'static str; MAX_PATH],
    depth: u8,
    fields: [InvolvedField; MAX_FIELDS],
    field_count: u8,
    truncated: bool,
}

const NO_FIELD: InvolvedField = InvolvedField {
    name: "",
    value: 0,
    member: None,
};

impl Violation {
    /// A violation whose path starts at the top-level validator `root`.
    pub const fn new(root: &'static str) -> Self {
        let mut path = [""; MAX_PATH];
        path[0] = root;
        Violation {
            path,
            depth: 1,
            fields: [NO_FIELD; MAX_FIELDS],
            field_count: 0,
            truncated: false,
        }
    }

    /// Descends into `predicate`, the failing conjunct of the current one.
    pub fn enter(&mut self, predicate: &'static str) {
        if usize::from(self.depth) < MAX_PATH {
            self.path[usize::from(self.depth)] = predicate;
            self.depth += 1;
        } else {
            self.truncated = true;
        }
    }

    /// Records a field the failing predicate read.
    pub fn field(&mut self, name: &'static str, value: i64, member: Option<&'static str>) {
        if self.fields[..usize::from(self.field_count)]
            .iter()
            .any(|f| f.name == name)
        {
            return;
        }
        if usize::from(self.field_count) < MAX_FIELDS {
            self.fields[usize::from(self.field_count)] = InvolvedField {
                name,
                value,
                member,
            };
            self.field_count += 1;
        } else {
            self.truncated = true;
        }
    }

    /// The predicate chain, top-level validator first.
    pub fn path(&self) -> &[&'static str] {
        &self.path[..usize::from(self.depth)]
    }

    /// The predicate that failed: the last element of [`Violation::path`].
    pub fn predicate(&self) -> &'static str {
        self.path[usize::from(self.depth) - 1]
    }

    /// The fields the failing predicate read, with their values.
    pub fn fields(&self) -> &[InvolvedField] {
        &self.fields[..usize::from(self.field_count)]
    }

    /// True when the chain or the field list did not fit and was cut.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "inst failed assertion check: '{}' (", self.predicate())?;
        for (k, step) in self.path().iter().enumerate() {
            if k > 0 {
                f.write_str(" -> ")?;
            }
            f.write_str(step)?;
        }
        f.write_str(")")?;
        for (k, field) in self.fields().iter().enumerate() {
            f.write_str(if k == 0 { "; " } else { ", " })?;
            match field.member {
                Some(member) => write!(f, "{} = {} ({member})", field.name, field.value)?,
                None => write!(f, "{} = {:#x}", field.name, field.value)?,
            }
        }
        if self.truncated {
            f.write_str(" [truncated]")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Violation")
            .field("path", &self.path())
            .field("fields", &self.fields())
            .field("truncated", &self.truncated)
            .finish()
    }
}

impl core::error::Error for Violation {}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::string::ToString;

    #[test]
    fn records_path_and_fields_and_renders_like_the_vendor() {
        let mut v = Violation::new("is_valid_s1_rand");
        v.enter("rand_set_state_legal_combinations");
        v.field("rand_algorithm", 3, Some("XORWOW"));
        v.field("src_mem_pattern.num_elem[0]", 5, None);
        v.field("rand_algorithm", 3, Some("XORWOW"));
        assert_eq!(v.predicate(), "rand_set_state_legal_combinations");
        assert_eq!(v.path().len(), 2);
        assert_eq!(v.fields().len(), 2);
        assert_eq!(
            v.to_string(),
            "inst failed assertion check: 'rand_set_state_legal_combinations' \
             (is_valid_s1_rand -> rand_set_state_legal_combinations); \
             rand_algorithm = 3 (XORWOW), src_mem_pattern.num_elem[0] = 0x5"
        );
    }

    #[test]
    fn overflow_is_marked_not_panicking() {
        let mut v = Violation::new("root");
        for _ in 0..20 {
            v.enter("deeper");
        }
        assert!(v.is_truncated());
        assert_eq!(v.path().len(), MAX_PATH);
    }
}
