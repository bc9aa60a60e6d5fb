//! Evidence notes: the trailing comment beside a fact in a header (a placement line of
//! `neuron_isa_check_opcode_on_engine`, the first line of a legality arm) that says how the
//! fact is known.
//!
//! A note may open with an evidence level (`// inferred (A27, C4)`) and names the
//! `headers/PROVENANCE.md` entries it rests on in parentheses: a group whose first item looks
//! like an entry (`A` or `C` and a digit) is a reference group, and every item of it must be
//! an entry name. Other parentheses are prose (`(rng-facts 4.10)`). Whether a named entry
//! exists is not checked here: `PROVENANCE.md` is the project's documentation beside the
//! trees, not part of a tree, and the header tests check the shipped notes against it.

use isa_core::{Evidence, Reference};

/// What a note says about the evidence of its fact.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EvidenceNote {
    /// The level the note opens with, if its first word is one.
    pub level: Option<Evidence>,
    /// The entries its reference groups name, in order.
    pub references: Vec<Reference>,
}

impl EvidenceNote {
    /// The level of the fact: the note's own when it opens with one; otherwise `assumed` when
    /// it names an assumption, `conflict` when it names conflicts only, and `observed` (what
    /// `PROVENANCE.md` calls documented) when it names no entry.
    pub fn evidence(&self) -> Evidence {
        let names = |assumption: bool| {
            self.references
                .iter()
                .any(|r| matches!(r, Reference::Assumption(_)) == assumption)
        };
        self.level.unwrap_or(if names(true) {
            Evidence::Assumed
        } else if names(false) {
            Evidence::Conflict
        } else {
            Evidence::Observed
        })
    }
}

/// Parses the text of a note (what follows `//`); a malformed reference group is an error
/// saying what is wrong with it.
pub fn parse(text: &str) -> Result<EvidenceNote, String> {
    let text = text.trim();
    let word: String = text.chars().take_while(char::is_ascii_alphabetic).collect();
    let mut note = EvidenceNote {
        level: Evidence::from_name(&word),
        references: Vec::new(),
    };
    let mut rest = text;
    while let Some(open) = rest.find('(') {
        let after = &rest[open + 1..];
        let Some(close) = after.find(')') else {
            return Err(format!("the note `{text}` opens a `(` it does not close"));
        };
        let group = &after[..close];
        if is_reference_group(group) {
            for item in group.split(',') {
                let item = item.trim();
                let r = Reference::from_name(item).ok_or_else(|| {
                    format!(
                        "`{item}` in `({group})` is not a PROVENANCE.md entry name (`A<n>` or `C<n>`, n from 1)"
                    )
                })?;
                note.references.push(r);
            }
        }
        rest = &after[close + 1..];
    }
    if rest.contains(')') {
        return Err(format!("the note `{text}` closes a `)` it did not open"));
    }
    Ok(note)
}

/// True when the group's first item looks like an entry name: `A` or `C` followed by a digit.
fn is_reference_group(group: &str) -> bool {
    let mut c = group.trim_start().chars();
    matches!(c.next(), Some('A' | 'C')) && c.next().is_some_and(|d| d.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_level_comes_from_the_opening_word_or_the_entries() {
        let n = parse(" the Philox state RAND draws is checkpointed on POOL only (A55)").unwrap();
        assert_eq!(n.references, [Reference::Assumption(55)]);
        assert_eq!((n.level, n.evidence()), (None, Evidence::Assumed));
        let n = parse("validator Act arm, ACT handler (C11)").unwrap();
        assert_eq!(n.evidence(), Evidence::Conflict);
        let n = parse("inferred (A27, C4)").unwrap();
        assert_eq!(n.level, Some(Evidence::Inferred));
        assert_eq!(
            n.references,
            [Reference::Assumption(27), Reference::Conflict(4)]
        );
        assert_eq!(n.evidence(), Evidence::Inferred);
        let n = parse("NKI rand2: Vector only (rng-facts 4.10)").unwrap();
        assert_eq!(n, EvidenceNote::default());
        assert_eq!(n.evidence(), Evidence::Observed);
        let n = parse("cites (C12) and (A57, A54)").unwrap();
        assert_eq!(n.references.len(), 3);
        assert_eq!(n.evidence(), Evidence::Assumed);
    }

    #[test]
    fn malformed_groups_say_what_is_wrong() {
        let e = parse("x (A55, X9)").unwrap_err();
        assert!(e.contains("`X9` in `(A55, X9)`"), "{e}");
        let e = parse("x (A05)").unwrap_err();
        assert!(e.contains("`A05`"), "{e}");
        let e = parse("x (C1,)").unwrap_err();
        assert!(e.contains("`` in `(C1,)`"), "{e}");
        let e = parse("x (A55").unwrap_err();
        assert!(e.contains("does not close"), "{e}");
        let e = parse("x A55)").unwrap_err();
        assert!(e.contains("did not open"), "{e}");
    }
}
