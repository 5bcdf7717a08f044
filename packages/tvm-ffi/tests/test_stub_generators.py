"""tvm_ffi.stub.generator and tvm_ffi.stub.python_generator: the target registry, the Python
generator's protocol methods, its imports and its --init scaffold text."""

import pytest
import tvm_ffi.testing  # noqa: F401 - registers the testing.* globals and types
from tvm_ffi.stub import consts as C
from tvm_ffi.stub.file_utils import CodeBlock, StubError
from tvm_ffi.stub.generator import PythonGenerator, generator_names, get_generator
from tvm_ffi.stub.lib_state import object_info_from_type_key, toposort_objects
from tvm_ffi.stub.python_generator import codegen
from tvm_ffi.stub.python_generator.consts import MOD_MAP, TY_MAP_DEFAULTS
from tvm_ffi.stub.python_generator.utils import (
    ImportItem,
    PythonImports,
    render_object_ffi_init,
    render_object_init,
)
from tvm_ffi.stub.utils import InitConfig, ObjectInfo


def test_registry():
    assert "python" in generator_names() and generator_names() == sorted(generator_names())
    gen = get_generator("python")
    assert isinstance(gen, PythonGenerator) and gen is get_generator("python")
    assert gen.syntax == C.PYTHON_SYNTAX and gen.source_exts == {".py", ".pyi"}
    for bad in ("cobol", None):
        with pytest.raises(ValueError, match="Unknown stubgen generator: .*Known generators"):
            get_generator(bad)


def test_consts():
    assert C.RUST_SYNTAX.begin == "// tvm-ffi-stubgen(begin):"
    assert C.SYNTAX_BY_EXT[".rs"] == C.RUST_SYNTAX and C.SYNTAX_BY_EXT[".pyi"] == C.PYTHON_SYNTAX
    assert C.TERM_RED == "\033[31m" and C.TERM_RESET == "\033[0m" and C.FN_NAME_MAP == {}
    assert MOD_MAP["testing"] == "tvm_ffi.testing" and TY_MAP_DEFAULTS["Any"] == "typing.Any"


def test_python_generator_directives_and_names():
    gen = get_generator("python")
    imports = gen.new_imports()
    assert imports == PythonImports() and gen.extra_export_names(imports) == set()
    gen.add_directive(imports, "import-object", "tvm_ffi.libinfo.load_lib_module;False;_L", 3)
    assert imports.items == [ImportItem("tvm_ffi.libinfo.load_lib_module", False, "_L")]
    assert gen.extra_export_names(imports) == {"LIB"}
    with pytest.raises(StubError, match="line 4: Unknown directive `wat`"):
        gen.add_directive(imports, "wat", "x", 4)
    with pytest.raises(StubError, match="line 5: `import-object` takes"):
        gen.add_directive(imports, "import-object", "a;b;c;d", 5)
    assert gen.canonical_type_name("testing.TestIntPair") == "tvm_ffi.testing.TestIntPair"
    assert gen.is_builtin("ffi.Object") and not gen.is_builtin("testing.TestIntPair")
    assert (gen.api_filename(), gen.init_filename()) == ("_ffi_api.py", "__init__.py")
    assert gen.default_ty_map() == TY_MAP_DEFAULTS and gen.default_ty_map() is not TY_MAP_DEFAULTS


def test_import_item_maps_type_key_modules():
    item = ImportItem("testing.Foo", True, "F")
    assert (item.mod, item.name, item.full_name) == (
        "tvm_ffi.testing",
        "Foo",
        "tvm_ffi.testing.Foo",
    )
    assert (
        str(item) == "from tvm_ffi.testing import Foo as F" and item.name_with_alias == "Foo as F"
    )


def test_ffi_init_is_synthesised_only_without_a_registered_one():
    pair = object_info_from_type_key("testing.TestIntPair")  # registers its own __ffi_init__
    assert render_object_ffi_init(pair, lambda n: n, 4) == []
    auto = ObjectInfo(fields=[], methods=[], type_key="a.A", has_init=True)
    auto.init_fields = pair.init_fields
    assert render_object_ffi_init(auto, lambda n: n, 2) == [
        "  def __ffi_init__(self, a: int, b: int) -> None: ..."
    ]
    assert render_object_init(auto, lambda n: n, 0) == [
        "def __init__(self, a: int, b: int) -> None: ..."
    ]


def test_scaffold_api_file_text():
    objs = toposort_objects(["testing.TestCxxClassDerived", "testing.TestCxxClassBase"])
    cfg = InitConfig("my-ext", "my_ext_shared", "my_ext.")
    text = codegen.generate_python_ffi_api([], {}, "my_ext", objs, cfg, True, C.PYTHON_SYNTAX)
    assert text == (
        '"""FFI API bindings for my_ext."""\n'
        "\n"
        "# tvm-ffi-stubgen(begin): import-section\n"
        "# tvm-ffi-stubgen(end)\n"
        "# tvm-ffi-stubgen(import-object): tvm_ffi.libinfo.load_lib_module;False;_FFI_LOAD_LIB\n"
        'LIB = _FFI_LOAD_LIB("my-ext", "my_ext_shared")\n'
        "# tvm-ffi-stubgen(begin): global/my_ext\n"
        "# tvm-ffi-stubgen(end)\n"
        "# tvm-ffi-stubgen(import-object): tvm_ffi.register_object;False;_FFI_REG_OBJ\n"
        "# tvm-ffi-stubgen(import-object): ffi.Object;False;_ffi_Object\n"
        '@_FFI_REG_OBJ("testing.TestCxxClassBase")\n'
        "class TestCxxClassBase(_ffi_Object):\n"
        '    """FFI binding for `testing.TestCxxClassBase`."""\n'
        "\n"
        "    # tvm-ffi-stubgen(begin): object/testing.TestCxxClassBase\n"
        "    # tvm-ffi-stubgen(end)\n"
        "\n"
        '@_FFI_REG_OBJ("testing.TestCxxClassDerived")\n'
        "class TestCxxClassDerived(TestCxxClassBase):\n"
        '    """FFI binding for `testing.TestCxxClassDerived`."""\n'
        "\n"
        "    # tvm-ffi-stubgen(begin): object/testing.TestCxxClassDerived\n"
        "    # tvm-ffi-stubgen(end)\n"
        "\n"
        "\n"
        "__all__ = [\n"
        "    # tvm-ffi-stubgen(begin): __all__\n"
        "    # tvm-ffi-stubgen(end)\n"
        "]\n"
    )
    # A file that has every block gets nothing; a non-root module loads no library.
    have = [
        CodeBlock("import-section", "", 1, 2, []),
        CodeBlock("global", ("my_ext.sub", ""), 3, 4, []),
        CodeBlock("__all__", "", 5, 6, []),
    ]
    assert (
        codegen.generate_python_ffi_api(have, {}, "my_ext.sub", [], cfg, False, C.PYTHON_SYNTAX)
        == ""
    )


def test_scaffold_package_entry_text():
    text = codegen.generate_python_init([], "my_ext.sub", "_ffi_api", C.PYTHON_SYNTAX)
    assert text == (
        '"""Package my_ext.sub."""\n\n'
        "# tvm-ffi-stubgen(begin): export/_ffi_api\n# tvm-ffi-stubgen(end)\n"
    )
    have = [CodeBlock("export", "_ffi_api", 1, 2, [])]
    assert codegen.generate_python_init(have, "my_ext.sub", "_ffi_api", C.PYTHON_SYNTAX) == ""
