//! The committed API listing of every generated crate (`src/generated/api.txt`, computed from the
//! model) against the committed generated source, read with syn: every public item the source
//! declares of a kind the listing covers is listed, and every listed item is declared.

use crate::common::workspace_root;
use isa_codegen::report::api::{Kind, Listing, API_FILE};
use std::collections::BTreeSet;
use syn::{ImplItem, Item, Visibility};

const GENERATIONS: [&str; 4] = ["sunda", "cayman", "mariana", "maverick"];

/// Path prefix of a generated module's items as a user writes them: `lib.rs` re-exports every
/// module's items at the root except `arm`, `consts` and `spec`'s (`raw` is not listed).
fn prefix_of(file: &str) -> Option<&'static str> {
    match file {
        "arm.rs" => Some("arm::"),
        "consts.rs" => Some("consts::"),
        "spec.rs" => Some("spec::"),
        "raw.rs" => None,
        _ => Some(""),
    }
}

fn is_pub(v: &Visibility) -> bool {
    matches!(v, Visibility::Public(_))
}

/// The last segment of an impl's self type (`crate::inst::Rand` → `Rand`).
fn self_name(ty: &syn::Type) -> Option<String> {
    match ty {
        syn::Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

/// What the generated files declare, as (path, kind): module-level structs, enums with their
/// variants, named fields, traits, constants and functions; and the public methods and
/// associated constants of the impls whose items the headers decide (constructors, `validate`,
/// `LEGAL_ARMS`, union accessors, the placement's functions, enum aliases) and the trait impls
/// the headers decide ([`decided_trait_impl`]). Uniform items (those every instance of a kind
/// has, `isa_core::instruction_impls!` and the enums' codecs) are not.
fn declared(gen: &str) -> BTreeSet<(String, Kind)> {
    let dir = workspace_root().join(format!("isa-{gen}/src/generated"));
    let mut out = BTreeSet::new();
    let mut unions = BTreeSet::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".rs"))
        .collect();
    files.sort();
    let mut parsed = Vec::new();
    for name in &files {
        let Some(prefix) = prefix_of(name) else {
            continue;
        };
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let file = syn::parse_file(&text).unwrap_or_else(|e| panic!("{gen}/{name}: {e}"));
        parsed.push((name.clone(), prefix, file));
    }
    for (name, prefix, file) in &parsed {
        for item in &file.items {
            match item {
                Item::Struct(s) if is_pub(&s.vis) => {
                    let path = format!("{prefix}{}", s.ident);
                    if let syn::Fields::Named(fields) = &s.fields {
                        for f in fields.named.iter().filter(|f| is_pub(&f.vis)) {
                            let f = f.ident.as_ref().unwrap();
                            out.insert((format!("{path}.{f}"), Kind::Field));
                        }
                        if fields.named.len() == 1
                            && fields.named[0].ident.as_ref().unwrap() == "bytes"
                        {
                            unions.insert(s.ident.to_string());
                        }
                    }
                    out.insert((path, Kind::Struct));
                }
                Item::Enum(e) if is_pub(&e.vis) => {
                    let path = format!("{prefix}{}", e.ident);
                    for v in &e.variants {
                        out.insert((format!("{path}::{}", v.ident), Kind::Variant));
                    }
                    out.insert((path, Kind::Enum));
                }
                // The generated `arm` module re-exports the shared marker types of isa-core.
                Item::Use(u) if is_pub(&u.vis) && name == "arm.rs" => {
                    if let syn::UseTree::Path(p) = &u.tree {
                        let mut tree = &p.tree;
                        while let syn::UseTree::Path(p) = &**tree {
                            tree = &p.tree;
                        }
                        if let syn::UseTree::Name(n) = &**tree {
                            out.insert((format!("{prefix}{}", n.ident), Kind::Struct));
                        }
                    }
                }
                Item::Trait(t) if is_pub(&t.vis) => {
                    out.insert((format!("{prefix}{}", t.ident), Kind::Trait));
                }
                Item::Const(c) if is_pub(&c.vis) => {
                    out.insert((format!("{prefix}{}", c.ident), Kind::Const));
                }
                // The rng-core conversions of generation.rs are part of the `Generation` impl.
                Item::Fn(f) if is_pub(&f.vis) && name != "generation.rs" => {
                    out.insert((format!("{prefix}{}", f.sig.ident), Kind::Fn));
                }
                _ => {}
            }
        }
    }
    let enums: BTreeSet<String> = out
        .iter()
        .filter(|(_, k)| *k == Kind::Enum)
        .map(|(p, _)| p.clone())
        .collect();
    for (name, _, file) in &parsed {
        for item in &file.items {
            if let Some(imp) = decided_trait_impl(name, item, &enums) {
                out.insert((imp, Kind::Impl));
            }
        }
    }
    for (name, prefix, file) in &parsed {
        for item in &file.items {
            let Item::Impl(imp) = item else { continue };
            if imp.trait_.is_some() {
                continue;
            }
            let Some(owner) = self_name(&imp.self_ty) else {
                continue;
            };
            let decided = match name.as_str() {
                "validate.rs" | "legality.rs" => owner != "StateTensor",
                "construct.rs" => !owner.starts_with("Tensor"),
                "types.rs" => true,
                "opcode.rs" => true,
                _ => false,
            };
            if !decided {
                continue;
            }
            for ii in &imp.items {
                match ii {
                    ImplItem::Fn(f) if is_pub(&f.vis) => {
                        let fname = f.sig.ident.to_string();
                        let keep = match name.as_str() {
                            "types.rs" => unions.contains(&owner) && fname != "from_bytes",
                            "opcode.rs" => matches!(
                                fname.as_str(),
                                "engines" | "runs_on" | "placement_evidence"
                            ),
                            _ => true,
                        };
                        if keep {
                            out.insert((format!("{prefix}{owner}::{fname}"), Kind::Fn));
                        }
                    }
                    ImplItem::Const(c) if is_pub(&c.vis) => {
                        let cname = c.ident.to_string();
                        // Aliases of a typed enum are `Self`-typed constants.
                        let keep = match name.as_str() {
                            "types.rs" => {
                                cname != "ZEROED"
                                    && matches!(&c.ty, syn::Type::Path(p) if p.path.is_ident("Self"))
                            }
                            "opcode.rs" => false,
                            _ => true,
                        };
                        if keep {
                            out.insert((format!("{prefix}{owner}::{cname}"), Kind::Const));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    out
}

/// The path of a trait impl the headers decide, as the listing writes it: `Default` of a typed
/// enum (types.rs) or instruction (construct.rs), `rng_core::Generation` of the generation, and
/// each legality arm's `impl LegalX<N> for (arm::A, ..)` (written `LegalX<(arm::A,..)>`).
fn decided_trait_impl(file: &str, item: &Item, enums: &BTreeSet<String>) -> Option<String> {
    let Item::Impl(imp) = item else { return None };
    let (_, trait_path, _) = imp.trait_.as_ref()?;
    let trait_name = trait_path.segments.last()?.ident.to_string();
    let path_text = |p: &syn::Path| {
        let segs: Vec<String> = p.segments.iter().map(|s| s.ident.to_string()).collect();
        segs.join("::")
    };
    match (file, trait_name.as_str()) {
        ("types.rs", "Default") => {
            let owner = self_name(&imp.self_ty)?;
            enums
                .contains(&owner)
                .then(|| format!("{owner}::<Default>"))
        }
        ("construct.rs", "Default") => Some(format!("{}::<Default>", self_name(&imp.self_ty)?)),
        ("generation.rs", "Generation") => Some(format!(
            "{}::<{}>",
            self_name(&imp.self_ty)?,
            path_text(trait_path)
        )),
        ("legality.rs", t) if t.starts_with("Legal") => {
            let syn::Type::Tuple(tuple) = &*imp.self_ty else {
                return None;
            };
            let markers: Vec<String> = tuple
                .elems
                .iter()
                .map(|e| match e {
                    syn::Type::Path(p) => path_text(&p.path),
                    _ => String::new(),
                })
                .collect();
            Some(format!("{t}<({})>", markers.join(",")))
        }
        _ => None,
    }
}

/// The listing's items of the kinds [`declared`] reads from the source.
fn listed(gen: &str) -> BTreeSet<(String, Kind)> {
    let path = workspace_root().join(format!("isa-{gen}/{API_FILE}"));
    let text = std::fs::read_to_string(&path).unwrap();
    let listing = Listing::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    listing
        .items
        .into_iter()
        .filter(|i| i.kind != Kind::Feature)
        .map(|i| (i.path, i.kind))
        .collect()
}

#[test]
fn every_listed_item_is_declared_and_every_declared_item_is_listed() {
    for gen in GENERATIONS {
        let declared = declared(gen);
        let listed = listed(gen);
        let unlisted: Vec<_> = declared.difference(&listed).collect();
        let undeclared: Vec<_> = listed.difference(&declared).collect();
        assert!(
            unlisted.is_empty() && undeclared.is_empty(),
            "isa-{gen}: declared but not listed: {unlisted:?}\nlisted but not declared: {undeclared:?}"
        );
        assert!(declared.len() > 300, "isa-{gen}: {} items", declared.len());
    }
}

/// The listed features are the generated `Cargo.toml`'s.
#[test]
fn the_listed_features_are_the_manifests() {
    for gen in GENERATIONS {
        let manifest =
            std::fs::read_to_string(workspace_root().join(format!("isa-{gen}/Cargo.toml")))
                .unwrap();
        let table = manifest.split("[features]").nth(1).unwrap();
        let table = table.split("\n[").next().unwrap();
        let in_manifest: BTreeSet<String> = table
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with(' ') && l.contains(" = "))
            .map(|l| l.split(" = ").next().unwrap().to_string())
            .collect();
        let text = std::fs::read_to_string(workspace_root().join(format!("isa-{gen}/{API_FILE}")))
            .unwrap();
        let listed: BTreeSet<String> = Listing::parse(&text)
            .unwrap()
            .items
            .into_iter()
            .filter(|i| i.kind == Kind::Feature)
            .map(|i| i.path)
            .collect();
        assert_eq!(in_manifest, listed, "isa-{gen}");
    }
}
