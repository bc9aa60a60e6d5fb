//! Operands of the generated typed constructors, and a generation-independent way to call them.
//!
//! The generated crates build every instruction of the RNG family with typed constructors
//! (`Rand2::new`, `Rand::raw_u32`, `PeManageSeed::load_seed`, ...) whose fixed fields come from
//! the header's validator. What their parameters have in common lives here:
//!
//! * [`Immediate`]: a 4-byte operand that is a value in the instruction, a pointer to it, or a
//!   register holding the pointer (an `IMM_SRC` field paired with an `IMM_VAL_INST_FIELD`);
//! * [`AddressError`] and [`TensorError`]: why a generated `TensorAddress` or a tensor helper
//!   (`Tensor3d::contiguous`) refuses its arguments;
//! * [`Construct`]: implemented by every generation's marker type, it calls a constructor by the
//!   instruction's vendor name and the function's name with named [`Arg`]s, for tools that serve
//!   every generation with one code path (`neuron-isa encode`). The typed constructors do the
//!   work; this is only their dispatch.

use core::fmt;

/// A 4-byte immediate operand (`IMM_VAL_INST_FIELD`) and where its value comes from (`IMM_SRC`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Immediate {
    /// `INSTRUCTION_IMMEDIATE`: the value is these 4 bytes of the instruction (little-endian).
    Value(u32),
    /// `POINTER_IMMEDIATE`: the instruction holds the on-chip byte address of the value.
    Pointer(u32),
    /// `REG_PTR_IMMEDIATE`: address register `n` holds the address of the value. The register
    /// form's marker byte is not documented for immediates, so it stays 0.
    Register(u8),
}

impl Immediate {
    /// An fp32 value in the instruction (its bits as [`Immediate::Value`]).
    pub const fn fp32(value: f32) -> Immediate {
        Immediate::Value(value.to_bits())
    }
}

/// An on-chip memory a tensor address points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Memory {
    /// The state buffer (`STATE_BUF_*`).
    Sbuf,
    /// The partial-sum buffer (`PSUM_BUF_*`).
    Psum,
}

impl Memory {
    /// `SBUF` or `PSUM`.
    pub const fn name(self) -> &'static str {
        match self {
            Memory::Sbuf => "SBUF",
            Memory::Psum => "PSUM",
        }
    }
}

/// Why a tensor address cannot be formed from its parts (the header's address map decides).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressError {
    /// The memory has no such partition.
    Partition {
        /// The memory.
        memory: Memory,
        /// The partition asked for.
        partition: u32,
        /// Partitions the memory has (`NUM_PARTITIONS`).
        partitions: u32,
    },
    /// The byte offset lies outside a partition.
    Offset {
        /// The memory.
        memory: Memory,
        /// The offset asked for.
        byte_offset: u32,
        /// Bytes per partition (`*_PARTITION_SIZE`; 0 when the generation sizes the memory out).
        partition_bytes: u32,
    },
    /// No such address register.
    Register {
        /// The register asked for.
        regnum: u8,
        /// Address registers there are (`NUM_ADDR_REGISTERS`).
        registers: u32,
    },
}

impl fmt::Display for AddressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AddressError::Partition {
                memory,
                partition,
                partitions,
            } => write!(
                f,
                "{} partition {partition} does not exist ({partitions} partitions)",
                memory.name()
            ),
            AddressError::Offset {
                memory,
                byte_offset,
                partition_bytes: 0,
            } => write!(
                f,
                "{} byte offset {byte_offset:#x}: this generation has no {} (0 bytes per partition)",
                memory.name(),
                memory.name()
            ),
            AddressError::Offset {
                memory,
                byte_offset,
                partition_bytes,
            } => write!(
                f,
                "{} byte offset {byte_offset:#x} is outside a partition ({partition_bytes:#x} bytes)",
                memory.name()
            ),
            AddressError::Register { regnum, registers } => write!(
                f,
                "address register {regnum} does not exist ({registers} registers)"
            ),
        }
    }
}

impl core::error::Error for AddressError {}

/// Why a tensor access pattern cannot be formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TensorError {
    /// A dimension has count 0 (the headers never allow an empty dimension).
    EmptyDimension {
        /// The dimension, innermost 0.
        dim: usize,
    },
    /// A stride does not fit the descriptor's signed 16-bit element strides.
    Stride {
        /// The dimension, innermost 0.
        dim: usize,
        /// The stride in elements it would need.
        elements: u64,
    },
}

impl fmt::Display for TensorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TensorError::EmptyDimension { dim } => write!(f, "dimension {dim} has no elements"),
            TensorError::Stride { dim, elements } => write!(
                f,
                "dimension {dim} needs a stride of {elements} elements, more than an i16 holds"
            ),
        }
    }
}

impl core::error::Error for TensorError {}

/// The element strides that lay `num` out contiguously, innermost dimension first: dimension
/// `k` steps over the `num[0] * .. * num[k-1]` elements inside it; a dimension of count 1
/// (never stepped) gets stride 1, as the headers fill unused dimensions.
pub fn contiguous_steps<const R: usize>(num: [u16; R]) -> Result<[i16; R], TensorError> {
    let mut steps = [1i16; R];
    let mut inner: u64 = 1;
    for (dim, (&n, step)) in num.iter().zip(steps.iter_mut()).enumerate() {
        if n == 0 {
            return Err(TensorError::EmptyDimension { dim });
        }
        if n > 1 {
            *step = i16::try_from(inner).map_err(|_| TensorError::Stride {
                dim,
                elements: inner,
            })?;
        }
        inner *= u64::from(n);
    }
    Ok(steps)
}

/// What a constructor parameter takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamKind {
    /// A tensor access pattern of `rank` dimensions (the generated `Tensor<rank>d`).
    Tensor {
        /// Dimensions.
        rank: u8,
    },
    /// The lane count (`num_active_channels`).
    Lanes,
    /// A data type (the generation's `Dtype`), by vendor member name.
    Dtype,
    /// An [`Immediate`].
    Immediate,
    /// A member of the C enum `name`, by vendor member name.
    Enum {
        /// The enum's C name.
        name: &'static str,
    },
    /// An fp32 number.
    Fp32,
}

/// One parameter of a typed constructor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Param {
    /// The Rust parameter name (`dst`, `num_active_channels`, `min`).
    pub name: &'static str,
    /// What it takes.
    pub kind: ParamKind,
}

/// One typed constructor of a generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConstructorInfo {
    /// The opcode's vendor name (`RAND2`).
    pub instruction: &'static str,
    /// The function (`new`, `raw_u32`, `load_seed`).
    pub function: &'static str,
    /// Its parameters, in order.
    pub params: &'static [Param],
}

/// A tensor argument in generation-independent form: the raw 4-byte start address (the ADDR4
/// union's bytes as a little-endian word), then strides and counts innermost first. Dimensions
/// past the parameter's rank must have count 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensorArg {
    /// The ADDR4 word.
    pub start_addr: u32,
    /// Element strides.
    pub step_elem: [i16; 4],
    /// Element counts.
    pub num_elem: [u16; 4],
}

impl TensorArg {
    /// `num` elements laid out contiguously from `start_addr` ([`contiguous_steps`]).
    pub fn contiguous(start_addr: u32, num_elem: [u16; 4]) -> Result<TensorArg, TensorError> {
        Ok(TensorArg {
            start_addr,
            step_elem: contiguous_steps(num_elem)?,
            num_elem,
        })
    }

    /// The first `R` dimensions, when the others are unused (count 1).
    pub fn dims<const R: usize>(&self) -> Option<([i16; R], [u16; R])> {
        if R > 4 || self.num_elem[R.min(4)..].iter().any(|n| *n != 1) {
            return None;
        }
        Some((
            core::array::from_fn(|k| self.step_elem[k]),
            core::array::from_fn(|k| self.num_elem[k]),
        ))
    }
}

/// An argument of a constructor call through [`Construct`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg<'a> {
    /// For [`ParamKind::Tensor`].
    Tensor(TensorArg),
    /// For [`ParamKind::Lanes`].
    Lanes(u8),
    /// For [`ParamKind::Dtype`] and [`ParamKind::Enum`]: a vendor member name (`FP32`, `DROP_RATE`).
    Member(&'a str),
    /// For [`ParamKind::Immediate`].
    Immediate(Immediate),
    /// For [`ParamKind::Fp32`].
    Fp32(f32),
}

/// Why a constructor call through [`Construct`] was refused (nothing was built).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConstructError {
    /// The generation has no constructor of that instruction and function.
    NoConstructor,
    /// A parameter has no argument.
    Missing {
        /// The parameter.
        param: &'static str,
    },
    /// The argument at this index names no parameter of the constructor, or repeats one.
    Unexpected {
        /// Index in the argument slice.
        index: usize,
        /// The name it gave.
        name: ArgName,
        /// True when the name is a parameter an earlier argument already gave.
        repeated: bool,
        /// The constructor's parameters, which the message lists.
        params: &'static [Param],
    },
    /// An argument of the wrong kind.
    Kind {
        /// The parameter.
        param: &'static str,
        /// What it takes.
        expected: ParamKind,
    },
    /// A member name the parameter's enum does not have.
    Member {
        /// The parameter.
        param: &'static str,
    },
    /// A tensor argument with more dimensions in use than the parameter's rank.
    Rank {
        /// The parameter.
        param: &'static str,
        /// Its rank.
        rank: u8,
    },
}

impl fmt::Display for ConstructError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConstructError::NoConstructor => f.write_str("no such constructor"),
            ConstructError::Missing { param } => write!(f, "parameter `{param}` has no argument"),
            ConstructError::Unexpected {
                index,
                name,
                repeated: true,
                ..
            } => write!(
                f,
                "argument {index} (`{name}`) repeats a parameter an earlier argument gave"
            ),
            ConstructError::Unexpected {
                index,
                name,
                params,
                ..
            } => {
                write!(
                    f,
                    "argument {index} (`{name}`) names no parameter of the constructor; its parameters:"
                )?;
                for (k, p) in params.iter().enumerate() {
                    f.write_str(if k == 0 { " " } else { ", " })?;
                    write!(f, "`{}` ({})", p.name, kind_text(p.kind))?;
                }
                Ok(())
            }
            ConstructError::Kind { param, expected } => {
                write!(f, "parameter `{param}` takes {}", kind_text(*expected))
            }
            ConstructError::Member { param } => {
                write!(f, "parameter `{param}`: no such member")
            }
            ConstructError::Rank { param, rank } => write!(
                f,
                "parameter `{param}` is a {rank}-D tensor: dimensions past {rank} must have count 1"
            ),
        }
    }
}

impl core::error::Error for ConstructError {}

/// The name an argument gave, kept in the error without allocating: up to
/// [`ArgName::CAPACITY`] bytes, a longer name cut at a character boundary and marked `…`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct ArgName(crate::kept::KeptText);

impl ArgName {
    /// Most bytes of a name kept.
    pub const CAPACITY: usize = crate::kept::KeptText::CAPACITY;

    /// `name`, cut to [`ArgName::CAPACITY`] bytes.
    pub fn new(name: &str) -> ArgName {
        ArgName(crate::kept::KeptText::new(name))
    }

    /// The name as kept (without the `…` of a cut one).
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }
}

impl fmt::Display for ArgName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())?;
        if self.0.is_cut() {
            f.write_str("…")?;
        }
        Ok(())
    }
}

impl fmt::Debug for ArgName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

fn kind_text(k: ParamKind) -> &'static str {
    match k {
        ParamKind::Tensor { .. } => "a tensor",
        ParamKind::Lanes => "a lane count",
        ParamKind::Dtype => "a dtype name",
        ParamKind::Immediate => "an immediate",
        ParamKind::Enum { .. } => "an enum member name",
        ParamKind::Fp32 => "an fp32 number",
    }
}

/// Named arguments checked against a constructor's parameters (used by the generated
/// [`Construct`] impls).
#[derive(Clone, Copy, Debug)]
pub struct Args<'s, 'a> {
    args: &'s [(&'s str, Arg<'a>)],
    params: &'static [Param],
}

impl<'s, 'a> Args<'s, 'a> {
    /// Every argument must name a parameter, at most once; every parameter must have one.
    pub fn new(
        args: &'s [(&'s str, Arg<'a>)],
        params: &'static [Param],
    ) -> Result<Self, ConstructError> {
        for (index, (name, _)) in args.iter().enumerate() {
            let known = params.iter().any(|p| p.name == *name);
            let repeated = args[..index].iter().any(|(n, _)| n == name);
            if !known || repeated {
                return Err(ConstructError::Unexpected {
                    index,
                    name: ArgName::new(name),
                    repeated,
                    params,
                });
            }
        }
        if let Some(p) = params
            .iter()
            .find(|p| !args.iter().any(|(n, _)| *n == p.name))
        {
            return Err(ConstructError::Missing { param: p.name });
        }
        Ok(Args { args, params })
    }

    fn get(&self, param: &'static str) -> Result<(&Arg<'a>, ParamKind), ConstructError> {
        let kind = self
            .params
            .iter()
            .find(|p| p.name == param)
            .map(|p| p.kind)
            .ok_or(ConstructError::Missing { param })?;
        self.args
            .iter()
            .find(|(n, _)| *n == param)
            .map(|(_, a)| (a, kind))
            .ok_or(ConstructError::Missing { param })
    }

    /// A tensor parameter's address word, strides and counts.
    pub fn tensor<const R: usize>(
        &self,
        param: &'static str,
    ) -> Result<(u32, [i16; R], [u16; R]), ConstructError> {
        match self.get(param)? {
            (Arg::Tensor(t), _) => {
                let (steps, nums) = t.dims::<R>().ok_or(ConstructError::Rank {
                    param,
                    rank: R as u8,
                })?;
                Ok((t.start_addr, steps, nums))
            }
            (_, expected) => Err(ConstructError::Kind { param, expected }),
        }
    }

    /// A lane count.
    pub fn lanes(&self, param: &'static str) -> Result<u8, ConstructError> {
        match self.get(param)? {
            (Arg::Lanes(n), _) => Ok(*n),
            (_, expected) => Err(ConstructError::Kind { param, expected }),
        }
    }

    /// A member name (dtype or enum).
    pub fn member(&self, param: &'static str) -> Result<&'a str, ConstructError> {
        match self.get(param)? {
            (Arg::Member(m), _) => Ok(m),
            (_, expected) => Err(ConstructError::Kind { param, expected }),
        }
    }

    /// An immediate.
    pub fn immediate(&self, param: &'static str) -> Result<Immediate, ConstructError> {
        match self.get(param)? {
            (Arg::Immediate(i), _) => Ok(*i),
            (_, expected) => Err(ConstructError::Kind { param, expected }),
        }
    }

    /// An fp32 number.
    pub fn fp32(&self, param: &'static str) -> Result<f32, ConstructError> {
        match self.get(param)? {
            (Arg::Fp32(v), _) => Ok(*v),
            (_, expected) => Err(ConstructError::Kind { param, expected }),
        }
    }
}

/// The typed constructors of a generation, callable by name (implemented by the generated
/// marker types, `isa_mariana::Mariana`): each call goes to the typed constructor itself.
pub trait Construct {
    /// Every typed constructor of the generation, with its parameters.
    const CONSTRUCTORS: &'static [ConstructorInfo];

    /// Calls constructor `function` of `instruction` (vendor opcode name) with named arguments
    /// and returns the encoded word. The word is not validated (runtime constraints such as
    /// `min != max` stay with `validate`).
    fn construct(
        instruction: &str,
        function: &str,
        args: &[(&str, Arg<'_>)],
    ) -> Result<[u8; crate::INST_NBYTES], ConstructError>;

    /// The constructor `function` of `instruction`, if the generation has it.
    fn constructor(instruction: &str, function: &str) -> Option<&'static ConstructorInfo> {
        Self::CONSTRUCTORS
            .iter()
            .find(|c| c.instruction == instruction && c.function == function)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn contiguous_strides_step_over_the_inner_dimensions() {
        assert_eq!(contiguous_steps([4, 1, 1]), Ok([1, 1, 1]));
        assert_eq!(contiguous_steps([4, 3, 2]), Ok([1, 4, 12]));
        assert_eq!(contiguous_steps([40000u16, 1, 1]), Ok([1, 1, 1]));
        assert_eq!(
            contiguous_steps([40000u16, 2]),
            Err(TensorError::Stride {
                dim: 1,
                elements: 40000
            })
        );
        assert_eq!(
            contiguous_steps([4, 0, 1]),
            Err(TensorError::EmptyDimension { dim: 1 })
        );
    }

    #[test]
    fn fp32_immediates_hold_the_bits() {
        assert_eq!(Immediate::fp32(1.0), Immediate::Value(0x3f80_0000));
        assert_eq!(Immediate::fp32(-0.0), Immediate::Value(0x8000_0000));
    }

    #[test]
    fn tensor_args_refuse_dimensions_past_the_rank() {
        let t = TensorArg::contiguous(0x100, [4, 2, 1, 1]).unwrap();
        assert_eq!(t.dims::<2>(), Some(([1, 4], [4, 2])));
        assert_eq!(t.dims::<1>(), None);
        assert_eq!(t.dims::<4>(), Some(([1, 4, 1, 1], [4, 2, 1, 1])));
    }

    const PARAMS: &[Param] = &[
        Param {
            name: "dst",
            kind: ParamKind::Tensor { rank: 3 },
        },
        Param {
            name: "num_active_channels",
            kind: ParamKind::Lanes,
        },
    ];

    #[test]
    fn named_arguments_are_checked_against_the_parameters() {
        let dst = Arg::Tensor(TensorArg::contiguous(0x100, [4, 1, 1, 1]).unwrap());
        let ok = [("num_active_channels", Arg::Lanes(4)), ("dst", dst)];
        let a = Args::new(&ok, PARAMS).unwrap();
        assert_eq!(a.lanes("num_active_channels"), Ok(4));
        assert_eq!(a.tensor::<3>("dst"), Ok((0x100, [1, 1, 1], [4, 1, 1])));
        assert_eq!(
            a.lanes("dst"),
            Err(ConstructError::Kind {
                param: "dst",
                expected: ParamKind::Tensor { rank: 3 }
            })
        );
        let missing = [("dst", dst)];
        assert_eq!(
            Args::new(&missing, PARAMS).unwrap_err(),
            ConstructError::Missing {
                param: "num_active_channels"
            }
        );
        let extra = [("dst", dst), ("min", Arg::Fp32(0.0))];
        let e = Args::new(&extra, PARAMS).unwrap_err();
        assert!(matches!(
            e,
            ConstructError::Unexpected { index: 1, name, repeated: false, .. } if name.as_str() == "min"
        ));
        assert_eq!(
            e.to_string(),
            "argument 1 (`min`) names no parameter of the constructor; its parameters: \
             `dst` (a tensor), `num_active_channels` (a lane count)"
        );
        let long = "a_misspelt_parameter_name_longer_than_forty_bytes";
        let named = [(long, Arg::Fp32(0.0))];
        let e = Args::new(&named, PARAMS).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("argument 0 (`a_misspelt_parameter_name_longer_than_fo…`)"),
            "{e}"
        );
        let twice = [
            ("dst", dst),
            ("dst", dst),
            ("num_active_channels", Arg::Lanes(1)),
        ];
        assert_eq!(
            Args::new(&twice, PARAMS).unwrap_err().to_string(),
            "argument 1 (`dst`) repeats a parameter an earlier argument gave"
        );
        let wide = [
            (
                "dst",
                Arg::Tensor(TensorArg::contiguous(0, [2, 1, 1, 2]).unwrap()),
            ),
            ("num_active_channels", Arg::Lanes(1)),
        ];
        assert_eq!(
            Args::new(&wide, PARAMS).unwrap().tensor::<3>("dst"),
            Err(ConstructError::Rank {
                param: "dst",
                rank: 3
            })
        );
    }

    #[test]
    fn errors_are_one_line() {
        let e = AddressError::Offset {
            memory: Memory::Psum,
            byte_offset: 0x10,
            partition_bytes: 0,
        };
        assert_eq!(
            e.to_string(),
            "PSUM byte offset 0x10: this generation has no PSUM (0 bytes per partition)"
        );
        assert_eq!(
            AddressError::Partition {
                memory: Memory::Sbuf,
                partition: 128,
                partitions: 128
            }
            .to_string(),
            "SBUF partition 128 does not exist (128 partitions)"
        );
        assert_eq!(
            ConstructError::Missing { param: "dst" }.to_string(),
            "parameter `dst` has no argument"
        );
    }
}
