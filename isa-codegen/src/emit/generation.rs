//! The `generation` module: the generation's marker type, its identity, and its
//! implementations of `isa_core::Isa` (tools) and `rng_core::Generation` (the RNG
//! models): legality tables, memory geometry and the checkpoint codec from the
//! headers; the firmware-wired set and model choices from `rng-runtime.json`.

use super::legality::tensor_path;
use super::{banner, ident, lit, unprinted, Source};
use crate::model::legality::{ColumnSource, Table};
use crate::model::names::rust_field;
use crate::model::{Model, Ty};
use proc_macro2::TokenStream;
use quote::quote;

/// The `rng_core` enum a vendor enum maps to, by C name.
fn rng_enum(c_name: &str) -> Option<&'static str> {
    Some(match c_name {
        "NEURON_ISA_TPB_NEURON_ENGINE" => "Engine",
        "NEURON_ISA_TPB_RAND_SRC" => "Generator",
        "NEURON_ISA_TPB_RAND_ALGORITHM" => "Algorithm",
        "NEURON_ISA_TPB_RAND_STATE_UPDATE" => "StateUpdate",
        "NEURON_ISA_TPB_RAND_POST_PROC" => "PostProcess",
        "NEURON_ISA_TPB_IMM_SRC" => "ImmSource",
        "NEURON_ISA_TPB_DROPOUT_THRESHOLD_TYPE" => "ThresholdType",
        "NEURON_ISA_TPB_DTYPE" => "Dtype",
        _ => return None,
    })
}

/// The rng-core variant (Rust name) of a vendor member, if rng-core models it.
fn rng_variant(rng_ty: &str, member: &str) -> Option<String> {
    let v = match rng_ty {
        "Engine" => rng_core::Engine::from_name(member).map(|x| format!("{x:?}")),
        "Generator" => rng_core::Generator::from_name(member).map(|x| format!("{x:?}")),
        "Algorithm" => rng_core::Algorithm::from_name(member).map(|x| format!("{x:?}")),
        "StateUpdate" => rng_core::StateUpdate::from_name(member).map(|x| format!("{x:?}")),
        "PostProcess" => rng_core::PostProcess::from_name(member).map(|x| format!("{x:?}")),
        "ImmSource" => rng_core::ImmSource::from_name(member).map(|x| format!("{x:?}")),
        "ThresholdType" => rng_core::ThresholdType::from_name(member).map(|x| format!("{x:?}")),
        "Dtype" => rng_core::Dtype::from_name(member).map(|x| format!("{x:?}")),
        _ => None,
    }?;
    Some(v)
}

/// Every rng-core variant of an rng-core enum, by vendor name.
fn rng_all(rng_ty: &str) -> Vec<(&'static str, String)> {
    match rng_ty {
        "Engine" => rng_core::Engine::ALL
            .iter()
            .map(|x| (x.name(), format!("{x:?}")))
            .collect(),
        "Generator" => rng_core::Generator::ALL
            .iter()
            .map(|x| (x.name(), format!("{x:?}")))
            .collect(),
        "Algorithm" => rng_core::Algorithm::ALL
            .iter()
            .map(|x| (x.name(), format!("{x:?}")))
            .collect(),
        "StateUpdate" => rng_core::StateUpdate::ALL
            .iter()
            .map(|x| (x.name(), format!("{x:?}")))
            .collect(),
        _ => Vec::new(),
    }
}

/// The identity items (always emitted).
fn identity(model: &Model) -> TokenStream {
    let marker = ident(&crate::model::names::camel(&model.generation));
    let name = &model.generation;
    let nc = lit(i128::from(model.nc_version));
    let fp = model.fingerprint.tree_hex();
    let doc = format!(
        " Marker type of the {name} generation (NeuronCore v{}): implements [`isa_core::Isa`] and [`rng_core::Generation`].",
        model.nc_version
    );
    quote! {
        #[doc = #doc]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct #marker;
        /// Name, NeuronCore version and the fingerprint of the header tree this crate was generated from.
        pub const GENERATION: isa_core::GenerationInfo = isa_core::GenerationInfo {
            name: #name,
            nc_version: #nc,
            fingerprint: #fp,
        };
        impl #marker {
            /// Name, NeuronCore version and header-tree fingerprint.
            pub const INFO: isa_core::GenerationInfo = GENERATION;
        }
    }
}

fn isa_impl(model: &Model) -> TokenStream {
    let Some(engine) = model.engine_enum else {
        return quote!();
    };
    let marker = ident(&crate::model::names::camel(&model.generation));
    let et = ident(&model.enums[engine].rust);
    let engines_fn = if model.placement.is_some() {
        quote!(fn engines(op: crate::Opcode) -> &'static [crate::#et] { op.engines() })
    } else {
        quote!()
    };
    quote! {
        impl isa_core::Isa for #marker {
            const INFO: isa_core::GenerationInfo = GENERATION;
            type Opcode = crate::Opcode;
            type Engine = crate::#et;
            type Instruction = crate::Instruction;
            fn opcodes() -> &'static [crate::Opcode] { crate::Opcode::ALL }
            fn opcode(byte: u8) -> Option<crate::Opcode> { crate::Opcode::from_value(byte) }
            fn fields_of(op: crate::Opcode) -> Option<&'static [isa_core::FieldInfo]> { crate::inst::fields_of(op) }
            fn decode(word: &[u8; 64]) -> Result<crate::Instruction, isa_core::DecodeError> { crate::Instruction::decode(word) }
            fn encode(inst: &crate::Instruction) -> [u8; 64] { inst.to_bytes() }
            fn opcode_of(inst: &crate::Instruction) -> crate::Opcode { inst.opcode() }
            fn validate(inst: &crate::Instruction, engine: crate::#et) -> Result<(), isa_core::Violation> { inst.validate(engine) }
            #engines_fn
        }
    }
}

/// The checkpoint tables: (RAND_SET_STATE, RAND_GET_STATE).
fn checkpoint_tables(model: &Model) -> Option<(&Table, &Table)> {
    let find = |name: &str| {
        model
            .tables
            .iter()
            .find(|t| model.opcodes[t.opcode].short == name)
    };
    Some((find("RAND_SET_STATE")?, find("RAND_GET_STATE")?))
}

/// Column of a table holding an rng-core enum.
fn column(model: &Model, t: &Table, rng_ty: &str) -> Option<usize> {
    t.columns
        .iter()
        .position(|c| rng_enum(&model.enums[c.enum_id].c_name) == Some(rng_ty))
}

fn dtype_column(model: &Model, t: &Table) -> Option<usize> {
    t.columns
        .iter()
        .position(|c| model.enums[c.enum_id].c_name == "NEURON_ISA_TPB_DTYPE")
}

/// Rust field access (on `inst`) of a column that is a field.
fn field_access(model: &Model, t: &Table, col: usize) -> Option<TokenStream> {
    let ColumnSource::Field(p) = &t.columns[col].source else {
        return None;
    };
    let mut toks = quote!(inst);
    for s in &p.steps {
        match s {
            crate::model::eval::Step::Field(r, k) => {
                let id = ident(&rust_field(&model.records[*r].fields[*k].name));
                toks = quote!(#toks.#id);
            }
            crate::model::eval::Step::Index(i) => {
                let i = lit(*i);
                toks = quote!(#toks[#i]);
            }
        }
    }
    Some(toks)
}

fn arms(model: &Model, t: &Table) -> Option<Vec<TokenStream>> {
    let (e, g, a) = (
        column(model, t, "Engine")?,
        column(model, t, "Generator")?,
        column(model, t, "Algorithm")?,
    );
    let u = column(model, t, "StateUpdate");
    let mut out = Vec::new();
    for arm in &t.arms {
        let v = |col: usize, rng_ty: &str| -> Option<TokenStream> {
            let m = &model.enums[t.columns[col].enum_id].members[arm.values[col]];
            let ty = ident(rng_ty);
            let var = ident(&rng_variant(rng_ty, &m.short)?);
            Some(quote!(rng_core::#ty::#var))
        };
        let (ev, gv, av) = (v(e, "Engine")?, v(g, "Generator")?, v(a, "Algorithm")?);
        let uv = match u {
            Some(u) => {
                let x = v(u, "StateUpdate")?;
                quote!(Some(#x))
            }
            None => quote!(None),
        };
        let words = lit(arm.words);
        out.push(quote! { rng_core::CheckpointArm { engine: #ev, generator: #gv, algorithm: #av, update: #uv, words: #words } });
    }
    Some(out)
}

/// `fn <name>(v: Vendor) -> Result<rng_core::X, InstructionError>` and its inverse.
fn mappings(model: &Model, enum_id: usize, rng_ty: &str) -> TokenStream {
    let to = to_mapping(model, enum_id, rng_ty);
    let from = from_mapping(model, enum_id, rng_ty);
    quote!(#to #from)
}

/// `fn to_<name>(v: Vendor) -> Result<rng_core::X, InstructionError>`.
fn to_mapping(model: &Model, enum_id: usize, rng_ty: &str) -> TokenStream {
    let e = &model.enums[enum_id];
    let vt = ident(&e.rust);
    let rt = ident(rng_ty);
    let to = ident(&format!("to_{}", crate::model::names::snake(rng_ty)));
    let to_arms = e.distinct().map(|m| {
        let v = ident(&m.rust);
        match rng_variant(rng_ty, &m.short) {
            Some(r) => {
                let r = ident(&r);
                quote! { crate::#vt::#v => Ok(rng_core::#rt::#r), }
            }
            None => {
                let what = format!("{} member {} has no rng-core model", e.c_name, m.short);
                quote! { crate::#vt::#v => Err(rng_core::InstructionError::Unmodelled { what: #what }), }
            }
        }
    });
    let to_doc = format!(" The rng-core model's `{rng_ty}` for a `{}` member (an error for a member it does not model).", e.c_name);
    quote! {
        #[doc = #to_doc]
        #[allow(unreachable_patterns)]
        pub fn #to(v: crate::#vt) -> Result<rng_core::#rt, rng_core::InstructionError> {
            match v { #(#to_arms)* }
        }
    }
}

/// `fn from_<name>(v: rng_core::X) -> Result<Vendor, InstructionError>`.
fn from_mapping(model: &Model, enum_id: usize, rng_ty: &str) -> TokenStream {
    let e = &model.enums[enum_id];
    let vt = ident(&e.rust);
    let rt = ident(rng_ty);
    let from = ident(&format!("from_{}", crate::model::names::snake(rng_ty)));
    let from_arms = rng_all(rng_ty).into_iter().map(|(vendor, r)| {
        let r = ident(&r);
        match e.distinct().find(|m| m.short == vendor) {
            Some(m) => {
                let v = ident(&m.rust);
                quote! { rng_core::#rt::#r => Ok(crate::#vt::#v), }
            }
            None => {
                let what = format!("{vendor} is not a member of {} on {}", e.c_name, model.generation);
                quote! { rng_core::#rt::#r => Err(rng_core::InstructionError::Unmodelled { what: #what }), }
            }
        }
    });
    let from_doc = format!(
        " The `{}` member of an rng-core `{rng_ty}` (an error when this generation has none).",
        e.c_name
    );
    quote! {
        #[doc = #from_doc]
        #[allow(unreachable_patterns)]
        pub fn #from(v: rng_core::#rt) -> Result<crate::#vt, rng_core::InstructionError> {
            match v { #(#from_arms)* }
        }
    }
}

fn model_choices(model: &Model) -> Result<TokenStream, String> {
    use crate::read::runtime;
    let Some(rt) = &model.runtime else {
        return Ok(quote!(rng_core::ModelChoices::RECONSTRUCTED));
    };
    let o = &rt.overrides;
    let mut fields = Vec::new();
    if let Some(c) = &o.xorwow_default_seed {
        let w = c
            .value
            .iter()
            .map(|v| proc_macro2::Literal::u32_unsuffixed(*v));
        fields.push(quote!(xorwow_default_seed: [#(#w),*],));
    }
    if let Some(c) = &o.zero_guard {
        // The model checked the value (`model::runtime::resolve`).
        let v = match runtime::zero_guard(&c.value) {
            Some(None) => quote!(rng_core::model::ZeroGuard::Disabled),
            Some(Some(n)) => quote!(rng_core::model::ZeroGuard::ForceWordToOne(#n)),
            None => {
                return Err(format!(
                    "zero_guard `{}`: expected `disabled` or `force_word_to_one:<0..4>`",
                    c.value
                ))
            }
        };
        fields.push(quote!(zero_guard: #v,));
    }
    let pick = |c: &Option<crate::read::runtime::Choice<String>>,
                field: &str,
                options: &[(&str, &str, &str)]|
     -> Result<Option<TokenStream>, String> {
        let Some(c) = c else { return Ok(None) };
        let (_, ty, var) = options
            .iter()
            .find(|(name, _, _)| *name == c.value)
            .ok_or(format!(
                "{field} `{}`: expected one of {}",
                c.value,
                options.iter().map(|o| o.0).collect::<Vec<_>>().join(", ")
            ))?;
        let (f, t, v) = (ident(field), ident(ty), ident(var));
        Ok(Some(quote!(#f: rng_core::model::#t::#v,)))
    };
    fields.extend(pick(
        &o.dve_xorwow_layout,
        "dve_xorwow_layout",
        &[
            (
                runtime::DVE_XORWOW_LAYOUTS[0],
                "SubGeneratorLayout",
                "SubGeneratorMajor",
            ),
            (
                runtime::DVE_XORWOW_LAYOUTS[1],
                "SubGeneratorLayout",
                "WordMajor",
            ),
        ],
    )?);
    fields.extend(pick(
        &o.lane_interleave,
        "lane_interleave",
        &[
            (runtime::LANE_INTERLEAVES[0], "LaneInterleave", "RoundRobin"),
            (runtime::LANE_INTERLEAVES[1], "LaneInterleave", "Lockstep"),
        ],
    )?);
    fields.extend(pick(
        &o.philox_offset,
        "philox_offset",
        &[
            (runtime::PHILOX_OFFSETS[0], "PhiloxOffset", "WordInBlock"),
            (runtime::PHILOX_OFFSETS[1], "PhiloxOffset", "WordsFromStart"),
        ],
    )?);
    if let Some(c) = &o.lfsr_taps {
        let t = c
            .value
            .iter()
            .map(|v| proc_macro2::Literal::u8_unsuffixed(*v));
        fields.push(quote!(lfsr_taps: [#(#t),*],));
    }
    if let Some(c) = &o.pcg32_low_word {
        let v = c.value;
        fields.push(quote!(pcg32_low_word: #v,));
    }
    if let Some(c) = &o.pcg32_increment {
        let v = proc_macro2::Literal::u64_unsuffixed(c.value);
        fields.push(quote!(pcg32_increment: #v,));
    }
    if fields.is_empty() {
        Ok(quote!(rng_core::ModelChoices::RECONSTRUCTED))
    } else {
        Ok(quote!(rng_core::ModelChoices { #(#fields)* ..rng_core::ModelChoices::RECONSTRUCTED }))
    }
}

/// Field accesses of one operand struct, each checked against the documented conventions
/// (field names and types); a failure names the instruction and the field.
struct Fields<'m> {
    model: &'m Model,
    record: crate::model::RecordId,
    op: &'m str,
}

impl Fields<'_> {
    fn field(&self, name: &str) -> Result<&crate::model::Field, String> {
        self.model.records[self.record]
            .fields
            .iter()
            .find(|f| f.name == name)
            .ok_or(format!("{}: no field `{name}`", self.op))
    }

    fn access(&self, name: &str) -> TokenStream {
        let f = ident(&rust_field(name));
        quote!(inst.#f)
    }

    /// `inst.<name>`, a field of the enum `c_name`.
    fn enum_field(&self, name: &str, c_name: &str) -> Result<TokenStream, String> {
        match self.field(name)?.ty {
            Ty::Enum(e) if self.model.enums[e].c_name == c_name => Ok(self.access(name)),
            _ => Err(format!("{}: field `{name}` is not a {c_name}", self.op)),
        }
    }

    /// `inst.<name>`, a `uint8_t`.
    fn u8_field(&self, name: &str) -> Result<TokenStream, String> {
        match self.field(name)?.ty {
            Ty::Prim(crate::model::Prim::U8) => Ok(self.access(name)),
            _ => Err(format!("{}: field `{name}` is not a uint8_t", self.op)),
        }
    }

    fn is_word_union(&self, ty: &Ty) -> bool {
        matches!(ty, Ty::Record(r)
            if self.model.records[*r].kind == crate::model::RecordKind::Union
                && self.model.records[*r].size == 4)
    }

    /// The raw word of a 4-byte union field (`IMM_VAL_INST_FIELD`).
    fn word(&self, name: &str) -> Result<TokenStream, String> {
        if !self.is_word_union(&self.field(name)?.ty) {
            return Err(format!("{}: field `{name}` is not a 4-byte union", self.op));
        }
        let a = self.access(name);
        Ok(quote!(isa_core::le::get_u32(&#a.bytes, 0)))
    }

    /// `[u32; 4]` from an array of at least two 4-byte unions (RAND `params`), zero-padded.
    fn words4(&self, name: &str) -> Result<TokenStream, String> {
        let Ty::Array(elem, n) = &self.field(name)?.ty else {
            return Err(format!("{}: field `{name}` is not an array", self.op));
        };
        if !self.is_word_union(elem) || !(2..=4).contains(n) {
            return Err(format!(
                "{}: field `{name}` is not an array of 2 to 4 4-byte unions",
                self.op
            ));
        }
        let a = self.access(name);
        let words = (0..4).map(|k| {
            if k < *n {
                let k = lit(k);
                quote!(isa_core::le::get_u32(&#a[#k].bytes, 0))
            } else {
                quote!(0)
            }
        });
        Ok(quote!([#(#words),*]))
    }

    /// A `rng_core::TensorPattern` from a TENSORnD field (`start_addr` 4-byte union, `step_elem`
    /// `int16_t[n]`, `num_elem` `uint16_t[n]`, n in 1..=4).
    fn tensor(&self, name: &str) -> Result<TokenStream, String> {
        use crate::model::Prim;
        let bad = || format!("{}: field `{name}` is not a TENSOR1D..TENSOR4D", self.op);
        let Ty::Record(r) = self.field(name)?.ty else {
            return Err(bad());
        };
        let rec = &self.model.records[r];
        let f = |n: &str| rec.fields.iter().find(|f| f.name == n);
        let (Some(start), Some(step), Some(num)) = (f("start_addr"), f("step_elem"), f("num_elem"))
        else {
            return Err(bad());
        };
        let rank = match (&step.ty, &num.ty) {
            (Ty::Array(a, n), Ty::Array(b, m))
                if **a == Ty::Prim(Prim::I16) && **b == Ty::Prim(Prim::U16) && n == m =>
            {
                *n
            }
            _ => return Err(bad()),
        };
        if !self.is_word_union(&start.ty) || !(1..=4).contains(&rank) {
            return Err(bad());
        }
        let a = self.access(name);
        let idx: Vec<TokenStream> = (0..rank).map(lit).collect();
        let pad: Vec<TokenStream> = (rank..4).map(|_| quote!(1)).collect();
        let rank = lit(rank);
        Ok(quote! {{
            let t = &#a;
            rng_core::TensorPattern {
                start_addr: isa_core::le::get_u32(&t.start_addr.bytes, 0),
                step_elem: [#(t.step_elem[#idx]),* #(, #pad)*],
                num_elem: [#(t.num_elem[#idx]),* #(, #pad)*],
                rank: #rank,
            }
        }})
    }

    /// `rng_core::Scalar { source: to_imm_source(<src>)?, bits: <word> }`.
    fn scalar(&self, src: &str, value: &str) -> Result<TokenStream, String> {
        let src = self.enum_field(src, IMM_SRC)?;
        let bits = self.word(value)?;
        Ok(quote!(rng_core::Scalar { source: to_imm_source(#src)?, bits: #bits }))
    }
}

const IMM_SRC: &str = "NEURON_ISA_TPB_IMM_SRC";
const DTYPE: &str = "NEURON_ISA_TPB_DTYPE";
const POST_PROC: &str = "NEURON_ISA_TPB_RAND_POST_PROC";
const THRESHOLD_TYPE: &str = "NEURON_ISA_TPB_DROPOUT_THRESHOLD_TYPE";
const ALGORITHM: &str = "NEURON_ISA_TPB_RAND_ALGORITHM";
const RAND_SRC: &str = "NEURON_ISA_TPB_RAND_SRC";

/// The decoded form of one draw-family instruction, built from `inst` (its typed instruction).
fn draw_form(model: &Model, short: &str, f: &Fields) -> Result<TokenStream, String> {
    let _ = model;
    Ok(match short {
        "RAND" => {
            let (gen, alg) = (
                f.enum_field("rand_generator", RAND_SRC)?,
                f.enum_field("rand_algorithm", ALGORITHM)?,
            );
            let steps = f.u8_field("rand_num_steps")?;
            let post = f.enum_field("post_process", POST_PROC)?;
            let params = f.words4("params")?;
            let dtype = f.enum_field("dtype", DTYPE)?;
            let channels = f.u8_field("num_active_channels")?;
            let dst = f.tensor("dst_mem_pattern")?;
            quote!(rng_core::RngInstruction::Rand(rng_core::RandInstruction {
                engine,
                generator: to_generator(#gen)?,
                algorithm: to_algorithm(#alg)?,
                steps: #steps,
                post_process: to_post_process(#post)?,
                params: #params,
                dtype: to_dtype(#dtype)?,
                channels: #channels,
                dst: #dst,
            }))
        }
        "RAND2" => {
            let alg = f.enum_field("rand_algorithm", ALGORITHM)?;
            let post = f.enum_field("post_process", POST_PROC)?;
            let dtype = f.enum_field("dtype", DTYPE)?;
            let channels = f.u8_field("num_active_channels")?;
            let (min, max) = (f.scalar("min_src", "min")?, f.scalar("max_src", "max")?);
            let dst = f.tensor("dst_mem_pattern")?;
            quote!(rng_core::RngInstruction::Rand2(rng_core::Rand2Instruction {
                engine,
                algorithm: to_algorithm(#alg)?,
                post_process: to_post_process(#post)?,
                dtype: to_dtype(#dtype)?,
                channels: #channels,
                min: #min,
                max: #max,
                dst: #dst,
            }))
        }
        "DROPOUT" => {
            let src = f.tensor("src_mem_pattern")?;
            let (in_dtype, out_dtype) = (
                f.enum_field("in_dtype", DTYPE)?,
                f.enum_field("out_dtype", DTYPE)?,
            );
            let channels = f.u8_field("num_active_channels")?;
            let threshold = f.scalar("threshold_src", "threshold")?;
            let t_dtype = f.enum_field("threshold_dtype", DTYPE)?;
            let t_type = f.enum_field("threshold_type", THRESHOLD_TYPE)?;
            let dst = f.tensor("dst_mem_pattern")?;
            // threshold_dtype INVALID (0) stands for FP32 (the header's threshold_dtype_fp32).
            let dt = model
                .enum_named(DTYPE)
                .ok_or(format!("{}: no {DTYPE}", f.op))?;
            let t_dtype = match model.enums[dt].distinct().find(|m| m.short == "INVALID") {
                Some(m) => {
                    let (ty, v) = (ident(&model.enums[dt].rust), ident(&m.rust));
                    quote!(match #t_dtype { crate::#ty::#v => None, d => Some(to_dtype(d)?) })
                }
                None => quote!(Some(to_dtype(#t_dtype)?)),
            };
            quote!(rng_core::RngInstruction::Dropout(rng_core::DropoutInstruction {
                engine,
                src: #src,
                in_dtype: to_dtype(#in_dtype)?,
                out_dtype: to_dtype(#out_dtype)?,
                channels: #channels,
                threshold: #threshold,
                threshold_dtype: #t_dtype,
                threshold_type: to_threshold_type(#t_type)?,
                dst: #dst,
            }))
        }
        "PSEUDO_SET_RNG_SEED" => {
            let seed = f.scalar("seed_src", "seed")?;
            quote!(rng_core::RngInstruction::SetSeed(rng_core::SeedInstruction {
                engine,
                seed: #seed,
            }))
        }
        other => return Err(format!("{other}: not an instruction rng-core executes")),
    })
}

/// The instructions `decode_instruction` hands to rng-core besides the checkpoint pair.
const DRAW_FAMILY: [&str; 4] = ["RAND", "RAND2", "DROPOUT", "PSEUDO_SET_RNG_SEED"];

/// `decode_instruction`'s arms for the draw family present in the tree, the `to_*` mappings
/// they use, and a note for each present instruction whose conventions do not hold.
fn draw_family(model: &Model) -> (Vec<TokenStream>, TokenStream, Vec<String>) {
    let names = &model.instruction_names;
    let mut arms = Vec::new();
    let mut notes = Vec::new();
    for short in DRAW_FAMILY {
        let Some(op) = model.opcode_named(short) else {
            continue; // not in this generation
        };
        let opcode = &model.opcodes[op];
        let arm = (|| -> Result<TokenStream, String> {
            let shape = opcode
                .shape
                .ok_or(format!("{short}: no operand struct in the mapping"))?;
            let typed = names[op]
                .as_ref()
                .ok_or(format!("{short}: no typed instruction"))?;
            let fields = Fields {
                model,
                record: model.shapes[shape].record,
                op: short,
            };
            let form = draw_form(model, short, &fields)?;
            let (value, typed) = (lit(opcode.value), ident(typed));
            let cfg = super::cfg_for_shape(model, shape);
            Ok(quote! {
                #cfg
                #value => {
                    let inst = crate::#typed::from_bytes(word).map_err(rng_core::InstructionError::Decode)?;
                    inst.validate(vendor_engine).map_err(rng_core::InstructionError::Invalid)?;
                    Ok(#form)
                }
            })
        })();
        match arm {
            Ok(a) => arms.push(a),
            Err(why) => notes.push(format!(
                "{short} ({:#04x}) is not executable by rng-core: {why}",
                opcode.value
            )),
        }
    }
    // The mappings the arms use (every one whose enum the tree has).
    let mut maps = Vec::new();
    if !arms.is_empty() {
        for (c_name, rng_ty) in [
            (POST_PROC, "PostProcess"),
            (IMM_SRC, "ImmSource"),
            (THRESHOLD_TYPE, "ThresholdType"),
            (DTYPE, "Dtype"),
        ] {
            if let Some(e) = model.enum_named(c_name) {
                maps.push(to_mapping(model, e, rng_ty));
            }
        }
    }
    (arms, quote!(#(#maps)*), notes)
}

/// The `rng_core::Generation` impl and notes on what of the draw family it leaves out,
/// or the reason it cannot be emitted.
fn generation_impl(model: &Model) -> Result<(TokenStream, Vec<String>), String> {
    let marker = ident(&crate::model::names::camel(&model.generation));
    let (set, get) = checkpoint_tables(model)
        .ok_or("the tree has no RAND_SET_STATE and RAND_GET_STATE legality tables")?;
    let set_arms =
        arms(model, set).ok_or("a RAND_SET_STATE arm names a member rng-core does not model")?;
    let get_arms =
        arms(model, get).ok_or("a RAND_GET_STATE arm names a member rng-core does not model")?;
    let c = |name: &str| -> Result<TokenStream, String> {
        let k = model
            .constant(name)
            .ok_or(format!("missing constant NEURON_ISA_TPB_{name}"))?;
        let id = ident(&k.short);
        Ok(quote!(crate::consts::#id))
    };
    let (parts, mask, sbuf_off, sbuf_part, psum_off, psum_part, max_ch) = (
        c("NUM_PARTITIONS")?,
        c("TPB_PARTITION_ADDR_MASK")?,
        c("STATE_BUF_OFFSET")?,
        c("STATE_BUF_PARTITION_SIZE")?,
        c("PSUM_BUF_OFFSET")?,
        c("PSUM_BUF_PARTITION_SIZE")?,
        c("POOLING_NUM_CHANNELS")?,
    );
    let dtype = model
        .enum_named("NEURON_ISA_TPB_DTYPE")
        .ok_or("missing NEURON_ISA_TPB_DTYPE")?;
    let uint32 = model.enums[dtype]
        .distinct()
        .find(|m| m.short == "UINT32")
        .ok_or("DTYPE has no UINT32")?;
    let (dt, u32v) = (ident(&model.enums[dtype].rust), ident(&uint32.rust));
    let engine_enum = model
        .engine_enum
        .ok_or("missing NEURON_ISA_TPB_NEURON_ENGINE")?;
    let algo_enum = model
        .enum_named("NEURON_ISA_TPB_RAND_ALGORITHM")
        .ok_or("missing RAND_ALGORITHM")?;
    let src_enum = model
        .enum_named("NEURON_ISA_TPB_RAND_SRC")
        .ok_or("missing RAND_SRC")?;
    let upd_enum = model
        .enum_named("NEURON_ISA_TPB_RAND_STATE_UPDATE")
        .ok_or("missing RAND_STATE_UPDATE")?;

    // Firmware-wired bodies.
    let mut wired = Vec::new();
    if let Some(rt) = &model.runtime {
        for w in &rt.wired {
            let kind = match model.opcodes[w.opcode].short.as_str() {
                "RAND_SET_STATE" => quote!(rng_core::CheckpointKind::Restore),
                "RAND_GET_STATE" => quote!(rng_core::CheckpointKind::Save),
                _ => continue,
            };
            let e = &model.enums[engine_enum].members[w.engine].short;
            let a = &model.enums[algo_enum].members[w.algorithm].short;
            let (Some(e), Some(a)) = (rng_variant("Engine", e), rng_variant("Algorithm", a)) else {
                continue;
            };
            let (e, a) = (ident(&e), ident(&a));
            let level = ident(&format!("{:?}", w.evidence));
            wired.push(quote! { rng_core::WiredBody { kind: #kind, engine: rng_core::Engine::#e, algorithm: rng_core::Algorithm::#a, evidence: isa_core::Evidence::#level } });
        }
    }
    let model_choices = model_choices(model)?;

    // Field accesses of the checkpoint instructions.
    let field = |t: &Table, rng_ty: &str| -> Result<TokenStream, String> {
        let col = column(model, t, rng_ty).ok_or(format!("no {rng_ty} column"))?;
        field_access(model, t, col).ok_or(format!("the {rng_ty} column is not a field"))
    };
    let (set_gen, set_alg, set_upd) = (
        field(set, "Generator")?,
        field(set, "Algorithm")?,
        field(set, "StateUpdate")?,
    );
    let (get_gen, get_alg) = (field(get, "Generator")?, field(get, "Algorithm")?);
    let set_dtype = dtype_column(model, set)
        .and_then(|k| field_access(model, set, k))
        .ok_or("RAND_SET_STATE has no dtype column")?;
    let get_dtype = dtype_column(model, get)
        .and_then(|k| field_access(model, get, k))
        .ok_or("RAND_GET_STATE has no dtype column")?;
    let (set_tensor, set_rank, set_addr) =
        tensor_path(model, set).ok_or("RAND_SET_STATE has no state tensor")?;
    let (get_tensor, get_rank, get_addr) =
        tensor_path(model, get).ok_or("RAND_GET_STATE has no state tensor")?;
    let set_rec = &model.records[model.shapes[set.shape].record];
    let imm = set_rec
        .fields
        .iter()
        .find(|f| {
            f.name == "imm_state"
                && f.ty == Ty::Array(Box::new(Ty::Prim(crate::model::Prim::U32)), 8)
        })
        .ok_or("RAND_SET_STATE has no imm_state[8] field")?;
    let _ = imm;
    let names = &model.instruction_names;
    let set_inst = ident(
        names[set.opcode]
            .as_ref()
            .ok_or("RAND_SET_STATE has no typed instruction")?,
    );
    let get_inst = ident(
        names[get.opcode]
            .as_ref()
            .ok_or("RAND_GET_STATE has no typed instruction")?,
    );
    let set_op = lit(model.opcodes[set.opcode].value);
    let get_op = lit(model.opcodes[get.opcode].value);
    let set_shape = ident(&model.shapes[set.shape].rust);
    let get_shape = ident(&model.shapes[get.shape].rust);
    let header_pins = |t: &Table| -> Vec<TokenStream> {
        // Header fields every arm pins to the same value (the instruction length).
        let hdr = &model.opcode_field.path[0];
        let Some(first) = t.arms.first() else {
            return Vec::new();
        };
        first
            .pinned
            .iter()
            .filter(|(p, v)| {
                let name = p.name(model, model.shapes[t.shape].record);
                name.starts_with(&format!("{hdr}."))
                    && *v != 0
                    && t.arms.iter().all(|a| a.pinned.contains(&(p.clone(), *v)))
            })
            .filter_map(|(p, v)| {
                let name = p.name(model, model.shapes[t.shape].record);
                let field = ident(name.rsplit('.').next()?);
                let h = ident(hdr);
                let v = lit(*v);
                Some(quote!(f.#h.#field = #v;))
            })
            .collect()
    };
    let set_header = header_pins(set);
    let get_header = header_pins(get);
    let mappings = [
        mappings(model, engine_enum, "Engine"),
        mappings(model, src_enum, "Generator"),
        mappings(model, algo_enum, "Algorithm"),
        mappings(model, upd_enum, "StateUpdate"),
    ];
    let set_pad: Vec<TokenStream> = (set_rank..4).map(|_| quote!(1)).collect();
    let get_pad: Vec<TokenStream> = (get_rank..4).map(|_| quote!(1)).collect();
    let set_rank_l = lit(set_rank as u64);
    let get_rank_l = lit(get_rank as u64);
    let set_idx: Vec<TokenStream> = (0..set_rank).map(|k| lit(k as u64)).collect();
    let get_idx: Vec<TokenStream> = (0..get_rank).map(|k| lit(k as u64)).collect();
    let (draw_arms, draw_maps, notes) = draw_family(model);
    let vendor_engine = if draw_arms.is_empty() {
        quote!(from_engine(engine)?;)
    } else {
        quote!(let vendor_engine = from_engine(engine)?;)
    };
    // The checkpoint instructions it encodes and decodes are compiled with their shapes; each
    // draw instruction's arm with its own.
    let cfg = super::cfg_all_shapes(model, &[set.shape, get.shape]);
    let tokens = quote! {
        #cfg
        impl rng_core::Generation for #marker {
            const INFO: isa_core::GenerationInfo = GENERATION;
            const SET_STATE_ARMS: &'static [rng_core::CheckpointArm] = &[#(#set_arms),*];
            const GET_STATE_ARMS: &'static [rng_core::CheckpointArm] = &[#(#get_arms),*];
            const FIRMWARE_WIRED: &'static [rng_core::WiredBody] = &[#(#wired),*];
            const MODEL: rng_core::ModelChoices = #model_choices;
            const MEMORY: rng_core::MemoryGeometry = rng_core::MemoryGeometry {
                partitions: #parts,
                address_mask: #mask,
                sbuf_offset: #sbuf_off,
                sbuf_partition_bytes: #sbuf_part,
                psum_offset: #psum_off,
                psum_partition_bytes: #psum_part,
            };
            const UINT32_DTYPE: u8 = crate::#dt::#u32v as u8;
            const MAX_CHANNELS: u8 = #max_ch as u8;

            fn decode_checkpoint(word: &[u8; 64], engine: rng_core::Engine) -> Result<rng_core::CheckpointInstruction, rng_core::InstructionError> {
                let vendor_engine = from_engine(engine)?;
                match word[0] {
                    #set_op => {
                        let inst = crate::#set_inst::from_bytes(word).map_err(rng_core::InstructionError::Decode)?;
                        inst.validate(vendor_engine).map_err(rng_core::InstructionError::Invalid)?;
                        let update = to_state_update(#set_upd)?;
                        let t = &#set_tensor;
                        let tensor = rng_core::TensorPattern {
                            start_addr: isa_core::le::get_u32(&t.start_addr.bytes, 0),
                            step_elem: [#(t.step_elem[#set_idx]),* #(, #set_pad)*],
                            num_elem: [#(t.num_elem[#set_idx]),* #(, #set_pad)*],
                            rank: #set_rank_l,
                        };
                        Ok(rng_core::CheckpointInstruction {
                            kind: rng_core::CheckpointKind::Restore,
                            engine,
                            generator: to_generator(#set_gen)?,
                            algorithm: to_algorithm(#set_alg)?,
                            update: Some(update),
                            dtype: #set_dtype.value(),
                            channels: inst.num_active_channels,
                            location: if update == rng_core::StateUpdate::SrcTensor {
                                rng_core::StateLocation::Tensor(tensor)
                            } else {
                                rng_core::StateLocation::Immediate { tensor, words: inst.imm_state }
                            },
                        })
                    }
                    #get_op => {
                        let inst = crate::#get_inst::from_bytes(word).map_err(rng_core::InstructionError::Decode)?;
                        inst.validate(vendor_engine).map_err(rng_core::InstructionError::Invalid)?;
                        let t = &#get_tensor;
                        Ok(rng_core::CheckpointInstruction {
                            kind: rng_core::CheckpointKind::Save,
                            engine,
                            generator: to_generator(#get_gen)?,
                            algorithm: to_algorithm(#get_alg)?,
                            update: None,
                            dtype: #get_dtype.value(),
                            channels: inst.num_active_channels,
                            location: rng_core::StateLocation::Tensor(rng_core::TensorPattern {
                                start_addr: isa_core::le::get_u32(&t.start_addr.bytes, 0),
                                step_elem: [#(t.step_elem[#get_idx]),* #(, #get_pad)*],
                                num_elem: [#(t.num_elem[#get_idx]),* #(, #get_pad)*],
                                rank: #get_rank_l,
                            }),
                        })
                    }
                    other => Err(rng_core::InstructionError::NotCheckpoint { opcode: other }),
                }
            }

            fn encode_checkpoint(c: &rng_core::CheckpointInstruction) -> Result<[u8; 64], rng_core::InstructionError> {
                let _ = from_engine(c.engine)?;
                let dtype = crate::#dt::from_value(c.dtype).ok_or(rng_core::InstructionError::Unmodelled { what: "dtype code is not a DTYPE member" })?;
                let (pattern, words) = match c.location {
                    rng_core::StateLocation::Tensor(p) => (p, [0u32; 8]),
                    rng_core::StateLocation::Immediate { tensor, words } => (tensor, words),
                };
                match c.kind {
                    rng_core::CheckpointKind::Restore => {
                        if pattern.rank as usize != #set_rank_l {
                            return Err(rng_core::InstructionError::Unmodelled { what: "RAND_SET_STATE takes a rank-1 state tensor" });
                        }
                        let mut f = crate::inst::#set_shape::ZEROED;
                        #(#set_header)*
                        let inst = &mut f;
                        #set_gen = from_generator(c.generator)?;
                        #set_alg = from_algorithm(c.algorithm)?;
                        #set_upd = from_state_update(c.update.unwrap_or(rng_core::StateUpdate::SrcTensor))?;
                        #set_dtype = dtype;
                        inst.num_active_channels = c.channels;
                        inst.imm_state = words;
                        let t = &mut #set_tensor;
                        t.start_addr = crate::#set_addr::from_bytes(pattern.start_addr.to_le_bytes());
                        #(t.step_elem[#set_idx] = pattern.step_elem[#set_idx];)*
                        #(t.num_elem[#set_idx] = pattern.num_elem[#set_idx];)*
                        Ok(crate::#set_inst(f).to_bytes())
                    }
                    rng_core::CheckpointKind::Save => {
                        if pattern.rank as usize != #get_rank_l {
                            return Err(rng_core::InstructionError::Unmodelled { what: "RAND_GET_STATE takes a rank-4 state tensor" });
                        }
                        let mut f = crate::inst::#get_shape::ZEROED;
                        #(#get_header)*
                        let inst = &mut f;
                        #get_gen = from_generator(c.generator)?;
                        #get_alg = from_algorithm(c.algorithm)?;
                        #get_dtype = dtype;
                        inst.num_active_channels = c.channels;
                        let t = &mut #get_tensor;
                        t.start_addr = crate::#get_addr::from_bytes(pattern.start_addr.to_le_bytes());
                        #(t.step_elem[#get_idx] = pattern.step_elem[#get_idx];)*
                        #(t.num_elem[#get_idx] = pattern.num_elem[#get_idx];)*
                        Ok(crate::#get_inst(f).to_bytes())
                    }
                }
            }

            fn decode_instruction(word: &[u8; 64], engine: rng_core::Engine) -> Result<rng_core::RngInstruction, rng_core::InstructionError> {
                #vendor_engine
                match word[0] {
                    #set_op | #get_op => Self::decode_checkpoint(word, engine).map(rng_core::RngInstruction::Checkpoint),
                    #(#draw_arms)*
                    other => Err(rng_core::InstructionError::NotRng { opcode: other }),
                }
            }
        }
        #(#mappings)*
        #draw_maps
    };
    Ok((tokens, notes))
}

/// The `generation.rs` file, and notes on what could not be emitted (the missing
/// `Generation` impl, or instructions of the draw family rng-core cannot be handed).
pub fn emit(model: &Model) -> (Source, Vec<String>) {
    let id = identity(model);
    let isa = isa_impl(model);
    let (gen, notes) = match generation_impl(model) {
        Ok(t) => t,
        Err(why) => (
            quote!(),
            vec![format!("no rng_core::Generation impl: {why}")],
        ),
    };
    (
        unprinted(
            &banner(model, "the generation's identity and trait impls."),
            quote!(#id #isa #gen),
        ),
        notes,
    )
}
