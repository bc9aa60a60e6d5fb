//! Duplicate keys in the tree's JSON files.
//!
//! serde_json keeps the last of two equal keys of an object, so a repeated struct in the mapping
//! or a repeated field in `rng-runtime.json` would silently replace the first. This pass walks
//! the document once more and rejects such an object, naming the lines of both keys.
//!
//! serde_json gives positions only with errors, so both lines come from errors: the first walk
//! stops at the repeated key (its line), a second walk stops at the first occurrence of that key
//! in the same object (counted in document order), which gives the other line.

use crate::diag::{Diagnostic, Loc};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;

/// `Ok` when no object of `text` has two equal keys (or when `text` is not JSON at all: the
/// caller's own parse reports that); otherwise a diagnostic at the repeated key's line naming
/// the first one's line. `file` is the file's path in the tree.
pub fn reject_duplicate_keys(text: &str, file: &str) -> Result<(), Diagnostic> {
    let state = RefCell::new(State::default());
    let second = match walk(text, &state) {
        Ok(()) => return Ok(()),
        Err(e) => e.line() as u32,
    };
    let Some((object, key)) = state.borrow_mut().found.take() else {
        // A syntax error, not a repeat: the caller's parse names it.
        return Ok(());
    };
    let state = RefCell::new(State {
        target: Some((object, key.clone())),
        ..State::default()
    });
    let first = walk(text, &state).err().map_or(0, |e| e.line() as u32);
    Err(Diagnostic::new(
        Loc::new(file, second),
        format!(
            "duplicate key `{key}`: the same object has it at {}; JSON readers keep only one of them",
            Loc::new(file, first)
        ),
    ))
}

fn walk(text: &str, state: &RefCell<State>) -> Result<(), serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    Walk(state).deserialize(&mut de)?;
    de.end()
}

#[derive(Default)]
struct State {
    /// Objects opened so far, in document order.
    objects: usize,
    /// The first walk's finding: (object number, key).
    found: Option<(usize, String)>,
    /// The second walk's target: stop at this key of this object.
    target: Option<(usize, String)>,
}

#[derive(Clone, Copy)]
struct Walk<'a>(&'a RefCell<State>);

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(self)?.is_some() {}
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let object = {
            let mut s = self.0.borrow_mut();
            s.objects += 1;
            s.objects - 1
        };
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let mut s = self.0.borrow_mut();
            // serde_json attaches the position just after the key to an error raised here.
            if s.target.as_ref() == Some(&(object, key.clone())) {
                return Err(de::Error::custom("first occurrence"));
            }
            if !seen.insert(key.clone()) {
                if s.target.is_none() {
                    s.found = Some((object, key));
                }
                return Err(de::Error::custom("duplicate key"));
            }
            drop(s);
            map.next_value_seed(self)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_repeated_key_names_both_lines() {
        let text =
            "{\n  \"a\": {\n    \"x\": 1,\n    \"y\": [1, {\"x\": 2}],\n    \"x\": 3\n  }\n}\n";
        let d = reject_duplicate_keys(text, "f.json").unwrap_err();
        assert_eq!(d.loc, Loc::new("f.json", 5));
        assert!(
            d.message.contains("`x`") && d.message.contains("f.json:3"),
            "{d}"
        );
    }

    #[test]
    fn the_same_key_in_different_objects_is_fine() {
        assert!(reject_duplicate_keys("{\"a\": {\"x\": 1}, \"b\": {\"x\": 1}}", "f").is_ok());
        // Not JSON: left to the caller's parse.
        assert!(reject_duplicate_keys("{ \"a\": ", "f").is_ok());
        // A repeat at the top level, on one line.
        let d = reject_duplicate_keys("{\"a\": 1, \"a\": 2}", "f").unwrap_err();
        assert_eq!(d.loc.line, 1);
    }
}
