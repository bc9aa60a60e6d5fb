//! Typed indices into the model's tables: an [`EnumId`] indexes [`Model::enums`] and nothing
//! else, so a record index passed where an enum is expected does not compile.
//!
//! [`Model::enums`]: super::Model::enums

use super::{Enum, Opcode, Record, Shape};

/// Declares an index type for one table of the model and the `Index` impls that make
/// `model.<table>[id]` read as before.
macro_rules! model_id {
    ($(#[$doc:meta])* $id:ident indexes $item:ty) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $id(usize);

        impl $id {
            /// The id of the item at `index` of its table.
            pub const fn new(index: usize) -> Self {
                $id(index)
            }

            /// The position of the item in its table.
            pub const fn index(self) -> usize {
                self.0
            }

            /// Every id of a table of `len` items, in table order.
            pub fn all(len: usize) -> impl DoubleEndedIterator<Item = Self> + ExactSizeIterator {
                (0..len).map($id)
            }
        }

        impl core::ops::Index<$id> for [$item] {
            type Output = $item;
            fn index(&self, id: $id) -> &$item {
                &self[id.0]
            }
        }

        impl core::ops::IndexMut<$id> for [$item] {
            fn index_mut(&mut self, id: $id) -> &mut $item {
                &mut self[id.0]
            }
        }

        impl core::ops::Index<$id> for Vec<$item> {
            type Output = $item;
            fn index(&self, id: $id) -> &$item {
                &self[id.0]
            }
        }

        impl core::ops::IndexMut<$id> for Vec<$item> {
            fn index_mut(&mut self, id: $id) -> &mut $item {
                &mut self[id.0]
            }
        }
    };
}

model_id! {
    /// Index of an enum in [`Model::enums`](super::Model::enums).
    EnumId indexes Enum
}
model_id! {
    /// Index of a record in [`Model::records`](super::Model::records).
    RecordId indexes Record
}
model_id! {
    /// Index of an opcode in [`Model::opcodes`](super::Model::opcodes).
    OpcodeId indexes Opcode
}
model_id! {
    /// Index of a mapped operand struct in [`Model::shapes`](super::Model::shapes).
    ShapeId indexes Shape
}
