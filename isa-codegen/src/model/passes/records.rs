//! Pass: the structs and unions.
//!
//! Input: bindgen's records (in file order, with clang's sizes, alignments and field offsets),
//! the enums and the type resolver. Output: [`Model::records`](crate::model::Model::records),
//! in the same order, every layout recomputed from the fields (contained records first) and
//! checked against clang's: a field the model places elsewhere than clang, a size smaller than
//! the fields, a record containing itself or a field of a type the model cannot represent is an
//! error. bindgen's bit-field storage units are expanded into one field per bit-field.

use super::locate::Locator;
use super::types::TypeResolver;
use crate::ctype::{CType, Prim, RecordKind};
use crate::diag::{Loc, Sink};
use crate::model::names::{camel, short};
use crate::model::{Bits, Enum, Field, Record, RecordId, Ty};
use crate::read::cdecl::{CBitfield, CDecl, CField, CRecord};
use crate::read::TreeInput;
use crate::vendor::STRUCT_SUFFIX;

/// bindgen's zero-length field that carries a bit-field unit's alignment.
const BITFIELD_ALIGN_PREFIX: &str = "_bitfield_align_";

/// Every record declaration of the tree, in file order, with the header declaring it: the
/// order of [`Model::records`](crate::model::Model::records).
pub(super) fn declarations(input: &TreeInput) -> Vec<(&CRecord, &str)> {
    input
        .decls
        .iter()
        .flat_map(|f| {
            f.decls.iter().filter_map(move |d| match d {
                CDecl::Record(r) => Some((r, f.file.as_str())),
                _ => None,
            })
        })
        .collect()
}

/// The records of `decls`, laid out.
pub(super) fn build(
    decls: &[(&CRecord, &str)],
    types: &TypeResolver<'_>,
    enums: &[Enum],
    locator: &Locator<'_>,
    sink: &mut Sink,
) -> Vec<Record> {
    let locs = locations(decls, types, locator);
    let mut layout = Layout {
        decls,
        locs: &locs,
        records: vec![None; decls.len()],
        progress: vec![Progress::Todo; decls.len()],
        types,
        enums,
        locator,
        sink,
    };
    for k in RecordId::all(decls.len()) {
        layout.resolve(k);
    }
    layout
        .records
        .into_iter()
        .enumerate()
        .map(|(k, r)| r.unwrap_or_else(|| placeholder(decls[k].0, &locs[k])))
        .collect()
}

/// Where each record is declared; an anonymous one sits at its field of the enclosing record.
fn locations(
    decls: &[(&CRecord, &str)],
    types: &TypeResolver<'_>,
    locator: &Locator<'_>,
) -> Vec<Loc> {
    let mut locs: Vec<Loc> = Vec::with_capacity(decls.len());
    for (r, file) in decls {
        let loc = match &r.anonymous_in {
            Some((parent, field)) => {
                let parent_loc = types
                    .record_id(parent)
                    .and_then(|p| locs.get(p.index()).cloned())
                    .unwrap_or_else(|| locator.decl(file, parent));
                match field {
                    Some(f) => locator.member(file, &parent_loc, f),
                    None => parent_loc,
                }
            }
            None => locator.decl(file, &r.name),
        };
        locs.push(loc);
    }
    locs
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Progress {
    Todo,
    Started,
    Done,
}

/// The records being laid out, contained records first.
struct Layout<'a, 's> {
    decls: &'a [(&'a CRecord, &'a str)],
    locs: &'a [Loc],
    records: Vec<Option<Record>>,
    progress: Vec<Progress>,
    types: &'a TypeResolver<'a>,
    enums: &'a [Enum],
    locator: &'a Locator<'a>,
    sink: &'s mut Sink,
}

/// Where the next field of a struct goes.
struct Cursor {
    /// First byte after the fields so far.
    end: u64,
    /// The alignment bindgen's `_bitfield_align_` field gave the next bit-field unit.
    pending_align: u64,
}

impl Layout<'_, '_> {
    /// Lays out record `k` after the records it contains; a record met again while its own
    /// layout is under way contains itself.
    fn resolve(&mut self, k: RecordId) {
        match self.progress[k.index()] {
            Progress::Done => return,
            Progress::Started => {
                let (r, file) = self.decls[k.index()];
                self.sink.push(
                    self.locator.decl(file, &r.name),
                    format!("`{}` contains itself", r.name),
                );
                return;
            }
            Progress::Todo => {}
        }
        self.progress[k.index()] = Progress::Started;
        let raw = self.decls[k.index()].0;
        let mut deps = Vec::new();
        for f in &raw.fields {
            self.types.deps(&f.ty, &mut deps);
        }
        for bf in &raw.bitfields {
            self.types.deps(&bf.ty, &mut deps);
        }
        for d in deps {
            self.resolve(d);
        }
        let record = self.lay_out(k);
        self.records[k.index()] = Some(record);
        self.progress[k.index()] = Progress::Done;
    }

    /// Record `k`, its contained records already laid out.
    fn lay_out(&mut self, k: RecordId) -> Record {
        let (raw, file) = self.decls[k.index()];
        let loc = self.locs[k.index()].clone();
        let mut fields = Vec::new();
        let mut cursor = Cursor {
            end: 0,
            pending_align: 1,
        };
        for f in &raw.fields {
            self.field(raw, file, &loc, f, &mut cursor, &mut fields);
        }
        let computed_align = if raw.packed {
            1
        } else {
            fields
                .iter()
                .map(|f| self.size_align(&f.ty).1)
                .max()
                .unwrap_or(1)
        };
        let align = raw.align.unwrap_or(computed_align);
        let size = raw
            .size
            .unwrap_or_else(|| cursor.end.div_ceil(align) * align);
        if size < cursor.end {
            self.sink.push(
                loc.clone(),
                format!(
                    "`{}`: clang size {size} is smaller than its fields ({})",
                    raw.name, cursor.end
                ),
            );
        }
        Record {
            c_name: raw.name.clone(),
            rust: record_rust_name(&raw.name),
            kind: raw.kind,
            size,
            align,
            packed: raw.packed,
            fields,
            doc: raw.doc.clone(),
            loc,
        }
    }

    /// Places field `f` of `raw` (declared in `file` at `loc`) at the cursor, checks its offset
    /// against clang's and appends it (a bit-field unit as its bit-fields) to `fields`.
    fn field(
        &mut self,
        raw: &CRecord,
        file: &str,
        loc: &Loc,
        f: &CField,
        cursor: &mut Cursor,
        fields: &mut Vec<Field>,
    ) {
        let floc = self.locator.member(file, loc, &f.name);
        if f.name.starts_with(BITFIELD_ALIGN_PREFIX) {
            if let Ok(Ty::Array(inner, 0)) = self.types.resolve(&f.ty) {
                cursor.pending_align = self.size_align(&inner).1;
            }
            return;
        }
        let ty = match self.types.resolve(&f.ty) {
            Ok(t) => t,
            Err(why) => {
                self.sink
                    .push(floc, format!("field `{}::{}`: {why}", raw.name, f.name));
                return;
            }
        };
        let (size, natural) = self.size_align(&ty);
        let unit = matches!(f.ty, CType::BitfieldUnit(_));
        let align = if raw.packed {
            1
        } else if unit {
            std::mem::replace(&mut cursor.pending_align, 1)
        } else {
            natural
        };
        let offset = match raw.kind {
            RecordKind::Union => 0,
            RecordKind::Struct => cursor.end.div_ceil(align) * align,
        };
        if let Some(&clang) = raw.offsets.get(&f.name) {
            if clang != offset {
                self.sink.push(
                    floc.clone(),
                    format!(
                        "layout of `{}::{}`: clang places it at byte {clang}, the model at {offset}",
                        raw.name, f.name
                    ),
                );
            }
        }
        cursor.end = cursor.end.max(offset + size);
        if unit {
            self.expand_bitfields(raw, f, offset, size, file, loc, fields);
        } else {
            fields.push(Field {
                name: f.name.clone(),
                offset,
                size,
                ty,
                c_type: f.ty.clone(),
                bits: None,
                doc: f.doc.clone(),
                loc: floc,
                anonymous: f.anonymous,
            });
        }
    }

    /// The bit-fields of storage unit `unit` (at `offset`, `size` bytes) as fields.
    #[allow(clippy::too_many_arguments)]
    fn expand_bitfields(
        &mut self,
        raw: &CRecord,
        unit: &CField,
        offset: u64,
        size: u64,
        file: &str,
        loc: &Loc,
        fields: &mut Vec<Field>,
    ) {
        let members: Vec<&CBitfield> = raw
            .bitfields
            .iter()
            .filter(|b| b.unit == unit.name)
            .collect();
        if members.is_empty() {
            self.sink.push(
                loc.clone(),
                format!(
                    "`{}`: bit-field unit `{}` has no readable bit-fields",
                    raw.name, unit.name
                ),
            );
        }
        for bf in members {
            let floc = self.locator.member(file, loc, &bf.name);
            match self.types.resolve(&bf.ty) {
                Ok(ty)
                    if matches!(ty, Ty::Prim(p) if p.is_int())
                        || matches!(ty, Ty::Enum(_) | Ty::Prim(Prim::Bool)) =>
                {
                    if u64::from(bf.bit_offset + bf.width) > size * 8
                        || bf.width == 0
                        || bf.width > 64
                    {
                        self.sink.push(
                            floc,
                            format!(
                                "bit-field `{}::{}` does not fit its unit",
                                raw.name, bf.name
                            ),
                        );
                        continue;
                    }
                    fields.push(Field {
                        name: bf.name.clone(),
                        offset,
                        size,
                        ty,
                        c_type: bf.ty.clone(),
                        bits: Some(Bits {
                            offset: bf.bit_offset,
                            width: bf.width,
                        }),
                        doc: unit.doc.clone(),
                        loc: floc,
                        anonymous: false,
                    });
                }
                Ok(_) => self.sink.push(
                    floc,
                    format!(
                        "bit-field `{}::{}` is not of integer or enum type",
                        raw.name, bf.name
                    ),
                ),
                Err(why) => self.sink.push(
                    floc,
                    format!("bit-field `{}::{}`: {why}", raw.name, bf.name),
                ),
            }
        }
    }

    /// Size and alignment of a type whose records are laid out (an unfinished one counts as
    /// empty: it contains itself, which is reported).
    fn size_align(&self, ty: &Ty) -> (u64, u64) {
        match ty {
            Ty::Prim(p) => (p.size(), p.size()),
            Ty::Enum(e) => (self.enums[*e].repr.size(), self.enums[*e].repr.size()),
            Ty::Record(r) => self.records[r.index()]
                .as_ref()
                .map_or((0, 1), |r| (r.size, r.align)),
            Ty::Array(t, n) => {
                let (s, a) = self.size_align(t);
                (s * n, a)
            }
        }
    }
}

/// A record as clang declared it, without fields (one whose layout never finished).
fn placeholder(r: &CRecord, loc: &Loc) -> Record {
    Record {
        c_name: r.name.clone(),
        rust: camel(short(&r.name)),
        kind: r.kind,
        size: r.size.unwrap_or(0),
        align: r.align.unwrap_or(1),
        packed: r.packed,
        fields: Vec::new(),
        doc: r.doc.clone(),
        loc: loc.clone(),
    }
}

/// Rust name of a record's typed form (`NEURON_ISA_TPB_S1_RAND_STRUCT` → `S1Rand`).
fn record_rust_name(c_name: &str) -> String {
    let s = short(c_name);
    camel(s.strip_suffix(STRUCT_SUFFIX).unwrap_or(s))
}
