//! Typed indices into the model's tables: an [`EnumId`] indexes [`Model::enums`] and nothing
//! else, so a record index passed where an enum is expected does not compile.
//!
//! [`Model::enums`]: super::Model::enums

use super::{Enum, Opcode, Record, Shape};
use core::marker::PhantomData;
use core::ops::{Deref, Index, IndexMut};

/// An index type of one of the model's tables.
pub trait Id: Copy {
    /// The id of the item at `index` of its table.
    fn from_index(index: usize) -> Self;
    /// The position of the item in its table.
    fn to_index(self) -> usize;
}

/// Every item of a model table with its id, in table order.
pub fn entries<I: Id, T>(items: &[T]) -> impl Iterator<Item = (I, &T)> {
    items.iter().enumerate().map(|(k, t)| (I::from_index(k), t))
}

/// A side table with one entry per item of a model table, indexed by that table's id (the
/// typed instruction name of each opcode, the engines that run it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdVec<I, T> {
    items: Vec<T>,
    id: PhantomData<fn(I) -> I>,
}

impl<I, T> Default for IdVec<I, T> {
    fn default() -> Self {
        IdVec {
            items: Vec::new(),
            id: PhantomData,
        }
    }
}

impl<I: Id, T> IdVec<I, T> {
    /// Every entry with its id, in table order.
    pub fn entries(&self) -> impl Iterator<Item = (I, &T)> {
        entries(&self.items)
    }

    /// The entry of `id`, when the table has it.
    pub fn get(&self, id: I) -> Option<&T> {
        self.items.get(id.to_index())
    }
}

impl<I, T> FromIterator<T> for IdVec<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(iter: It) -> Self {
        IdVec {
            items: iter.into_iter().collect(),
            id: PhantomData,
        }
    }
}

impl<I, T> Deref for IdVec<I, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.items
    }
}

impl<I: Id, T> Index<I> for IdVec<I, T> {
    type Output = T;
    fn index(&self, id: I) -> &T {
        &self.items[id.to_index()]
    }
}

impl<I: Id, T> IndexMut<I> for IdVec<I, T> {
    fn index_mut(&mut self, id: I) -> &mut T {
        &mut self.items[id.to_index()]
    }
}

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

        impl Id for $id {
            fn from_index(index: usize) -> Self {
                $id(index)
            }
            fn to_index(self) -> usize {
                self.0
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
