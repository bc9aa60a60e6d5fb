//! Fingerprints of a header tree, and the manifest a generated crate records.
//!
//! A fingerprint is FNV-1a (64 bit) over file contents: cheap, dependency-free
//! and stable across machines, which is all a staleness check needs (it guards
//! against forgotten regeneration, not against an adversary). Line endings are
//! hashed as stored, so a checkout that rewrites them counts as an edit.
//!
//! The manifest (`headers.lock` next to the generated code) lists one line per
//! file, `<16 hex digits> <path relative to the tree>`, sorted by path, after a
//! `tree <16 hex digits>` line holding the fingerprint of the whole tree.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::string::String;
use std::vec::Vec;
use std::{fs, io};

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// FNV-1a 64 of `bytes`, continuing from `state`.
pub fn fnv1a(state: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(state, |h, &b| (h ^ u64::from(b)).wrapping_mul(FNV_PRIME))
}

/// Fingerprint of one file's contents.
pub fn file_fingerprint(contents: &[u8]) -> u64 {
    fnv1a(FNV_OFFSET, contents)
}

/// Fingerprints of every file of a header tree, keyed by `/`-separated relative path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeFingerprint {
    /// Per-file fingerprints, sorted by path.
    pub files: BTreeMap<String, u64>,
}

/// One difference between a recorded manifest and a tree on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileChange {
    /// In the tree, not in the manifest.
    Added(String),
    /// In the manifest, no longer in the tree.
    Removed(String),
    /// In both, with different contents.
    Modified(String),
}

impl FileChange {
    /// The relative path the change concerns.
    pub fn path(&self) -> &str {
        match self {
            FileChange::Added(p) | FileChange::Removed(p) | FileChange::Modified(p) => p,
        }
    }
}

impl std::fmt::Display for FileChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileChange::Added(p) => write!(f, "added    {p}"),
            FileChange::Removed(p) => write!(f, "removed  {p}"),
            FileChange::Modified(p) => write!(f, "modified {p}"),
        }
    }
}

/// Adds the path an I/O error concerns to its message.
fn named(path: &Path) -> impl FnOnce(io::Error) -> io::Error + '_ {
    move |e| io::Error::new(e.kind(), std::format!("{}: {e}", path.display()))
}

impl TreeFingerprint {
    /// Reads every regular, non-hidden file below `root`. An error names the file or directory
    /// it concerns.
    pub fn of_dir(root: &Path) -> io::Result<Self> {
        let mut files = BTreeMap::new();
        let mut pending: Vec<PathBuf> = std::vec![root.to_path_buf()];
        while let Some(dir) = pending.pop() {
            for entry in fs::read_dir(&dir).map_err(named(&dir))? {
                let entry = entry.map_err(named(&dir))?;
                let name = entry.file_name();
                if name.to_string_lossy().starts_with('.') {
                    continue;
                }
                let path = entry.path();
                let kind = entry.file_type().map_err(named(&path))?;
                if kind.is_dir() {
                    pending.push(path);
                } else if kind.is_file() {
                    let relative = path
                        .strip_prefix(root)
                        .expect("read_dir yields children of root")
                        .components()
                        .map(|c| c.as_os_str().to_string_lossy().into_owned())
                        .collect::<Vec<_>>()
                        .join("/");
                    let bytes = fs::read(&path).map_err(named(&path))?;
                    files.insert(relative, file_fingerprint(&bytes));
                }
            }
        }
        Ok(TreeFingerprint { files })
    }

    /// Fingerprint of the whole tree: FNV-1a over the sorted `(path, fingerprint)` list.
    pub fn tree(&self) -> u64 {
        self.files.iter().fold(FNV_OFFSET, |h, (path, fp)| {
            let h = fnv1a(h, path.as_bytes());
            let h = fnv1a(h, &[0]);
            fnv1a(h, &fp.to_le_bytes())
        })
    }

    /// The tree fingerprint as 16 lower-case hex digits.
    pub fn tree_hex(&self) -> String {
        std::format!("{:016x}", self.tree())
    }

    /// Renders the manifest text.
    pub fn to_manifest(&self) -> String {
        let mut out = String::new();
        out.push_str("# Header-tree fingerprints recorded by isa-codegen. Do not edit.\n");
        let _ = writeln!(out, "tree {}", self.tree_hex());
        for (path, fp) in &self.files {
            let _ = writeln!(out, "{fp:016x} {path}");
        }
        out
    }

    /// Parses a manifest written by [`TreeFingerprint::to_manifest`].
    pub fn from_manifest(text: &str) -> Result<Self, String> {
        let mut files = BTreeMap::new();
        let mut recorded_tree = None;
        for (index, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (head, rest) = line
                .split_once(' ')
                .ok_or_else(|| std::format!("manifest line {}: expected two fields", index + 1))?;
            if head == "tree" {
                recorded_tree = Some(String::from(rest));
                continue;
            }
            let fp = u64::from_str_radix(head, 16)
                .map_err(|_| std::format!("manifest line {}: `{head}` is not hex", index + 1))?;
            files.insert(String::from(rest), fp);
        }
        let parsed = TreeFingerprint { files };
        match recorded_tree {
            Some(tree) if tree == parsed.tree_hex() => Ok(parsed),
            Some(tree) => Err(std::format!(
                "manifest records tree {tree} but its file lines add up to {}",
                parsed.tree_hex()
            )),
            None => Err(String::from("manifest has no `tree` line")),
        }
    }

    /// What changed from `self` (recorded) to `current` (on disk), sorted by path.
    pub fn changes_to(&self, current: &TreeFingerprint) -> Vec<FileChange> {
        let mut changes = Vec::new();
        for (path, fp) in &current.files {
            match self.files.get(path) {
                None => changes.push(FileChange::Added(path.clone())),
                Some(old) if old != fp => changes.push(FileChange::Modified(path.clone())),
                Some(_) => {}
            }
        }
        for path in self.files.keys() {
            if !current.files.contains_key(path) {
                changes.push(FileChange::Removed(path.clone()));
            }
        }
        changes.sort_by(|a, b| a.path().cmp(b.path()));
        changes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_fnv_vectors() {
        // Published FNV-1a 64 test vectors (Fowler/Noll/Vo reference table).
        assert_eq!(file_fingerprint(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(file_fingerprint(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(file_fingerprint(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn manifest_round_trip_and_changes() {
        let mut old = TreeFingerprint::default();
        old.files.insert("tpb/a.h".into(), 1);
        old.files.insert("tpb/b.h".into(), 2);
        let parsed = TreeFingerprint::from_manifest(&old.to_manifest()).unwrap();
        assert_eq!(parsed, old);

        let mut new = old.clone();
        new.files.insert("tpb/b.h".into(), 3);
        new.files.remove("tpb/a.h");
        new.files.insert("tpb/c.h".into(), 4);
        assert_eq!(
            old.changes_to(&new),
            std::vec![
                FileChange::Removed("tpb/a.h".into()),
                FileChange::Modified("tpb/b.h".into()),
                FileChange::Added("tpb/c.h".into()),
            ]
        );
    }

    #[test]
    fn tampered_manifest_is_rejected() {
        let mut fp = TreeFingerprint::default();
        fp.files.insert("x".into(), 7);
        let text = fp
            .to_manifest()
            .replace("0000000000000007", "0000000000000008");
        assert!(TreeFingerprint::from_manifest(&text).is_err());
    }
}
