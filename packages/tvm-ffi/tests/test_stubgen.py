"""tvm-ffi-stubgen / python -m tvm_ffi.stub: typed stubs from the type schemas the registry records,
written between `# tvm-ffi-stubgen(begin)` / `(end)` markers as apache-tvm-ffi writes them."""

import os
import subprocess
import sys

import pytest
import tvm_ffi
import tvm_ffi.testing  # noqa: F401 - registers the testing.* globals and types
from native_build import build_library
from tvm_ffi.core import TypeSchema
from tvm_ffi.stub.cli import main
from upstream_examples import INT_PAIR

API = '''"""My extension's API."""
# tvm-ffi-stubgen(begin): import-section
# tvm-ffi-stubgen(end)
import tvm_ffi

# tvm-ffi-stubgen(begin): global/my_ffi_extension
# tvm-ffi-stubgen(end)


@tvm_ffi.register_object("my_ffi_extension.IntPair")
class IntPair(tvm_ffi.Object):
    """A pair."""

    # tvm-ffi-stubgen(begin): object/my_ffi_extension.IntPair
    # tvm-ffi-stubgen(end)


__all__ = [
    # tvm-ffi-stubgen(begin): __all__
    # tvm-ffi-stubgen(end)
]
'''

# What apache-tvm-ffi 0.1.15's tvm-ffi-stubgen writes into API for the same library.
EXPECTED = '''"""My extension's API."""
# tvm-ffi-stubgen(begin): import-section
# fmt: off
# isort: off
from __future__ import annotations
from tvm_ffi import init_ffi_api as _FFI_INIT_FUNC
from typing import TYPE_CHECKING
# isort: on
# fmt: on
# tvm-ffi-stubgen(end)
import tvm_ffi

# tvm-ffi-stubgen(begin): global/my_ffi_extension
# fmt: off
_FFI_INIT_FUNC("my_ffi_extension", __name__)
if TYPE_CHECKING:
    def add_one(_0: int, /) -> int: ...
    def pair_sum(_0: IntPair, /) -> int: ...
    def raise_error(_0: str, /) -> None: ...
# fmt: on
# tvm-ffi-stubgen(end)


@tvm_ffi.register_object("my_ffi_extension.IntPair")
class IntPair(tvm_ffi.Object):
    """A pair."""

    # tvm-ffi-stubgen(begin): object/my_ffi_extension.IntPair
    # fmt: off
    a: int
    b: int
    if TYPE_CHECKING:
        def __init__(self, a: int, b: int) -> None: ...
        def __ffi_init__(self, _0: int, _1: int, /) -> None: ...
        def sum(self, /) -> int: ...
    # fmt: on
    # tvm-ffi-stubgen(end)


__all__ = [
    # tvm-ffi-stubgen(begin): __all__
    "IntPair",
    "add_one",
    "pair_sum",
    "raise_error",
    # tvm-ffi-stubgen(end)
]
'''


@pytest.fixture(scope="module")
def plugin(tmp_path_factory):
    return build_library(
        tmp_path_factory.mktemp("plugin"), "int_pair", INT_PAIR, "c++", link_ffi=True
    )


def _stubgen(*args, module="tvm_ffi.stub"):
    return subprocess.run(
        [sys.executable, "-m", module, *map(str, args)], capture_output=True, text=True, timeout=120
    )


def _schema(name):
    return TypeSchema.from_json_str(tvm_ffi.get_global_func_metadata(name)["type_schema"])


# ----- the type schemas C++ registration records -----


def test_global_function_metadata_is_the_cxx_signature():
    meta = tvm_ffi.get_global_func_metadata("testing.schema_id_arr_int")
    assert meta == {
        "type_schema": '{"type":"ffi.Function","named_args":{"return":[{"type":"ffi.Array",'
        '"args":[{"type":"int"}]}],"params":[{"type":"ffi.Array","args":[{"type":"int"}]}]}}'
    }
    for name, text in [
        ("testing.schema_id_int", "Callable[[int], int]"),
        ("testing.schema_id_float", "Callable[[float], float]"),
        ("testing.schema_id_bool", "Callable[[bool], bool]"),
        ("testing.schema_id_device", "Callable[[Device], Device]"),
        ("testing.schema_id_dtype", "Callable[[dtype], dtype]"),
        ("testing.schema_id_string", "Callable[[str], str]"),
        ("testing.schema_id_bytes", "Callable[[bytes], bytes]"),
        ("testing.schema_id_any", "Callable[[Any], Any]"),
        ("testing.schema_id_object", "Callable[[Object], Object]"),
        ("testing.schema_id_tensor", "Callable[[Tensor], Tensor]"),
        ("testing.schema_tensor_view_input", "Callable[[Tensor], None]"),
        ("testing.schema_id_opt_str", "Callable[[str | None], str | None]"),
        ("testing.schema_id_list_obj", "Callable[[List[Object]], List[Object]]"),
        ("testing.schema_id_map_str_int", "Callable[[Map[str, int]], Map[str, int]]"),
        ("testing.schema_id_dict_str_str", "Callable[[Dict[str, str]], Dict[str, str]]"),
        ("testing.schema_no_args", "Callable[[], int]"),
        ("testing.schema_no_args_no_return", "Callable[[], None]"),
        ("testing.schema_packed", "Callable[..., Any]"),
        ("testing.TestIntPairSum", "Callable[[testing.TestIntPair], int]"),
        (
            "testing.schema_id_func_typed",
            "Callable[[Callable[[int, float, Callable[..., Any]], None]], "
            "Callable[[int, float, Callable[..., Any]], None]]",
        ),
        (
            "testing.schema_arr_map_opt",
            "Callable[[Array[int | None], Map[str, Array[int]], str | None], Map[str, Array[int]]]",
        ),
    ]:
        assert _schema(name).repr() == text, name


def test_functions_registered_without_a_signature_have_no_schema():
    @tvm_ffi.register_global_func("testing.stubgen_py_func", override=True)
    def _py_func(x):
        return x

    try:
        assert tvm_ffi.get_global_func_metadata("testing.stubgen_py_func") == {}
    finally:
        tvm_ffi.registry.remove_global_func("testing.stubgen_py_func")
    with pytest.raises(ValueError, match="testing.stubgen_py_func"):
        tvm_ffi.get_global_func_metadata("testing.stubgen_py_func")


def test_field_and_method_metadata_carry_type_schemas():
    info = tvm_ffi.testing.TestIntPair.__tvm_ffi_type_info__
    assert {f.name: f.metadata for f in info.fields} == {
        "a": {"type_schema": '{"type":"int"}'},
        "b": {"type_schema": '{"type":"int"}'},
    }
    methods = {m.name: m for m in info.methods}
    assert methods["sum"].metadata["type_schema"] == (
        '{"type":"ffi.Function","named_args":{"return":[{"type":"int"}],'
        '"params":[{"type":"testing.TestIntPair"}]}}'
    )
    init = TypeSchema.from_json_str(methods["__ffi_init__"].metadata["type_schema"])
    assert init.repr() == "Callable[[int, int], Object]"


def test_py_class_fields_record_the_schema_of_their_annotation():
    from tvm_ffi.dataclasses import field, fields, py_class

    @py_class("testing.stubgen.PyPoint")
    class PyPoint(tvm_ffi.Object):
        x: int
        name: str = field(default="p", metadata={"unit": "m"})
        other: "tvm_ffi.Object | None" = None

    info = PyPoint.__tvm_ffi_type_info__
    assert [f.metadata for f in info.fields] == [
        {"type_schema": {"type": "int"}},
        {"type_schema": {"type": "str"}},
        {"type_schema": {"type": "Any"}},
    ]
    assert fields(PyPoint)[1].metadata == {"unit": "m"}  # the user's metadata stays there


def test_type_schema_json_round_trip_and_reprs():
    s = TypeSchema.from_json_str('{"type":"Optional","args":[{"type":"int"}]}')
    assert s.repr() == "int | None" and s.to_json() == {
        "type": "Optional",
        "args": [{"type": "int"}],
    }
    s = TypeSchema.from_json_str('{"type":"ffi.Map","args":[{"type":"str"},{"type":"int"}]}')
    assert s.repr() == "Map[str, int]"
    assert (
        TypeSchema.from_json_str(
            '{"type":"Variant","args":[{"type":"int"},{"type":"ffi.String"}]}'
        ).repr()
        == "int | str"
    )
    assert TypeSchema.from_json_str('{"type":"void*"}').repr() == "ctypes.c_void_p"
    fn = TypeSchema.from_json_obj(
        {"type": "ffi.Function", "named_args": {"return": [{"type": "int"}], "params": []}}
    )
    assert fn.origin == "Callable" and fn.repr() == "Callable[[], int]"
    assert TypeSchema.from_json_obj(fn.to_json()) == fn
    arr = TypeSchema.from_json_str('{"type":"ffi.Array","args":[{"type":"ffi.Tensor"}]}')
    assert arr.input_repr(lambda o: {"Array": "Sequence"}.get(o, o)) == "Sequence[Tensor]"
    with pytest.raises(ValueError, match="from_json_str"):
        TypeSchema.from_json_str("{not json")
    with pytest.raises(TypeError, match="from_json_obj"):
        TypeSchema.from_json_obj({"args": []})


# ----- the generator on a plugin's API file -----


def test_fills_blocks_exactly_as_upstream(tmp_path, plugin):
    api = tmp_path / "my_ffi_extension.py"
    api.write_text(API)
    done = _stubgen("--dlls", plugin, api)
    assert done.returncode == 0, done.stderr
    assert api.read_text() == EXPECTED
    # The generated module works: its globals are bound and the class constructs.
    code = f"""
import sys, tvm_ffi
tvm_ffi.load_module({str(plugin)!r})
sys.path.insert(0, {str(tmp_path)!r})
import my_ffi_extension as m
p = m.IntPair(2, 3)
print(m.add_one(1), m.pair_sum(p), p.sum(), sorted(m.__all__))
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().split(maxsplit=3) == [
        "2",
        "5",
        "5",
        "['IntPair', 'add_one', 'pair_sum', 'raise_error']",
    ]
    # Running again (on the folder, through the cli module) changes nothing; --check agrees.
    again = _stubgen("--dlls", plugin, tmp_path, module="tvm_ffi.stub.cli")
    assert again.returncode == 0, again.stderr
    assert api.read_text() == EXPECTED
    assert _stubgen("--check", "--dlls", plugin, api).returncode == 0


def test_check_dry_run_and_verbose(tmp_path, plugin):
    api = tmp_path / "api.pyi"
    api.write_text(API)
    done = _stubgen("--check", "--dlls", plugin, api)
    assert done.returncode == 1 and f"[Stale] {api}" in done.stdout
    assert api.read_text() == API
    done = _stubgen("--dry-run", "--verbose", "--dlls", plugin, api)
    assert done.returncode == 0, done.stderr
    assert "+    def add_one(_0: int, /) -> int: ..." in done.stdout
    assert api.read_text() == API
    assert _stubgen("--dry-run", "--dlls", plugin, api).stdout == ""
    assert api.read_text() == API


def test_testing_library_in_process(tmp_path, capsys):
    api = tmp_path / "api.py"
    api.write_text(
        "# tvm-ffi-stubgen(begin): import-section\n# tvm-ffi-stubgen(end)\n"
        "# tvm-ffi-stubgen(begin): global/testing\n# tvm-ffi-stubgen(end)\n"
        "class TestIntPair:\n"
        "    # tvm-ffi-stubgen(begin): object/testing.TestIntPair\n"
        "    # tvm-ffi-stubgen(end)\n"
        "    pass\n"
    )
    assert main(["--imports", "tvm_ffi.testing", "--indent", "2", str(api)]) == 0
    text = api.read_text()
    for line in (
        "  def schema_id_arr_int(_0: Sequence[int], /) -> Sequence[int]: ...",
        "  def schema_id_list_int(_0: Sequence[int], /) -> MutableSequence[int]: ...",
        "  def schema_id_dict_str_int(_0: Mapping[str, int], /) -> MutableMapping[str, int]: ...",
        "  def schema_id_opt_obj(_0: Object | None, /) -> Object | None: ...",
        "  def schema_id_dtype(_0: dtype, /) -> dtype: ...",
        "  def schema_id_func(_0: Callable[..., Any], /) -> Callable[..., Any]: ...",
        "  def schema_packed(*args: Any) -> Any: ...",
        "  def schema_no_args_no_return() -> None: ...",
        "  def TestIntPairSum(_0: TestIntPair, /) -> int: ...",
        "    a: int",
        "      def __init__(self, a: int, b: int) -> None: ...",
        "      def sum(self, /) -> int: ...",
        "  from collections.abc import Mapping, MutableMapping, MutableSequence, Sequence",
        "  from tvm_ffi import Device, Object, Tensor, dtype",
        "from tvm_ffi import init_ffi_api as _FFI_INIT_FUNC",
    ):
        assert line + "\n" in text, (line, text)
    # The type the file defines is not imported; the copy/new helpers are not API.
    assert "import TestIntPair" not in text and "__ffi_shallow_copy__" not in text
    assert main(["--check", "--imports", "tvm_ffi.testing", "--indent", "2", str(api)]) == 0
    capsys.readouterr()


def test_directives_ty_map_import_object_export_and_prefix_module(tmp_path, plugin):
    api = tmp_path / "api.py"
    api.write_text(
        "# tvm-ffi-stubgen(ty-map): my_ffi_extension.IntPair -> my_pkg.pairs.Pair\n"
        "# tvm-ffi-stubgen(import-object): my_pkg.lib.LIB;False;_LIB\n"
        "# tvm-ffi-stubgen(begin): import-section\n# tvm-ffi-stubgen(end)\n"
        "# tvm-ffi-stubgen(begin): global/my_ffi_extension@my_pkg.base\n"
        "# tvm-ffi-stubgen(end)\n"
        "# tvm-ffi-stubgen(begin): export/sub\n# tvm-ffi-stubgen(end)\n"
    )
    done = _stubgen("--dlls", plugin, api)
    assert done.returncode == 0, done.stderr
    text = api.read_text()
    assert "    def pair_sum(_0: Pair, /) -> int: ...\n" in text
    assert "from my_pkg.base import init_ffi_api as _FFI_INIT_FUNC\n" in text
    assert "from my_pkg.lib import LIB as _LIB\n" in text
    assert "    from my_pkg.pairs import Pair\n" in text
    assert "from .sub import __all__ as sub__all__\n__all__.extend(sub__all__)\n" in text.replace(
        'if "__all__" not in globals():\n    __all__ = []\n', ""
    )


def test_skip_file_and_files_without_markers_are_left_alone(tmp_path):
    skipped = tmp_path / "a.py"
    skipped.write_text(
        "# tvm-ffi-stubgen(skip-file)\n# tvm-ffi-stubgen(begin): global/testing\n"
        "# tvm-ffi-stubgen(end)\n"
    )
    plain = tmp_path / "b.py"
    plain.write_text("x = 1\n")
    assert main([str(tmp_path)]) == 0
    assert skipped.read_text().count("\n") == 3 and plain.read_text() == "x = 1\n"


# ----- bad input -----


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "# tvm-ffi-stubgen(begin): bogus/x\n# tvm-ffi-stubgen(end)\n",
            "Unknown stub type `bogus/x` at line 1",
        ),
        ("# tvm-ffi-stubgen(begin): global/testing\n", "Unclosed stub block at end of file"),
        ("# tvm-ffi-stubgen(end)\n", "Unmatched `# tvm-ffi-stubgen(end)` found at line 1"),
        (
            "# tvm-ffi-stubgen(begin): global/testing\n# tvm-ffi-stubgen(begin): __all__\n",
            "Nested stub not permitted at line 2",
        ),
        ("# tvm-ffi-stubgen(wat): x\n", "Unknown directive `wat`"),
        ("# tvm-ffi-stubgen(ty-map): A.B\n", "Invalid ty_map format at line 1"),
        ("# tvm-ffi-stubgen(import-object): \n", "`import-object` takes"),
        (
            "# tvm-ffi-stubgen(begin): object/no.such.Type\n# tvm-ffi-stubgen(end)\n",
            "object type `no.such.Type` is not registered",
        ),
    ],
)
def test_bad_directives_are_clear_errors(tmp_path, text, message):
    api = tmp_path / "bad.py"
    api.write_text(text)
    done = _stubgen("--imports", "tvm_ffi.testing", api)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "bad.py" in done.stderr, done.stderr
    assert api.read_text() == text


def test_global_block_of_an_unknown_prefix_is_left_as_is_with_a_warning(tmp_path):
    # As upstream: not an error (an --init scaffold has such blocks), but we say why.
    text = "# tvm-ffi-stubgen(begin): global/no_such_prefix\n# tvm-ffi-stubgen(end)\n"
    api = tmp_path / "bad.py"
    api.write_text(text)
    done = _stubgen("--imports", "tvm_ffi.testing", api)
    assert done.returncode == 0, done.stderr
    assert "warning" in done.stderr and "prefix `no_such_prefix`" in done.stderr
    assert api.read_text() == text


def test_missing_path_library_and_module_are_clear_errors(tmp_path):
    done = _stubgen(tmp_path / "nope.py")
    assert done.returncode == 2 and "nope.py: no such file or folder" in done.stderr
    done = _stubgen("--dlls", tmp_path / "missing.so", tmp_path)
    assert done.returncode == 2 and "missing.so" in done.stderr
    done = _stubgen("--imports", "no_such_module_xyz", tmp_path)
    assert done.returncode == 2 and "no_such_module_xyz" in done.stderr
    done = _stubgen("--indent", "-1", tmp_path)
    assert done.returncode == 2 and "--indent" in done.stderr


def test_console_script_is_installed():
    script = os.path.join(os.path.dirname(sys.executable), "tvm-ffi-stubgen")
    if not os.path.exists(script):
        pytest.skip("tvm-ffi is not installed as a wheel here (no console scripts)")
    done = subprocess.run([script, "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "tvm-ffi-stubgen" in done.stdout
