//! The operands of the typed constructors, in the generated `construct` module: `TensorAddress`
//! (a tensor's start address from a memory, a partition and a byte offset, or an address
//! register), `Tensor<n>d::contiguous` / `with_steps`, and the `Immediate` conversion; and how an
//! example spells an address.

use crate::emit::{ident, lit};
use crate::model::address::AddressForms;
use crate::model::construct::{tensor_record, ImmediateForms};
use crate::model::{Model, RecordId, Ty};
use proc_macro2::TokenStream;
use quote::quote;

pub(crate) fn tensor_address(model: &Model, a: &AddressForms) -> TokenStream {
    let addr4 = ident(&model.records[a.union].rust);
    let (sbuf, sbuf_address) = if a.sbuf {
        let new = memory_constructor(
            "new",
            quote!(isa_core::Memory::Sbuf),
            crate::vendor::STATE_BUF_OFFSET,
            crate::vendor::STATE_BUF_PARTITION_SIZE,
            "SBUF",
            quote!(Self(TensorAddress::immediate(addr))),
        );
        (
            quote! {
                /// [`SbufAddress::new`]: byte `byte_offset` of SBUF partition `partition`, checked,
                /// as the address type an SBUF-only operand takes (it converts into a
                /// `TensorAddress` for the others).
                pub const fn sbuf(partition: u32, byte_offset: u32) -> Result<SbufAddress, isa_core::AddressError> {
                    SbufAddress::new(partition, byte_offset)
                }
            },
            sbuf_address(model, new),
        )
    } else {
        (quote!(), quote!())
    };
    let psum = if a.psum {
        memory_constructor(
            "psum",
            quote!(isa_core::Memory::Psum),
            crate::vendor::PSUM_BUF_OFFSET,
            crate::vendor::PSUM_BUF_PARTITION_SIZE,
            "PSUM",
            quote!(Self::immediate(addr)),
        )
    } else if lacks_psum(model, a) {
        no_psum(model)
    } else {
        quote!()
    };
    let (register, pointer) = match a.register {
        Some((regnum, marker)) => {
            let (rn, mk) = (lit(regnum), lit(marker));
            let (regs, mark) = (
                const_path(crate::vendor::NUM_ADDR_REGISTERS),
                const_path(crate::vendor::ADDR4_MARKER_ADDR_REG),
            );
            (
                quote! {
                    /// Address register `regnum` (`addr_reg` with marker `ADDR4_MARKER_ADDR_REG`),
                    /// resolved at run time; a register past `NUM_ADDR_REGISTERS` is an error.
                    pub const fn register(regnum: u8) -> Result<Self, isa_core::AddressError> {
                        if regnum as u32 >= #regs {
                            return Err(isa_core::AddressError::Register { regnum, registers: #regs });
                        }
                        let mut bytes = [0u8; 4];
                        bytes[#rn] = regnum;
                        bytes[#mk] = #mark as u8;
                        Ok(Self(crate::#addr4::from_bytes(bytes)))
                    }
                    /// The operand whose value lives at this address: a pointer immediate, or
                    /// (register form) the register holding the address.
                    pub const fn pointer(self) -> isa_core::Immediate {
                        if self.0.bytes[#mk] as u32 == #mark {
                            isa_core::Immediate::Register(self.0.bytes[#rn])
                        } else {
                            isa_core::Immediate::Pointer(self.raw())
                        }
                    }
                },
                quote!(),
            )
        }
        None => (
            quote!(),
            quote! {
                /// The operand whose value lives at this address: a pointer immediate.
                pub const fn pointer(self) -> isa_core::Immediate {
                    isa_core::Immediate::Pointer(self.raw())
                }
            },
        ),
    };
    let mut doc = format!(
        " A tensor's start address on {}: the `{}` union, built from a memory, a partition and a byte offset with this generation's address map (or from an address register).",
        model.generation, model.records[a.union].c_name
    );
    if lacks_psum(model, a) {
        doc.push_str(
            " There is no PSUM: this generation sizes it out (`PSUM_BUF_PARTITION_SIZE` is 0), and a call of `psum` does not compile.",
        );
    }
    let no_psum_trait = if lacks_psum(model, a) {
        no_psum_trait(model)
    } else {
        quote!()
    };
    quote! {
        #no_psum_trait
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct TensorAddress(crate::#addr4);
        impl TensorAddress {
            #sbuf
            #psum
            #register
            /// An immediate address as it is (no check: the validator judges it).
            pub const fn immediate(addr: u32) -> Self {
                Self(crate::#addr4::from_bytes(addr.to_le_bytes()))
            }
            /// The union.
            pub const fn addr4(self) -> crate::#addr4 {
                self.0
            }
            /// The union's 4 bytes as a little-endian word.
            pub const fn raw(self) -> u32 {
                u32::from_le_bytes(self.0.bytes)
            }
            #pointer
        }
        impl From<TensorAddress> for crate::#addr4 {
            fn from(a: TensorAddress) -> Self {
                a.0
            }
        }
        impl From<TensorAddress> for isa_core::Immediate {
            /// [`TensorAddress::pointer`].
            fn from(a: TensorAddress) -> Self {
                a.pointer()
            }
        }
        #sbuf_address
    }
}

/// `SbufAddress`: a start address checked to lie in SBUF, with `new`, the checked constructor.
fn sbuf_address(model: &Model, new: TokenStream) -> TokenStream {
    let doc = format!(
        " A tensor's start address on {} checked to lie in SBUF: the type an operand takes where the validator allows SBUF only (`isa_core::space::Sbuf`). An address register is not one: its value is known only at run time, so an SBUF-only operand holding a register goes through the instruction's fields (`from_fields`, `from_bytes`), where `validate` judges the word. Converts into a `TensorAddress` for the operands that accept either memory.",
        model.generation
    );
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub struct SbufAddress(TensorAddress);
        impl SbufAddress {
            #new
            /// The address, for an operand that accepts either memory.
            pub const fn address(self) -> TensorAddress {
                self.0
            }
            /// The union's 4 bytes as a little-endian word.
            pub const fn raw(self) -> u32 {
                self.0.raw()
            }
        }
        impl From<SbufAddress> for TensorAddress {
            fn from(a: SbufAddress) -> Self {
                a.0
            }
        }
        impl From<SbufAddress> for isa_core::Immediate {
            /// [`TensorAddress::pointer`].
            fn from(a: SbufAddress) -> Self {
                a.0.pointer()
            }
        }
    }
}

/// Every tensor record of the model.
pub(crate) fn tensor_records(model: &Model) -> Vec<(RecordId, u64)> {
    RecordId::all(model.records.len())
        .filter_map(|r| tensor_record(model, &Ty::Record(r)))
        .collect()
}

pub(crate) fn tensor_helpers(model: &Model) -> TokenStream {
    let items = tensor_records(model).into_iter().map(|(r, rank)| {
        let t = ident(&model.records[r].rust);
        let n = lit(rank);
        let rest = if model.records[r].fields.len() == 3 {
            quote!()
        } else {
            quote!(..Self::ZEROED)
        };
        quote! {
            impl crate::#t {
                /// `num_elem` elements laid out contiguously from `start`, innermost dimension
                /// first: dimension `k` steps over the elements of the dimensions inside it, a
                /// dimension of count 1 gets stride 1 (as the headers fill unused dimensions).
                /// A count of 0, or a stride past `i16`, is an error.
                pub fn contiguous(start: impl Into<TensorAddress>, num_elem: [u16; #n]) -> Result<Self, isa_core::TensorError> {
                    Ok(Self {
                        start_addr: start.into().addr4(),
                        step_elem: isa_core::construct::contiguous_steps(num_elem)?,
                        num_elem,
                        #rest
                    })
                }
                /// The access pattern with these strides and counts (in elements, innermost first), as given.
                pub fn with_steps(start: impl Into<TensorAddress>, step_elem: [i16; #n], num_elem: [u16; #n]) -> Self {
                    Self { start_addr: start.into().addr4(), step_elem, num_elem, #rest }
                }
            }
        }
    });
    quote!(#(#items)*)
}

pub(crate) fn immediate_fn(
    model: &Model,
    forms: &ImmediateForms,
    cfg: &TokenStream,
) -> TokenStream {
    let e = &model.enums[forms.src_enum];
    let et = ident(&e.rust);
    let [v, p, r] = forms.members.map(|m| ident(&e.members[m].rust));
    let ut = ident(&model.records[forms.union].rust);
    let rn = lit(forms.regnum_offset);
    quote! {
        /// The source and the 4 bytes of an immediate operand.
        #cfg
        fn immediate(x: isa_core::Immediate) -> (crate::#et, crate::#ut) {
            match x {
                isa_core::Immediate::Value(bits) => (crate::#et::#v, crate::#ut::from_bytes(bits.to_le_bytes())),
                isa_core::Immediate::Pointer(addr) => (crate::#et::#p, crate::#ut::from_bytes(addr.to_le_bytes())),
                isa_core::Immediate::Register(regnum) => {
                    let mut bytes = [0u8; 4];
                    bytes[#rn] = regnum;
                    (crate::#et::#r, crate::#ut::from_bytes(bytes))
                }
            }
        }
    }
}

/// How an example spells an address.
pub(crate) fn address_text(model: &Model, forms: Option<&AddressForms>, raw: u32) -> String {
    let c = |n: &str| model.u32_constant(n).unwrap_or(0);
    if let Some(a) = forms {
        if let Some((rn, mk)) = a.register {
            let b = raw.to_le_bytes();
            if i128::from(b[mk as usize]) == c(crate::vendor::ADDR4_MARKER_ADDR_REG) {
                return format!("TensorAddress::register({})?", b[rn as usize]);
            }
        }
        let raw = i128::from(raw);
        let parts = c(crate::vendor::NUM_PARTITIONS);
        for (ok, f, base, size) in [
            (
                a.sbuf,
                "sbuf",
                c(crate::vendor::STATE_BUF_OFFSET),
                c(crate::vendor::STATE_BUF_PARTITION_SIZE),
            ),
            (
                a.psum,
                "psum",
                c(crate::vendor::PSUM_BUF_OFFSET),
                c(crate::vendor::PSUM_BUF_PARTITION_SIZE),
            ),
        ] {
            if ok && size > 0 && raw >= base && raw < base + parts * size {
                let (p, off) = ((raw - base) / size, (raw - base) % size);
                return format!("TensorAddress::{f}({p}, {off:#x})?");
            }
        }
        return format!("TensorAddress::immediate({raw:#x})");
    }
    format!("{raw:#x}")
}

/// `crate::consts::<name>`.
fn const_path(name: &str) -> TokenStream {
    let i = ident(name);
    quote!(crate::consts::#i)
}

/// The checked constructor `name(partition, byte_offset)` of an address in `memory` (`what`:
/// SBUF or PSUM), from its base and partition-size constants; `ok` wraps the checked immediate
/// address `addr` into the function's result.
fn memory_constructor(
    name: &str,
    memory: TokenStream,
    base: &str,
    size: &str,
    what: &str,
    ok: TokenStream,
) -> TokenStream {
    let f = ident(name);
    let (base, size, parts) = (
        const_path(base),
        const_path(size),
        const_path(crate::vendor::NUM_PARTITIONS),
    );
    let prefix = if what == "SBUF" {
        "STATE_BUF"
    } else {
        "PSUM_BUF"
    };
    let d = format!(
        " Byte `byte_offset` of {what} partition `partition`: the immediate address `{prefix}_OFFSET + partition * {prefix}_PARTITION_SIZE + byte_offset`. A partition past `NUM_PARTITIONS` or an offset past the partition size is an error (this generation's constants, `consts`)."
    );
    quote! {
        #[doc = #d]
        pub const fn #f(partition: u32, byte_offset: u32) -> Result<Self, isa_core::AddressError> {
            if partition >= #parts {
                return Err(isa_core::AddressError::Partition { memory: #memory, partition, partitions: #parts });
            }
            if byte_offset >= #size {
                return Err(isa_core::AddressError::Offset { memory: #memory, byte_offset, partition_bytes: #size });
            }
            let addr = #base.wrapping_add(partition.wrapping_mul(#size)).wrapping_add(byte_offset);
            Ok(#ok)
        }
    }
}

/// Whether the generation sizes PSUM out (`PSUM_BUF_PARTITION_SIZE` is 0), so that its
/// `TensorAddress::psum` is written as a name whose call fails with the reason ([`no_psum`]).
pub(crate) fn lacks_psum(model: &Model, a: &AddressForms) -> bool {
    !a.psum && model.u32_constant(crate::vendor::PSUM_BUF_PARTITION_SIZE) == Some(0)
}

/// The reason a generation without PSUM gives where `TensorAddress::psum` is called: a crate
/// trait nothing implements, with the message.
fn no_psum_trait(model: &Model) -> TokenStream {
    let gen = &model.generation;
    let message = format!("{gen} has no PSUM: its PSUM_BUF_PARTITION_SIZE is 0");
    let label = format!("{gen} cannot address PSUM");
    let doc = format!(
        " Implemented by nothing: why {gen} has no `TensorAddress::psum`, said where it is called."
    );
    super::generic::never_trait(&ident("NoPsum"), &doc, &message, &label)
}

/// `TensorAddress::psum` on a generation without PSUM: the name under a bound nothing satisfies
/// (it names a lifetime of the function, so rustc reports it with its message at the call, not
/// where it is written), so a call fails with the reason instead of "no function or associated
/// item".
fn no_psum(model: &Model) -> TokenStream {
    let marker = ident(&crate::model::names::camel(&model.generation));
    let doc = format!(
        " {} has no PSUM (`PSUM_BUF_PARTITION_SIZE` is 0): a call does not compile, and rustc says so.",
        model.generation
    );
    quote! {
        #[doc = #doc]
        pub fn psum<'a>(_partition: u32, _byte_offset: u32) -> Result<Self, isa_core::AddressError>
        where
            &'a crate::#marker: NoPsum,
        {
            match <&'a crate::#marker as NoPsum>::ABSENT {}
        }
    }
}
