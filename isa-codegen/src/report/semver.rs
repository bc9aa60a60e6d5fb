//! What a header drop does to a generated crate's public API, and the version bump that asks
//! for under Cargo's SemVer compatibility guide (the Cargo book, "SemVer Compatibility"):
//! the difference between two [`Listing`]s, each change classified by the guide's rule for it,
//! and the verdict, the strongest bump with the first change that needs it.
//!
//! The rules applied (anchors of the guide's `semver.html`), for the items a generated crate
//! has (every generated struct's fields are public, and the generated enums are exhaustive,
//! README "Versioning"):
//! * removing or renaming any public item is major (`item-remove`), a feature too
//!   (`cargo-feature-remove`);
//! * adding a variant to an exhaustive enum is major (`enum-variant-new`);
//! * adding a public field to a struct whose fields are all public is major
//!   (`struct-add-public-field-when-no-private`); the variants and fields of a new enum or
//!   struct come with it, a minor change;
//! * an item whose type, value, parameters or feature changed is major: code written against
//!   the old one need not compile (a changed parameter list is `fn-change-arity`; a constant's
//!   value can be an array length);
//! * adding any other public item, trait impl or Cargo feature is minor (`item-new`,
//!   `cargo-feature-add`);
//! * a regeneration that changes no listed item (documentation, validator bodies, firmware data)
//!   is a patch.
//!
//! For `0.y.z` the guide treats a change of `y` as major and of `z` as minor: a breaking drop
//! moves 0.1.x to 0.2.0, any other to 0.1.(x+1).

use super::api::{Item, Kind, Listing};
use std::collections::BTreeMap;
use std::fmt;

/// The version bump a change needs, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bump {
    /// Nothing public changed.
    Patch,
    /// Only additions a dependent cannot notice.
    Minor,
    /// A dependent's code may stop compiling.
    Major,
}

impl fmt::Display for Bump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        })
    }
}

/// One change of the public API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiChange {
    /// A new item.
    Added(Item),
    /// An item no longer present.
    Removed(Item),
    /// The same path and kind, another detail or feature.
    Changed {
        /// As it was.
        old: Item,
        /// As it is.
        new: Item,
    },
}

impl ApiChange {
    /// The item as it is now (or as it was, when removed).
    pub fn item(&self) -> &Item {
        match self {
            ApiChange::Added(i) | ApiChange::Removed(i) => i,
            ApiChange::Changed { new, .. } => new,
        }
    }
}

impl fmt::Display for ApiChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApiChange::Added(i) => write!(f, "+ {i}"),
            ApiChange::Removed(i) => write!(f, "- {i}"),
            ApiChange::Changed { old, new } => write!(f, "~ {new} (was{})", old.signature()),
        }
    }
}

/// Which rule of the guide a change falls under, and the bump it asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The bump.
    pub bump: Bump,
    /// The rule, as the guide names it, with its anchor in `semver.html`.
    pub text: &'static str,
}

const ITEM_REMOVE: Rule = Rule {
    bump: Bump::Major,
    text: "removing a public item is major (item-remove)",
};
const FEATURE_REMOVE: Rule = Rule {
    bump: Bump::Major,
    text: "removing a Cargo feature is major (cargo-feature-remove)",
};
const VARIANT_NEW: Rule = Rule {
    bump: Bump::Major,
    text: "adding a variant to an exhaustive enum is major (enum-variant-new)",
};
const FIELD_NEW: Rule = Rule {
    bump: Bump::Major,
    text: "adding a public field to a struct with no private field is major (struct-add-public-field-when-no-private)",
};
const FN_CHANGED: Rule = Rule {
    bump: Bump::Major,
    text: "changing a function's parameters or result is major (fn-change-arity)",
};
const ITEM_CHANGED: Rule = Rule {
    bump: Bump::Major,
    text: "changing a public item's type, value or required feature is major: code written against the old one need not compile",
};
const FEATURE_ADD: Rule = Rule {
    bump: Bump::Minor,
    text: "adding a Cargo feature is minor (cargo-feature-add)",
};
const DEFAULT_FEATURES_GROW: Rule = Rule {
    bump: Bump::Minor,
    text: "a default feature that enables more is minor (cargo-feature-add)",
};
const ITEM_NEW: Rule = Rule {
    bump: Bump::Minor,
    text: "adding a public item is minor (item-new)",
};

/// The enum of a variant's path (`Opcode::Rand` → `Opcode`), the struct of a field's
/// (`S1Rand.reserved` → `S1Rand`).
fn owner(item: &Item) -> Option<(&str, Kind)> {
    match item.kind {
        Kind::Variant => Some((item.path.rsplit_once("::")?.0, Kind::Enum)),
        Kind::Field => Some((item.path.rsplit_once('.')?.0, Kind::Struct)),
        _ => None,
    }
}

/// The rule a change from listing `old` falls under. A variant or field is a change of its enum
/// or struct only when that was in `old`: in a new one it is part of a new item.
pub fn rule(change: &ApiChange, old: &Listing) -> Rule {
    let existed =
        |(path, kind): (&str, Kind)| old.items.iter().any(|i| i.path == path && i.kind == kind);
    match change {
        ApiChange::Removed(i) if i.kind == Kind::Feature => FEATURE_REMOVE,
        ApiChange::Removed(_) => ITEM_REMOVE,
        ApiChange::Added(i) => match i.kind {
            Kind::Variant if owner(i).is_some_and(existed) => VARIANT_NEW,
            Kind::Field if owner(i).is_some_and(existed) => FIELD_NEW,
            Kind::Feature => FEATURE_ADD,
            _ => ITEM_NEW,
        },
        ApiChange::Changed { old, new } => {
            if new.kind == Kind::Feature && old.feature == new.feature && grows(old, new) {
                DEFAULT_FEATURES_GROW
            } else if new.kind == Kind::Fn {
                FN_CHANGED
            } else {
                ITEM_CHANGED
            }
        }
    }
}

/// True when feature `new` enables everything `old` did, and more (`full` gaining a shape).
fn grows(old: &Item, new: &Item) -> bool {
    let members = |i: &Item| -> Vec<String> {
        i.detail
            .trim_start_matches(" = [")
            .trim_end_matches(']')
            .split(", ")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (was, is) = (members(old), members(new));
    was.iter().all(|m| is.contains(m)) && is.len() > was.len()
}

/// What changed from `old` to `new`, in the order of the new listing's paths (an item that was
/// removed at the place it had).
pub fn api_diff(old: &Listing, new: &Listing) -> Vec<ApiChange> {
    let key = |i: &Item| (i.path.clone(), i.kind);
    let was: BTreeMap<_, &Item> = old.items.iter().map(|i| (key(i), i)).collect();
    let is: BTreeMap<_, &Item> = new.items.iter().map(|i| (key(i), i)).collect();
    let mut out: Vec<ApiChange> = Vec::new();
    let mut keys: Vec<_> = was.keys().chain(is.keys()).cloned().collect();
    keys.sort();
    keys.dedup();
    for k in keys {
        match (was.get(&k), is.get(&k)) {
            (Some(o), Some(n)) if o != n => out.push(ApiChange::Changed {
                old: (*o).clone(),
                new: (*n).clone(),
            }),
            (Some(_), Some(_)) => {}
            (Some(o), None) => out.push(ApiChange::Removed((*o).clone())),
            (None, Some(n)) => out.push(ApiChange::Added((*n).clone())),
            (None, None) => {}
        }
    }
    out
}

/// The bump a set of changes needs, and why: the first change that needs it, with its rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The bump.
    pub bump: Bump,
    /// The first change needing it and its rule (`None` for a patch).
    pub reason: Option<(ApiChange, Rule)>,
}

impl Verdict {
    /// The verdict of `changes` from listing `old` (the output of [`api_diff`] from `old`).
    pub fn of(old: &Listing, changes: &[ApiChange]) -> Verdict {
        let mut best: Option<(ApiChange, Rule)> = None;
        for c in changes {
            let r = rule(c, old);
            if best.as_ref().is_none_or(|(_, b)| r.bump > b.bump) {
                best = Some((c.clone(), r));
            }
        }
        match best {
            Some((c, r)) => Verdict {
                bump: r.bump,
                reason: Some((c, r)),
            },
            None => Verdict {
                bump: Bump::Patch,
                reason: None,
            },
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.reason {
            None => write!(f, "{}: no public item changed", self.bump),
            Some((c, r)) => write!(f, "{}: `{c}`: {}", self.bump, r.text),
        }
    }
}

/// The version after `bump` from `current` (`major.minor.patch`, as Cargo reads it): for
/// `0.y.z` a major bump is `0.(y+1).0` and any other `0.y.(z+1)`; from 1.0 on the usual
/// three. A pre-release or build suffix is dropped; a version that is not three numbers is an
/// error naming it.
pub fn next_version(current: &str, bump: Bump) -> Result<String, String> {
    let core = current.split(['-', '+']).next().unwrap_or(current).trim();
    let parts: Vec<u64> = core
        .split('.')
        .map(|p| p.parse::<u64>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("`{current}` is not a `major.minor.patch` version"))?;
    let [major, minor, patch] = parts[..] else {
        return Err(format!("`{current}` is not a `major.minor.patch` version"));
    };
    Ok(match (major, bump) {
        (0, Bump::Major) => format!("0.{}.0", minor + 1),
        (0, _) => format!("0.{minor}.{}", patch + 1),
        (_, Bump::Major) => format!("{}.0.0", major + 1),
        (_, Bump::Minor) => format!("{major}.{}.0", minor + 1),
        (_, Bump::Patch) => format!("{major}.{minor}.{}", patch + 1),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(lines: &str) -> Listing {
        Listing::parse(lines).unwrap()
    }

    #[test]
    fn each_kind_of_change_gets_its_rule() {
        let old = listing(
            "A struct\nA.x field: u8\nE enum repr(u8)\nE::P variant = 0\nf fn (a: u8) -> Self\n\
             full feature = [s]\ns feature\nt feature\nC const: u32 = 1\ng fn () -> Self\n",
        );
        let new = listing(
            "A struct\nA.x field: u16\nA.y field: u8\nE enum repr(u8)\nE::P variant = 0\n\
             E::Q variant = 1\nf fn (a: u8, b: u8) -> Self\nfull feature = [s, u]\ns feature\n\
             u feature\nC const: u32 = 2\nh fn () -> Self\n",
        );
        let text: Vec<(String, Bump)> = api_diff(&old, &new)
            .iter()
            .map(|c| (c.to_string(), rule(c, &old).bump))
            .collect();
        let expected = [
            ("~ A.x field: u16 (was: u8)", Bump::Major),
            ("+ A.y field: u8", Bump::Major),
            ("~ C const: u32 = 2 (was: u32 = 1)", Bump::Major),
            ("+ E::Q variant = 1", Bump::Major),
            (
                "~ f fn (a: u8, b: u8) -> Self (was (a: u8) -> Self)",
                Bump::Major,
            ),
            ("~ full feature = [s, u] (was = [s])", Bump::Minor),
            ("- g fn () -> Self", Bump::Major),
            ("+ h fn () -> Self", Bump::Minor),
            ("- t feature", Bump::Major),
            ("+ u feature", Bump::Minor),
        ];
        let expected: Vec<(String, Bump)> =
            expected.iter().map(|(s, b)| (s.to_string(), *b)).collect();
        assert_eq!(text, expected);
        let v = Verdict::of(&old, &api_diff(&old, &new));
        assert_eq!(v.bump, Bump::Major);
        assert_eq!(v.reason.unwrap().0.item().path, "A.x");
        assert_eq!(Verdict::of(&old, &api_diff(&old, &old)).bump, Bump::Patch);
        // The variants and fields of a new enum or struct come with it: a minor change.
        let grown = listing(
            "A struct\nA.x field: u8\nB struct\nB.x field: u8\nE enum repr(u8)\nE::P variant = 0\n\
             F enum repr(u8)\nF::P variant = 0\n",
        );
        let base = listing("A struct\nA.x field: u8\nE enum repr(u8)\nE::P variant = 0\n");
        let changes = api_diff(&base, &grown);
        assert_eq!(changes.len(), 4);
        assert!(changes.iter().all(|c| rule(c, &base).bump == Bump::Minor));
        assert_eq!(Verdict::of(&base, &changes).bump, Bump::Minor);
    }

    #[test]
    fn versions_move_as_cargo_reads_them() {
        assert_eq!(next_version("0.1.0", Bump::Major).unwrap(), "0.2.0");
        assert_eq!(next_version("0.1.3", Bump::Minor).unwrap(), "0.1.4");
        assert_eq!(next_version("0.1.3", Bump::Patch).unwrap(), "0.1.4");
        assert_eq!(next_version("1.4.2", Bump::Major).unwrap(), "2.0.0");
        assert_eq!(next_version("1.4.2", Bump::Minor).unwrap(), "1.5.0");
        assert_eq!(next_version("1.4.2", Bump::Patch).unwrap(), "1.4.3");
        assert_eq!(next_version("0.3.0-rc.1", Bump::Major).unwrap(), "0.4.0");
        assert!(next_version("1.2", Bump::Minor).is_err());
        assert!(next_version("x.y.z", Bump::Minor).is_err());
    }
}
