"""tvm-ffi-stubgen --target rust: the Rust bindings of reflected objects, the --check view, the
--init module tree; the generated crates are type-checked with cargo against rust_mock/ (a
stand-in for the tvm_ffi crate's names) where cargo is installed."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import tvm_ffi.testing  # noqa: F401 - registers the testing.* globals and types
from tvm_ffi.stub.cli import main
from tvm_ffi.stub.file_utils import CodeBlock
from tvm_ffi.stub.generator import RustGenerator, get_generator
from tvm_ffi.stub.rust_generator.codegen import (
    finalize_rust_module_tree,
    generate_rust_import_section,
)
from tvm_ffi.stub.rust_generator.utils import RustImports

MOCK = Path(__file__).parent / "rust_mock" / "tvm_ffi"
CARGO = shutil.which("cargo") or next(
    (p for p in [os.path.expanduser("~/.cargo/bin/cargo")] if os.path.exists(p)), None
)
needs_cargo = pytest.mark.skipif(CARGO is None, reason="cargo is not installed")

BEGIN, END = "// tvm-ffi-stubgen(begin):", "// tvm-ffi-stubgen(end)"


def _block(stub):
    return f"{BEGIN} {stub}\n{END}\n"


def _crate(root: Path, files: dict) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "Cargo.toml").write_text(
        '[package]\nname = "bindings"\nversion = "0.0.0"\nedition = "2021"\n\n'
        f'[dependencies]\ntvm_ffi = {{ path = "{MOCK.as_posix()}" }}\n'
    )
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def _cargo_check(root: Path, tmp_path: Path) -> None:
    done = subprocess.run(
        [CARGO, "check", "--offline", "--quiet"],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "CARGO_TARGET_DIR": str(tmp_path / "target")},
    )
    assert done.returncode == 0, done.stderr


def _two_modules(tmp_path):
    """crate::ir holds the base types; the crate root derives from them and uses directives."""
    ir = _block("import-section") + "\n".join(
        _block(f"object/testing.{n}") for n in ("TestCxxClassBase", "TestCxxClassDerived")
    )
    lib = (
        "pub mod ir;\n"
        + _block("import-section")
        + "// tvm-ffi-stubgen(nullable): testing.TestIntPair.a\n"
        + "// tvm-ffi-stubgen(field): testing.TestIntPair.b -> u64\n"
        + "// tvm-ffi-stubgen(enum): testing.TestNonCopyable.value -> Kind(i64) { A=0, B=1 }\n"
        + "// tvm-ffi-stubgen(upcast): testing.TestIntPair -> crate::ir::TestCxxClassBase\n"
        + "\n".join(
            _block(f"object/testing.{n}")
            for n in ("TestCxxClassDerivedDerived", "TestIntPair", "TestNonCopyable")
        )
        + _block("object/testing.TestObjectPtrHolder")
        + _block("object/testing.TestObjectBase")
        + _block("object/testing.TestObjectDerived")
    )
    return _crate(tmp_path / "crate", {"src/lib.rs": lib, "src/ir/mod.rs": ir})


def test_registry_and_protocol():
    gen = get_generator("rust")
    assert isinstance(gen, RustGenerator) and gen.source_exts == {".rs"}
    assert gen.canonical_type_name("testing.Foo") == "testing::Foo"
    assert gen.is_builtin("ffi.Array") and not gen.is_builtin("testing.TestIntPair")
    assert (gen.api_filename(), gen.init_filename()) == ("mod.rs", "mod.rs")
    imports = gen.new_imports()
    gen.add_directive(imports, "import-object", "crate::foo::Bar;False;B", 1)
    assert [u.path for u in imports.items] == ["crate::foo::Bar"]
    with pytest.raises(ValueError, match="Invalid `field` directive at line 2"):
        gen.add_directive(imports, "field", "x", 2)


def test_bindings_text(tmp_path):
    root = _two_modules(tmp_path)
    assert main(["--target", "rust", "--imports", "tvm_ffi.testing", str(root / "src")]) == 0
    lib = (root / "src/lib.rs").read_text()
    ir = (root / "src/ir/mod.rs").read_text()
    # A parent from another module is `use`d by its crate path; the upcasts cover the chain.
    assert "use crate::ir::TestCxxClassDerivedObj;" in lib
    assert "pub struct TestCxxClassDerivedDerivedObj {\n    base: TestCxxClassDerivedObj,\n}" in lib
    assert (
        "tvm_ffi::impl_object_upcast!(TestCxxClassDerivedDerived => TestCxxClassBase, "
        "TestCxxClassDerivedDerived => TestCxxClassDerived);"
    ) in lib
    assert "/// Opaque: no metadata of its own: total_size is unknown." in ir
    assert '#[type_key = "testing.TestCxxClassBase"]' in ir
    # Getters: directives narrow / wrap the type, an enum reads through its newtype.
    assert "pub fn a(&self) -> Result<Option<i64>> {" in lib
    assert "pub fn b(&self) -> Result<u64> {" in lib
    assert 'let raw: i64 = FieldGetter::new(Self::type_index(), "value")?.get(self)?;' in lib
    assert "    pub const B: Self = Self(1);" in lib
    assert "tvm_ffi::impl_object_upcast!(TestIntPair => TestCxxClassBase);" in lib
    assert "pub fn optional_value(&self) -> Result<Option<ObjectRef>> {" in lib
    assert "pub fn v_array(&self) -> Result<Array<Any>> {" in lib
    uses = [line for line in lib.splitlines() if line.startswith("use ")]
    assert uses == sorted(uses) and "use tvm_ffi::FieldGetter;" in uses
    assert main(["--check", "--target", "rust", "--imports", "tvm_ffi.testing", str(root)]) == 0


@needs_cargo
def test_bindings_type_check_against_the_crate_api(tmp_path):
    root = _two_modules(tmp_path)
    assert main(["--target", "rust", "--imports", "tvm_ffi.testing", str(root / "src")]) == 0
    _cargo_check(root, tmp_path)


def test_check_ignores_use_lines_and_paths_but_not_definitions(tmp_path):
    root = _two_modules(tmp_path)
    args = ["--target", "rust", "--imports", "tvm_ffi.testing", str(root / "src")]
    assert main(args) == 0
    lib = root / "src/lib.rs"
    text = lib.read_text()
    lib.write_text(text.replace("use tvm_ffi::Result;\n", ""))
    assert main(["--check", *args]) == 0  # a `use` line is not what --check compares
    lib.write_text(text.replace("-> Result<u64>", "-> Result<u32>"))
    assert main(["--check", *args]) == 1
    assert main(args) == 0 and lib.read_text() == text


def test_a_binding_needs_its_parent_in_the_run(tmp_path, capsys):
    root = _crate(tmp_path / "c", {"src/lib.rs": _block("object/testing.TestObjectDerived")})
    assert main(["--target", "rust", "--imports", "tvm_ffi.testing", str(root / "src")]) == 2
    err = capsys.readouterr().err
    assert "`testing.TestObjectDerived` (line 1) depends on `testing.TestObjectBase`" in err
    assert (root / "src/lib.rs").read_text() == _block("object/testing.TestObjectDerived")


@pytest.mark.parametrize(
    "directive",
    ["field): testing.TestIntPair.a -> i32", "enum): testing.TestIntPair.a -> K(i32) { X=1 }"],
)
def test_a_scalar_directive_must_match_the_field_width(tmp_path, capsys, directive):
    text = f"// tvm-ffi-stubgen({directive}\n" + _block("object/testing.TestIntPair")
    root = _crate(tmp_path / "c", {"src/lib.rs": text})
    assert main(["--target", "rust", "--imports", "tvm_ffi.testing", str(root / "src")]) == 2
    err = capsys.readouterr().err
    assert "Directive on `testing.TestIntPair.a` maps a 8-byte field to `i32` (4 bytes)" in err


def test_builtin_bases_get_header_only_stand_ins():
    imports = RustImports()
    assert imports.record_builtin_base(["ffi.Enum", "ffi.IntEnum"]) == "FfiIntEnumObj"
    code = CodeBlock("import-section", "", 1, 2, [f"{BEGIN} import-section", END])
    generate_rust_import_section(code, imports, None, set())
    text = "\n".join(code.lines)
    assert "use tvm_ffi::Object;" in text
    assert "struct FfiEnumObj {\n    base: Object,\n}" in text
    assert '#[type_key = "ffi.IntEnum"]\nstruct FfiIntEnumObj {\n    base: FfiEnumObj,\n}' in text


def test_init_scaffolds_a_module_tree(tmp_path):
    root = _crate(tmp_path / "c", {"src/lib.rs": "pub mod gen;\n"})
    init = ["--init-pypkg", "my-ext", "--init-lib", "my_ext", "--init-prefix", "testing."]
    args = ["--target", "rust", "--imports", "tvm_ffi.testing", *init, str(root / "src/gen")]
    assert main(args) == 0
    assert (root / "src/gen/mod.rs").read_text() == "pub mod testing;\n"
    api = (root / "src/gen/testing/mod.rs").read_text()
    assert api.startswith(
        "#![allow(dead_code, unused_imports)]\n\n"
        "//! FFI bindings for `testing` (generated by tvm-ffi-stubgen).\n\n"
        f"{BEGIN} import-section\n"
    )
    assert "pub struct TestIntPairObj {" in api and "pub struct TestCxxClassDerived {" in api
    if CARGO is not None:
        _cargo_check(root, tmp_path)


def test_module_tree_declarations(tmp_path):
    (tmp_path / "ffi").mkdir()
    (tmp_path / "ffi" / "mod.rs").write_text("X\n")
    finalize_rust_module_tree(tmp_path, {"ffi", "ffi.json", "a.b.c"})
    assert (tmp_path / "mod.rs").read_text() == "pub mod a;\npub mod ffi;\n"
    assert (tmp_path / "ffi" / "mod.rs").read_text() == "X\n\npub mod json;\n"
    assert (tmp_path / "a" / "b" / "mod.rs").read_text() == "pub mod c;\n"
    finalize_rust_module_tree(tmp_path, {"ffi.json"})  # declared already: unchanged
    assert (tmp_path / "ffi" / "mod.rs").read_text() == "X\n\npub mod json;\n"
