"""tvm_ffi.stub.rust_generator's tables, directives and helpers (use items, identifiers, type
rendering, module paths, --check tokens)."""

import pytest
from tvm_ffi.core import TypeSchema
from tvm_ffi.stub.rust_generator import consts as RC
from tvm_ffi.stub.rust_generator.directives import Directives, EnumSpec
from tvm_ffi.stub.rust_generator.utils import (
    RustImports,
    RustUse,
    builtin_mirror_name,
    check_tokens,
    is_crate_type_key,
    render_rust_type,
    rust_ident,
    rust_module_path,
)


def test_consts():
    assert RC.RUST_TY_MAP_DEFAULTS["int"] == "i64" and RC.RUST_MOD_MAP == {"ffi": "tvm_ffi"}
    assert RC.RUST_SCALAR_BY_SIZE[("int", 4)] == "i32" and RC.RUST_SCALAR_WIDTHS["f32"] == 4
    assert "type" in RC.RUST_KEYWORDS and RC.RUST_NOT_RAW_IDENTIFIERS <= RC.RUST_KEYWORDS
    assert "import-object" in RC.RUST_DIRECTIVE_KINDS and RC.RUST_ROOT_TYPE_KEY == "ffi.Object"


def test_directives_parse_and_store():
    d = Directives()
    d.add("field", "tirx.Add.a -> PrimExpr", 1)
    d.add("nullable", "ir.Expr.span", 2)
    d.add("enum", "tirx.For.kind -> ForKind(i32) { Serial=0, Parallel=1 }", 3)
    d.add("enum", "a.B.c -> K(u8){X=1,Y=-2}", 4)
    d.add("opaque", "ir.SourceName", 5)
    d.add("upcast", "tirx.Add -> PrimExpr", 6)
    d.add("upcast", "tirx.Add -> BaseExpr", 7)
    d.add("custom-new", "tirx.Add", 8)
    assert d.field_types == {"tirx.Add.a": "PrimExpr"} and d.nullable == {"ir.Expr.span"}
    assert d.enums["tirx.For.kind"] == EnumSpec("ForKind", "i32", (("Serial", 0), ("Parallel", 1)))
    assert d.enums["a.B.c"].members == (("X", 1), ("Y", -2))
    assert d.opaque == {"ir.SourceName"} and d.custom_new == {"tirx.Add"}
    assert d.upcasts == {"tirx.Add": ["PrimExpr", "BaseExpr"]}


@pytest.mark.parametrize(
    ("name", "payload", "message"),
    [
        ("field", "tirx.Add.a", "Expected `<type_key>.<field> -> <RustType>`"),
        ("field", " -> X", "Expected `<type_key>.<field>`"),
        ("nullable", "ir", "Expected `<type_key>.<field>`"),
        ("enum", "a.B.c -> K { X=1 }", "Expected `<type_key>.<field> -> Name(i32) { A=0, B=1 }`"),
        ("enum", "a.B.c -> K(f32) { X=1 }", "Name(i32)"),
        ("enum", "a.B.c -> K(i32) { X=a }", "Name(i32)"),
        ("opaque", "a b", "Expected `<type_key>`"),
        ("upcast", "a.B", "Expected `<type_key> -> <RustType>`"),
        ("custom-new", "", "Expected `<type_key>`"),
    ],
)
def test_malformed_directives_are_value_errors(name, payload, message):
    with pytest.raises(ValueError, match=f"Invalid `{name}` directive at line 9") as err:
        Directives().add(name, payload, 9)
    assert message in str(err.value)


def test_unknown_directive():
    with pytest.raises(ValueError, match="Unknown directive `import-object` at line 3"):
        Directives().add("import-object", "x", 3)  # the collector's, not Directives'


def test_rust_use_and_imports():
    assert RustUse("ffi.reflection.AccessPath").path == "tvm_ffi::reflection::AccessPath"
    assert RustUse("ffi.String") == RustUse("tvm_ffi::String")
    assert RustUse("crate::ir::PrimExpr").as_use_line() == "use crate::ir::PrimExpr;"
    assert RustUse("i64").as_use_line() == "" and RustUse("tvm_ffi::Array").leaf == "Array"
    imp = RustImports()
    assert imp.record("ffi.String") == "String" and imp.record("tvm_ffi::String") == "String"
    assert imp.record("crate::a::Foo") == "Foo"
    assert imp.record("crate::b::Foo") == "crate::b::Foo"  # leaf taken: spelled in full
    assert imp.record("i64") == "i64"
    assert [i.path for i in imp.items] == ["tvm_ffi::String", "crate::a::Foo"]
    mine = RustImports(reserved={"String"})
    assert mine.record("ffi.String") == "tvm_ffi::String" and mine.items == []


def test_builtin_bases():
    imp = RustImports()
    assert imp.record_builtin_base([]) == "Object"
    assert imp.record_builtin_base(["ffi.Enum", "ffi.IntEnum"]) == "FfiIntEnumObj"
    assert imp.builtin_mirrors == {"ffi.Enum": "Object", "ffi.IntEnum": "FfiEnumObj"}
    assert imp.items == [RustUse("tvm_ffi::Object")]
    assert builtin_mirror_name("ffi.reflection.AccessPath") == "Ffi_reflectionAccessPathObj"
    assert is_crate_type_key("ffi.Module") and not is_crate_type_key("testing.X")


@pytest.mark.parametrize(
    ("name", "ident"),
    [
        ("global_var_map_", "global_var_map"),
        ("__dict__", "dict"),
        ("type", "r#type"),
        ("match", "r#match"),
        ("self", "self_"),
        ("Self", "Self_"),
        ("base", "base_"),
        ("base_", "base_"),
        ("x__", "x__"),
        ("_", "_"),
        ("value", "value"),
    ],
)
def test_rust_ident(name, ident):
    assert rust_ident(name) == ident


def test_render_rust_type():
    names = {"int": "i64", "str": "tvm_ffi::String", "Array": "Array", "Map": "Map", "Any": "Any"}
    seen = []

    def leaf(origin, key):
        seen.append(origin)
        return names.get(origin)

    def render(text):
        return render_rust_type(TypeSchema.from_json_str(text), leaf)

    assert render('{"type":"ffi.Array","args":[{"type":"int"}]}') == "Array<i64>"
    assert render('{"type":"Optional","args":[{"type":"int"}]}') == "Option<i64>"
    seen.clear()
    text = '{"type":"ffi.Map","args":[{"type":"str"},{"type":"ffi.Array","args":[{"type":"int"}]}]}'
    assert render(text) == "Map<tvm_ffi::String, Array<i64>>"
    assert seen == ["str", "Array", "int", "Map"]  # a map names its arguments first
    assert render('{"type":"ffi.Array"}') == "Array<Any>"
    assert render('{"type":"ffi.Dict","args":[{"type":"str"},{"type":"int"}]}') is None
    assert render('{"type":"Variant","args":[{"type":"int"},{"type":"str"}]}') is None
    assert render('{"type":"testing.Foo"}') is None  # the leaf renderer has no name for it


def test_check_tokens_ignore_paths_uses_comments_and_trailing_commas():
    a = ["use tvm_ffi::String;", "// generated", "pub struct Foo {", "    a: tvm_ffi::String,", "}"]
    b = ["pub struct Foo {", "    a: String", "}"]
    assert (
        check_tokens(a) == check_tokens(b) == ("pub", "struct", "Foo", "{", "a", ":", "String", "}")
    )
    assert check_tokens(["foo(", "  a,", ")"]) == ("foo", "(", "a", ")")
    assert check_tokens(["Foo::new(x)"]) == ("Foo", ":", ":", "new", "(", "x", ")")
    assert check_tokens(["Vec<A, B,>"])[-2:] == (",", ">")  # only before ) ] }
    assert check_tokens(["x: i64"]) != check_tokens(["x: i32"])


def test_rust_module_path(tmp_path):
    (tmp_path / "Cargo.toml").write_text("")
    for rel in ["src/lib.rs", "src/ir.rs", "src/ir/mod.rs", "src/ir/type.rs", "tests/t.rs"]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("")
    assert rust_module_path(tmp_path / "src/lib.rs") == ("crate",)
    assert rust_module_path(tmp_path / "src/ir.rs") == ("crate", "ir")
    assert rust_module_path(tmp_path / "src/ir/mod.rs") == ("crate", "ir")
    assert rust_module_path(tmp_path / "src/ir/type.rs") == ("crate", "ir", "r#type")
    with pytest.raises(ValueError, match="is not under .*so it is in no module of the crate"):
        rust_module_path(tmp_path / "tests/t.rs")
    with pytest.raises(ValueError, match="is in no Cargo crate: no `Cargo.toml` above it"):
        rust_module_path(tmp_path.parent / "elsewhere.rs")
