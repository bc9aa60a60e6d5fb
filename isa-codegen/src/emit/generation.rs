//! The `generation` module: the generation's marker type, its identity, and its
//! implementations of `isa_core::Isa` (tools) and `rng_core::Generation` (the RNG
//! models): legality tables, memory geometry and the checkpoint codec from the
//! headers; the firmware-wired set and model choices from `rng-runtime.json`.

use super::legality::tensor_path;
use super::{banner, ident, lit, unprinted, Source};
use crate::ctype::{Prim, RecordKind};
use crate::model::legality::{Arm, ColumnSource, Table};
use crate::model::names::rust_field;
use crate::model::IdVec;
use crate::model::OpcodeId;
use crate::model::{EnumId, Model, Ty};
use isa_core::vocab::{
    Algorithm, CheckpointKind, Dtype, Engine, Generator, ImmSource, PostProcess, StateUpdate,
    ThresholdType, VendorNames, Vocabulary, ZeroGuard,
};
use proc_macro2::TokenStream;
use quote::quote;

/// The variant of the vocabulary enum `V` a vendor member name maps to, if rng-core models it.
fn variant<V: Vocabulary>(member: &str) -> Option<proc_macro2::Ident> {
    V::from_name(member).map(|v| ident(v.rust_name()))
}

/// The tree's enum whose members `V` names.
fn enum_of<V: VendorNames>(model: &Model) -> Option<EnumId> {
    model.enum_named(V::VENDOR_ENUM)
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
        impl isa_core::GenerationMarker for #marker {
            const INFO: isa_core::GenerationInfo = GENERATION;
        }
        impl isa_core::Isa for #marker {
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
pub(crate) fn checkpoint_tables(model: &Model) -> Option<(&Table, &Table)> {
    let find = |name: &str| {
        model
            .tables
            .iter()
            .find(|t| model.opcodes[t.opcode].short == name)
    };
    Some((find("RAND_SET_STATE")?, find("RAND_GET_STATE")?))
}

/// The column of a table holding the vendor enum of `V`.
fn column<V: VendorNames>(model: &Model, t: &Table) -> Option<usize> {
    t.columns
        .iter()
        .position(|c| model.enums[c.enum_id].c_name == V::VENDOR_ENUM)
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

/// `rng_core::<V>::<variant>` of an arm's member in column `col`, if rng-core models it.
fn arm_value<V: Vocabulary>(
    model: &Model,
    t: &Table,
    arm: &Arm,
    col: usize,
) -> Option<TokenStream> {
    let m = &model.enums[t.columns[col].enum_id].members[arm.values[col]];
    let (ty, var) = (ident(V::TYPE_NAME), variant::<V>(&m.short)?);
    Some(quote!(rng_core::#ty::#var))
}

/// The field access of the table column holding the vendor enum of `V`.
fn column_field<V: VendorNames>(model: &Model, t: &Table) -> Result<TokenStream, String> {
    let rng_ty = V::TYPE_NAME;
    let col = column::<V>(model, t).ok_or(format!("no {rng_ty} column"))?;
    field_access(model, t, col).ok_or(format!("the {rng_ty} column is not a field"))
}

fn arms(model: &Model, t: &Table) -> Option<Vec<TokenStream>> {
    let (e, g, a) = (
        column::<Engine>(model, t)?,
        column::<Generator>(model, t)?,
        column::<Algorithm>(model, t)?,
    );
    let u = column::<StateUpdate>(model, t);
    let mut out = Vec::new();
    for arm in &t.arms {
        let (ev, gv, av) = (
            arm_value::<Engine>(model, t, arm, e)?,
            arm_value::<Generator>(model, t, arm, g)?,
            arm_value::<Algorithm>(model, t, arm, a)?,
        );
        let uv = match u {
            Some(u) => {
                let x = arm_value::<StateUpdate>(model, t, arm, u)?;
                quote!(Some(#x))
            }
            None => quote!(None),
        };
        let words = lit(arm.words);
        let evidence = match arm.evidence {
            Some(e) => {
                let level = ident(e.rust_name());
                quote!(Some(isa_core::Evidence::#level))
            }
            None => quote!(None),
        };
        out.push(quote! { rng_core::CheckpointArm { engine: #ev, generator: #gv, algorithm: #av, update: #uv, words: #words, evidence: #evidence } });
    }
    Some(out)
}

/// `fn <name>(v: Vendor) -> Result<rng_core::X, InstructionError>` and its inverse.
fn mappings<V: Vocabulary>(model: &Model, enum_id: EnumId) -> TokenStream {
    let to = to_mapping::<V>(model, enum_id);
    let from = from_mapping::<V>(model, enum_id);
    quote!(#to #from)
}

/// `fn to_<name>(v: Vendor) -> Result<rng_core::X, InstructionError>`.
fn to_mapping<V: Vocabulary>(model: &Model, enum_id: EnumId) -> TokenStream {
    let e = &model.enums[enum_id];
    let vt = ident(&e.rust);
    let rng_ty = V::TYPE_NAME;
    let rt = ident(rng_ty);
    let to = ident(&format!("to_{}", crate::model::names::snake(rng_ty)));
    let to_arms = e.distinct().map(|m| {
        let v = ident(&m.rust);
        match variant::<V>(&m.short) {
            Some(r) => {
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
fn from_mapping<V: Vocabulary>(model: &Model, enum_id: EnumId) -> TokenStream {
    let e = &model.enums[enum_id];
    let vt = ident(&e.rust);
    let rng_ty = V::TYPE_NAME;
    let rt = ident(rng_ty);
    let from = ident(&format!("from_{}", crate::model::names::snake(rng_ty)));
    let from_arms = V::MEMBERS.iter().map(|member| {
        let (vendor, r) = (member.name(), ident(member.rust_name()));
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

/// `const MODEL`'s value: rng-core's reconstruction with the runtime file's overrides.
fn model_choices(model: &Model) -> TokenStream {
    let reconstructed = quote!(rng_core::ModelChoices::RECONSTRUCTED);
    let Some(rt) = &model.runtime else {
        return reconstructed;
    };
    let o = &rt.overrides;
    let mut fields = Vec::new();
    if let Some(seed) = &o.xorwow_default_seed {
        let w = seed
            .iter()
            .map(|v| proc_macro2::Literal::u32_unsuffixed(*v));
        fields.push(quote!(xorwow_default_seed: [#(#w),*],));
    }
    if let Some(guard) = o.zero_guard {
        let v = match guard {
            ZeroGuard::Disabled => quote!(rng_core::model::ZeroGuard::Disabled),
            ZeroGuard::ForceWordToOne(n) => quote!(rng_core::model::ZeroGuard::ForceWordToOne(#n)),
        };
        fields.push(quote!(zero_guard: #v,));
    }
    fields.extend(
        o.dve_xorwow_layout
            .map(|v| model_field("dve_xorwow_layout", v)),
    );
    fields.extend(o.lane_interleave.map(|v| model_field("lane_interleave", v)));
    fields.extend(o.philox_offset.map(|v| model_field("philox_offset", v)));
    if let Some(taps) = &o.lfsr_taps {
        let t = taps.iter().map(|v| proc_macro2::Literal::u8_unsuffixed(*v));
        fields.push(quote!(lfsr_taps: [#(#t),*],));
    }
    if let Some(v) = o.pcg32_low_word {
        fields.push(quote!(pcg32_low_word: #v,));
    }
    if let Some(v) = o.pcg32_increment {
        let v = proc_macro2::Literal::u64_unsuffixed(v);
        fields.push(quote!(pcg32_increment: #v,));
    }
    if fields.is_empty() {
        reconstructed
    } else {
        quote!(rng_core::ModelChoices { #(#fields)* ..#reconstructed })
    }
}

/// `<field>: rng_core::model::<V>::<variant>,` of a model choice.
fn model_field<V: Vocabulary>(field: &str, value: V) -> TokenStream {
    let (f, t, v) = (ident(field), ident(V::TYPE_NAME), ident(value.rust_name()));
    quote!(#f: rng_core::model::#t::#v,)
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

    /// `inst.<name>`, a field of the vendor enum of `V`.
    fn enum_field<V: VendorNames>(&self, name: &str) -> Result<TokenStream, String> {
        match self.field(name)?.ty {
            Ty::Enum(e) if self.model.enums[e].c_name == V::VENDOR_ENUM => Ok(self.access(name)),
            _ => Err(format!(
                "{}: field `{name}` is not a {}",
                self.op,
                V::VENDOR_ENUM
            )),
        }
    }

    /// `inst.<name>`, a `uint8_t`.
    fn u8_field(&self, name: &str) -> Result<TokenStream, String> {
        match self.field(name)?.ty {
            Ty::Prim(Prim::U8) => Ok(self.access(name)),
            _ => Err(format!("{}: field `{name}` is not a uint8_t", self.op)),
        }
    }

    fn is_word_union(&self, ty: &Ty) -> bool {
        matches!(ty, Ty::Record(r)
            if self.model.records[*r].kind == RecordKind::Union
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
        let src = self.enum_field::<ImmSource>(src)?;
        let bits = self.word(value)?;
        Ok(quote!(rng_core::Scalar { source: to_imm_source(#src)?, bits: #bits }))
    }
}

/// The decoded form of a RAND (`inst` is its typed instruction).
fn rand_form(f: &Fields) -> Result<TokenStream, String> {
    let (gen, alg) = (
        f.enum_field::<Generator>("rand_generator")?,
        f.enum_field::<Algorithm>("rand_algorithm")?,
    );
    let steps = f.u8_field("rand_num_steps")?;
    let post = f.enum_field::<PostProcess>("post_process")?;
    let params = f.words4("params")?;
    let dtype = f.enum_field::<Dtype>("dtype")?;
    let channels = f.u8_field("num_active_channels")?;
    let dst = f.tensor("dst_mem_pattern")?;
    Ok(
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
        })),
    )
}

/// The decoded form of a RAND2.
fn rand2_form(f: &Fields) -> Result<TokenStream, String> {
    let alg = f.enum_field::<Algorithm>("rand_algorithm")?;
    let post = f.enum_field::<PostProcess>("post_process")?;
    let dtype = f.enum_field::<Dtype>("dtype")?;
    let channels = f.u8_field("num_active_channels")?;
    let (min, max) = (f.scalar("min_src", "min")?, f.scalar("max_src", "max")?);
    let dst = f.tensor("dst_mem_pattern")?;
    Ok(
        quote!(rng_core::RngInstruction::Rand2(rng_core::Rand2Instruction {
            engine,
            algorithm: to_algorithm(#alg)?,
            post_process: to_post_process(#post)?,
            dtype: to_dtype(#dtype)?,
            channels: #channels,
            min: #min,
            max: #max,
            dst: #dst,
        })),
    )
}

/// The decoded form of a DROPOUT.
fn dropout_form(f: &Fields) -> Result<TokenStream, String> {
    let model = f.model;
    let src = f.tensor("src_mem_pattern")?;
    let (in_dtype, out_dtype) = (
        f.enum_field::<Dtype>("in_dtype")?,
        f.enum_field::<Dtype>("out_dtype")?,
    );
    let channels = f.u8_field("num_active_channels")?;
    let threshold = f.scalar("threshold_src", "threshold")?;
    let t_dtype = f.enum_field::<Dtype>("threshold_dtype")?;
    let t_type = f.enum_field::<ThresholdType>("threshold_type")?;
    let dst = f.tensor("dst_mem_pattern")?;
    // threshold_dtype INVALID (0) stands for FP32 (the header's threshold_dtype_fp32).
    let dt = enum_of::<Dtype>(model).ok_or(format!("{}: no {}", f.op, Dtype::VENDOR_ENUM))?;
    let t_dtype = match model.enums[dt].distinct().find(|m| m.short == "INVALID") {
        Some(m) => {
            let (ty, v) = (ident(&model.enums[dt].rust), ident(&m.rust));
            quote!(match #t_dtype { crate::#ty::#v => None, d => Some(to_dtype(d)?) })
        }
        None => quote!(Some(to_dtype(#t_dtype)?)),
    };
    Ok(
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
        })),
    )
}

/// The decoded form of a PSEUDO_SET_RNG_SEED.
fn seed_form(f: &Fields) -> Result<TokenStream, String> {
    let seed = f.scalar("seed_src", "seed")?;
    Ok(
        quote!(rng_core::RngInstruction::SetSeed(rng_core::SeedInstruction {
            engine,
            seed: #seed,
        })),
    )
}

/// The decoded form of a draw instruction, built from the fields of `inst`.
type DrawForm = fn(&Fields) -> Result<TokenStream, String>;

/// The instructions `decode_instruction` hands to rng-core besides the checkpoint pair.
const DRAW_FAMILY: [(&str, DrawForm); 4] = [
    ("RAND", rand_form),
    ("RAND2", rand2_form),
    (crate::vendor::DROPOUT, dropout_form),
    ("PSEUDO_SET_RNG_SEED", seed_form),
];

/// `decode_instruction`'s arm for the draw instruction `op` (named `short`; its typed
/// instruction's name is `names[op]`).
fn draw_arm(
    model: &Model,
    names: &IdVec<OpcodeId, Option<String>>,
    op: OpcodeId,
    short: &str,
    form: DrawForm,
) -> Result<TokenStream, String> {
    let opcode = &model.opcodes[op];
    let shape = opcode
        .shape
        .ok_or(format!("{short}: no operand struct in the mapping"))?;
    let typed = names[op]
        .as_deref()
        .map(ident)
        .ok_or(format!("{short}: no typed instruction"))?;
    let fields = Fields {
        model,
        record: model.shapes[shape].record,
        op: short,
    };
    let form = form(&fields)?;
    let value = lit(opcode.value);
    let cfg = super::cfg_for_shape(model, shape);
    Ok(quote! {
        #cfg
        #value => {
            let inst = crate::#typed::from_bytes(word).map_err(rng_core::InstructionError::Decode)?;
            inst.validate(vendor_engine).map_err(rng_core::InstructionError::Invalid)?;
            Ok(#form)
        }
    })
}

/// `decode_instruction`'s arms for the draw family present in the tree, the `to_*` mappings
/// they use, and a note for each present instruction whose conventions do not hold.
fn draw_family(
    model: &Model,
    names: &IdVec<OpcodeId, Option<String>>,
) -> (Vec<TokenStream>, TokenStream, Vec<String>) {
    let mut arms = Vec::new();
    let mut notes = Vec::new();
    for (short, form) in DRAW_FAMILY {
        let Some(op) = model.opcode_named(short) else {
            continue; // not in this generation
        };
        match draw_arm(model, names, op, short, form) {
            Ok(a) => arms.push(a),
            Err(why) => notes.push(format!(
                "{short} ({:#04x}) is not executable by rng-core: {why}",
                model.opcodes[op].value
            )),
        }
    }
    // The mappings the arms use (every one whose enum the tree has).
    let mut maps = Vec::new();
    if !arms.is_empty() {
        maps.extend(enum_of::<PostProcess>(model).map(|e| to_mapping::<PostProcess>(model, e)));
        maps.extend(enum_of::<ImmSource>(model).map(|e| to_mapping::<ImmSource>(model, e)));
        maps.extend(enum_of::<ThresholdType>(model).map(|e| to_mapping::<ThresholdType>(model, e)));
        maps.extend(enum_of::<Dtype>(model).map(|e| to_mapping::<Dtype>(model, e)));
    }
    (arms, quote!(#(#maps)*), notes)
}

/// One instruction of the checkpoint pair as its codec reads and writes it: field accesses on
/// `inst`, the state tensor, the typed instruction and the header fields every arm pins.
struct Codec {
    /// Save (RAND_GET_STATE) or restore (RAND_SET_STATE).
    kind: CheckpointKind,
    /// `rand_generator`, `rand_algorithm` and the state tensor's dtype, as places on `inst`.
    generator: TokenStream,
    algorithm: TokenStream,
    dtype: TokenStream,
    /// `update_state`, a place on `inst` (restore only).
    update: Option<TokenStream>,
    /// The state tensor as a place on `inst`, and the Rust type of its start address.
    tensor: TokenStream,
    address: proc_macro2::Ident,
    /// The tensor's rank, its dimension indices and the 1s that pad it to four dimensions.
    rank: usize,
    dims: Vec<TokenStream>,
    pad: Vec<TokenStream>,
    /// The typed instruction, its opcode byte and its operand struct.
    instruction: proc_macro2::Ident,
    opcode: TokenStream,
    shape: proc_macro2::Ident,
    /// `f.<header>.<field> = <value>;` for each header field every arm pins (the length).
    header: Vec<TokenStream>,
}

/// The codec of the checkpoint instruction `kind` (legality table `t`); `names` are the typed
/// instructions' names by opcode.
fn codec(
    model: &Model,
    names: &IdVec<OpcodeId, Option<String>>,
    t: &Table,
    kind: CheckpointKind,
) -> Result<Codec, String> {
    let name = kind.name();
    let generator = column_field::<Generator>(model, t)?;
    let algorithm = column_field::<Algorithm>(model, t)?;
    let update = match kind {
        CheckpointKind::Restore => Some(column_field::<StateUpdate>(model, t)?),
        CheckpointKind::Save => None,
    };
    let dtype = column::<Dtype>(model, t)
        .and_then(|k| field_access(model, t, k))
        .ok_or(format!("{name} has no dtype column"))?;
    let (tensor, rank, address) =
        tensor_path(model, t).ok_or(format!("{name} has no state tensor"))?;
    let instruction = names[t.opcode]
        .as_deref()
        .map(ident)
        .ok_or(format!("{name} has no typed instruction"))?;
    Ok(Codec {
        kind,
        generator,
        algorithm,
        dtype,
        update,
        tensor,
        address,
        rank,
        dims: (0..rank).map(|k| lit(k as u64)).collect(),
        pad: (rank..4).map(|_| quote!(1)).collect(),
        instruction,
        opcode: lit(model.opcodes[t.opcode].value),
        shape: ident(&model.shapes[t.shape].rust),
        header: header_pins(model, t),
    })
}

/// Header fields every arm of `t` pins to the same nonzero value (the instruction length), as
/// assignments to `f`.
fn header_pins(model: &Model, t: &Table) -> Vec<TokenStream> {
    let hdr = &model.opcode_field.path[0];
    let Some(first) = t.arms.first() else {
        return Vec::new();
    };
    let record = model.shapes[t.shape].record;
    first
        .pinned
        .iter()
        .filter(|(p, v)| {
            p.name(model, record).starts_with(&format!("{hdr}."))
                && *v != 0
                && t.arms.iter().all(|a| a.pinned.contains(&(p.clone(), *v)))
        })
        .filter_map(|(p, v)| {
            let name = p.name(model, record);
            let field = ident(name.rsplit('.').next()?);
            let h = ident(hdr);
            let v = lit(*v);
            Some(quote!(f.#h.#field = #v;))
        })
        .collect()
}

/// The `MemoryGeometry` value and `POOLING_NUM_CHANNELS`, from the tree's constants.
fn memory_geometry(model: &Model) -> Result<(TokenStream, TokenStream), String> {
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
    let memory = quote! {
        rng_core::MemoryGeometry {
            partitions: #parts,
            address_mask: #mask,
            sbuf_offset: #sbuf_off,
            sbuf_partition_bytes: #sbuf_part,
            psum_offset: #psum_off,
            psum_partition_bytes: #psum_part,
        }
    };
    Ok((memory, max_ch))
}

/// `const FIRMWARE_WIRED`'s entries (the runtime file's wired bodies) or, with `wired` false,
/// `FIRMWARE_NOT_WIRED`'s.
fn firmware_entries(model: &Model, wired: bool) -> Vec<TokenStream> {
    let Some(rt) = &model.runtime else {
        return Vec::new();
    };
    if wired { &rt.wired } else { &rt.not_wired }
        .iter()
        .map(|w| {
            let kind = ident(w.kind.rust_name());
            let (e, a) = (ident(w.rng_engine.rust_name()), ident(w.rng_algorithm.rust_name()));
            let level = ident(w.evidence.rust_name());
            quote! { rng_core::WiredBody { kind: rng_core::CheckpointKind::#kind, engine: rng_core::Engine::#e, algorithm: rng_core::Algorithm::#a, evidence: isa_core::Evidence::#level } }
        })
        .collect()
}

/// `decode_checkpoint`'s arm for one instruction of the pair. A restore takes the state from
/// the tensor or, by its `update_state`, from the instruction's `imm_state`.
fn decode_arm(c: &Codec) -> TokenStream {
    let Codec {
        generator,
        algorithm,
        dtype,
        tensor,
        dims,
        pad,
        instruction,
        opcode,
        ..
    } = c;
    let kind = ident(c.kind.rust_name());
    let rank = lit(c.rank as u64);
    let pattern = quote! {
        rng_core::TensorPattern {
            start_addr: isa_core::le::get_u32(&t.start_addr.bytes, 0),
            step_elem: [#(t.step_elem[#dims]),* #(, #pad)*],
            num_elem: [#(t.num_elem[#dims]),* #(, #pad)*],
            rank: #rank,
        }
    };
    let (read_update, bind_tensor, update, location) = match &c.update {
        Some(u) => (
            quote!(let update = to_state_update(#u)?;),
            quote!(let tensor = #pattern;),
            quote!(Some(update)),
            quote! {
                if update == rng_core::StateUpdate::SrcTensor {
                    rng_core::StateLocation::Tensor(tensor)
                } else {
                    rng_core::StateLocation::Immediate { tensor, words: inst.imm_state }
                }
            },
        ),
        None => (
            quote!(),
            quote!(),
            quote!(None),
            quote!(rng_core::StateLocation::Tensor(#pattern)),
        ),
    };
    quote! {
        #opcode => {
            let inst = crate::#instruction::from_bytes(word).map_err(rng_core::InstructionError::Decode)?;
            inst.validate(vendor_engine).map_err(rng_core::InstructionError::Invalid)?;
            #read_update
            let t = &#tensor;
            #bind_tensor
            Ok(rng_core::CheckpointInstruction {
                kind: rng_core::CheckpointKind::#kind,
                engine,
                generator: to_generator(#generator)?,
                algorithm: to_algorithm(#algorithm)?,
                update: #update,
                dtype: #dtype.value(),
                channels: inst.num_active_channels,
                location: #location,
            })
        }
    }
}

/// `encode_checkpoint`'s arm for one instruction of the pair; a restore also writes
/// `update_state` and the immediate words.
fn encode_arm(c: &Codec) -> TokenStream {
    let Codec {
        generator,
        algorithm,
        dtype,
        tensor,
        address,
        dims,
        instruction,
        shape,
        header,
        ..
    } = c;
    let kind = ident(c.kind.rust_name());
    let rank = lit(c.rank as u64);
    let what = format!("{} takes a rank-{} state tensor", c.kind.name(), c.rank);
    let write_update = c.update.as_ref().map(
        |u| quote!(#u = from_state_update(c.update.unwrap_or(rng_core::StateUpdate::SrcTensor))?;),
    );
    let write_words = c.update.as_ref().map(|_| quote!(inst.imm_state = words;));
    quote! {
        rng_core::CheckpointKind::#kind => {
            if pattern.rank as usize != #rank {
                return Err(rng_core::InstructionError::Unmodelled { what: #what });
            }
            let mut f = crate::inst::#shape::ZEROED;
            #(#header)*
            let inst = &mut f;
            #generator = from_generator(c.generator)?;
            #algorithm = from_algorithm(c.algorithm)?;
            #write_update
            #dtype = dtype;
            inst.num_active_channels = c.channels;
            #write_words
            let t = &mut #tensor;
            t.start_addr = crate::#address::from_bytes(pattern.start_addr.to_le_bytes());
            #(t.step_elem[#dims] = pattern.step_elem[#dims];)*
            #(t.num_elem[#dims] = pattern.num_elem[#dims];)*
            Ok(crate::#instruction(f).to_bytes())
        }
    }
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
    let (memory, max_channels) = memory_geometry(model)?;
    let dtype = enum_of::<Dtype>(model).ok_or("missing NEURON_ISA_TPB_DTYPE")?;
    let uint32 = model.enums[dtype]
        .distinct()
        .find(|m| m.short == "UINT32")
        .ok_or("DTYPE has no UINT32")?;
    let (dt, u32v) = (ident(&model.enums[dtype].rust), ident(&uint32.rust));
    let engine_enum = model
        .engine_enum
        .ok_or("missing NEURON_ISA_TPB_NEURON_ENGINE")?;
    let algo_enum = enum_of::<Algorithm>(model).ok_or("missing RAND_ALGORITHM")?;
    let src_enum = enum_of::<Generator>(model).ok_or("missing RAND_SRC")?;
    let upd_enum = enum_of::<StateUpdate>(model).ok_or("missing RAND_STATE_UPDATE")?;
    let wired = firmware_entries(model, true);
    let not_wired = firmware_entries(model, false);
    let model_choices = model_choices(model);

    let names = &model.instruction_names;
    let (restore, save) = (
        codec(model, names, set, CheckpointKind::Restore)?,
        codec(model, names, get, CheckpointKind::Save)?,
    );
    let imm_state = Ty::Array(Box::new(Ty::Prim(Prim::U32)), 8);
    model.records[model.shapes[set.shape].record]
        .fields
        .iter()
        .find(|f| f.name == "imm_state" && f.ty == imm_state)
        .ok_or("RAND_SET_STATE has no imm_state[8] field")?;
    let mappings = [
        mappings::<Engine>(model, engine_enum),
        mappings::<Generator>(model, src_enum),
        mappings::<Algorithm>(model, algo_enum),
        mappings::<StateUpdate>(model, upd_enum),
    ];
    let (draw_arms, draw_maps, notes) = draw_family(model, names);
    let vendor_engine = if draw_arms.is_empty() {
        quote!(from_engine(engine)?;)
    } else {
        quote!(let vendor_engine = from_engine(engine)?;)
    };
    let (decode_restore, decode_save) = (decode_arm(&restore), decode_arm(&save));
    let (encode_restore, encode_save) = (encode_arm(&restore), encode_arm(&save));
    let (set_op, get_op) = (&restore.opcode, &save.opcode);
    // The checkpoint instructions it encodes and decodes are compiled with their shapes; each
    // draw instruction's arm with its own.
    let cfg = super::cfg_all_shapes(model, &[set.shape, get.shape]);
    let tokens = quote! {
        #cfg
        impl rng_core::Generation for #marker {
            const SET_STATE_ARMS: &'static [rng_core::CheckpointArm] = &[#(#set_arms),*];
            const GET_STATE_ARMS: &'static [rng_core::CheckpointArm] = &[#(#get_arms),*];
            const FIRMWARE_WIRED: &'static [rng_core::WiredBody] = &[#(#wired),*];
            const FIRMWARE_NOT_WIRED: &'static [rng_core::WiredBody] = &[#(#not_wired),*];
            const MODEL: rng_core::ModelChoices = #model_choices;
            const MEMORY: rng_core::MemoryGeometry = #memory;
            const UINT32_DTYPE: u8 = crate::#dt::#u32v as u8;
            const MAX_CHANNELS: u8 = #max_channels as u8;

            fn decode_checkpoint(word: &[u8; 64], engine: rng_core::Engine) -> Result<rng_core::CheckpointInstruction, rng_core::InstructionError> {
                let vendor_engine = from_engine(engine)?;
                match word[0] {
                    #decode_restore
                    #decode_save
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
                    #encode_restore
                    #encode_save
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

/// Whether the crate of `model` gets its `rng_core::Generation` impl.
pub(crate) fn has_generation_impl(model: &Model) -> bool {
    generation_impl(model).is_ok()
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
