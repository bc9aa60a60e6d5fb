//! What the read stage makes of one header's C declarations: enums, records with the layout
//! clang computed, typedefs and constants, each as bindgen reported it, uninterpreted.

use std::collections::BTreeMap;

use crate::ctype::{CType, Prim, RecordKind};

/// One enumerator.
#[derive(Clone, Debug)]
pub struct CEnumMember {
    /// Full C name.
    pub name: String,
    /// Value.
    pub value: i128,
    /// Comment clang attached (the trailing `// ...`).
    pub doc: Option<String>,
}

/// A C enum.
#[derive(Clone, Debug)]
pub struct CEnum {
    /// C name of the typedef / tag.
    pub name: String,
    /// Underlying integer type clang chose (`unsigned char` for packed enums).
    pub underlying: Prim,
    /// Members in declaration order.
    pub members: Vec<CEnumMember>,
    /// Comment above the enum.
    pub doc: Option<String>,
}

/// One field of a record, as bindgen emits it (bit-field units included).
#[derive(Clone, Debug)]
pub struct CField {
    /// Field name as C spells it (`_bitfield_1` for a bit-field unit; `anon<k>` for the k-th
    /// anonymous member, see [`CField::anonymous`]). bindgen's keyword escapes (`type_`) are undone.
    pub name: String,
    /// Its type.
    pub ty: CType,
    /// Trailing or leading comment.
    pub doc: Option<String>,
    /// An anonymous member (`union { ... };` inside a record): C has no name for it, so its
    /// members are read as members of the enclosing record; `name` is the generator's `anon<k>`.
    pub anonymous: bool,
}

/// One bit-field inside a storage unit.
#[derive(Clone, Debug)]
pub struct CBitfield {
    /// Name of the storage unit field (`_bitfield_1`).
    pub unit: String,
    /// Bit-field name.
    pub name: String,
    /// First bit inside the unit (LSB = 0).
    pub bit_offset: u32,
    /// Width in bits.
    pub width: u32,
    /// Declared type.
    pub ty: CType,
}

/// A struct or union with the layout clang computed.
#[derive(Clone, Debug)]
pub struct CRecord {
    /// C name.
    pub name: String,
    /// Struct or union.
    pub kind: RecordKind,
    /// `#[repr(C, packed)]`.
    pub packed: bool,
    /// Fields in order.
    pub fields: Vec<CField>,
    /// Bit-fields, from bindgen's accessors.
    pub bitfields: Vec<CBitfield>,
    /// Size from the layout test.
    pub size: Option<u64>,
    /// Alignment from the layout test.
    pub align: Option<u64>,
    /// Field offsets from the layout test (bit-field units have none).
    pub offsets: BTreeMap<String, u64>,
    /// Comment above the record.
    pub doc: Option<String>,
    /// For an anonymous struct or union (bindgen's `PARENT__bindgen_ty_N`, renamed): the record
    /// it sits in and the C name of the field it types (`None` for an anonymous member).
    pub anonymous_in: Option<(String, Option<String>)>,
}

/// A declaration of one header.
#[derive(Clone, Debug)]
pub enum CDecl {
    /// An enum.
    Enum(CEnum),
    /// A struct or union.
    Record(CRecord),
    /// `typedef <type> NAME;` of a non-record type.
    Typedef {
        /// C name.
        name: String,
        /// Aliased type.
        ty: CType,
        /// Comment.
        doc: Option<String>,
    },
    /// A `static const` or numeric `#define`.
    Const {
        /// C name.
        name: String,
        /// Type.
        ty: Prim,
        /// Value.
        value: i128,
        /// Comment.
        doc: Option<String>,
    },
}

impl CDecl {
    /// The declared name.
    pub fn name(&self) -> &str {
        match self {
            CDecl::Enum(e) => &e.name,
            CDecl::Record(r) => &r.name,
            CDecl::Typedef { name, .. } | CDecl::Const { name, .. } => name,
        }
    }
}

/// The declarations of one header, and what could not be translated.
#[derive(Clone, Debug)]
pub struct FileDecls {
    /// Tree-relative path.
    pub file: String,
    /// Declarations in bindgen's order.
    pub decls: Vec<CDecl>,
    /// Items bindgen produced that the generator cannot represent: (name, why).
    pub untranslatable: Vec<(String, String)>,
}
