use isa_codegen::model::{build, Status, Ty};
use isa_codegen::read::read_tree;
use std::path::Path;

#[test]
fn tiny_fixture_models_completely() {
    let tree = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/neuron_tiny_arch_isa");
    let input = read_tree(&tree).unwrap();
    let model = build(&input).unwrap();
    assert_eq!(model.generation, "TINY");
    assert_eq!(model.nc_version, 9);
    assert_eq!(model.opcodes.len(), 5);
    let fill_old = &model.opcodes[model.opcode_named("FILL_OLD").unwrap()];
    assert_eq!(fill_old.status, Status::Dormant("use Fill instead".into()));
    assert_eq!(fill_old.rust, "FillOld");
    assert!(model.opcodes[model.opcode_named("PSEUDO_X").unwrap()].pseudo);
    let shape = &model.shapes[0];
    assert_eq!(
        (
            shape.code.as_str(),
            shape.member.as_str(),
            shape.rust.as_str()
        ),
        ("S1_FILL", "s1_fill", "S1Fill")
    );
    let rec = &model.records[shape.record];
    let offsets: Vec<(&str, u64)> = rec
        .fields
        .iter()
        .map(|f| (f.name.as_str(), f.offset))
        .collect();
    assert_eq!(
        offsets,
        [
            ("header", 0),
            ("color", 4),
            ("pair", 5),
            ("count", 6),
            ("word", 8),
            ("scale", 12),
            ("steps", 16),
            ("lanes", 24),
            ("reserved", 25)
        ]
    );
    let pair = &model.records[model.record_named("NEURON_ISA_TPB_PAIR").unwrap()];
    let bits: Vec<(u32, u32)> = pair
        .fields
        .iter()
        .map(|f| f.bits.map(|b| (b.offset, b.width)).unwrap())
        .collect();
    assert_eq!(bits, [(0, 4), (4, 4)]);
    let color = &model.enums[model.enum_named("NEURON_ISA_TPB_COLOR").unwrap()];
    assert_eq!(color.members[2].alias_of, Some(1));
    let word = &model.records[model.record_named("NEURON_ISA_TPB_WORD").unwrap()];
    assert_eq!(word.fields[0].ty, Ty::Prim(isa_codegen::model::Prim::U32));
    assert_eq!(model.opcode_field.path, ["header", "opcode"]);
    assert_eq!(rec.loc.file, "tpb/aws_neuron_isa_tpb_s1_fill.h");
    assert_eq!(rec.loc.line, 11);
    assert_eq!(input.specs.len(), 3);
    assert!(model.untranslated.is_empty(), "{:?}", model.untranslated);
}
