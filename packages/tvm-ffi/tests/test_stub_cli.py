"""tvm_ffi.stub.cli: --init-* scaffolding, --coverage-out, the prefix / skip directives and the
command line's argument errors (the block rendering itself is test_stubgen.py's)."""

import json

import pytest
import tvm_ffi.testing  # noqa: F401 - registers the testing.* globals and types
from tvm_ffi.stub.cli import main

INIT = ["--init-pypkg", "my-ext", "--init-lib", "my_ext_shared", "--init-prefix", "testing."]


def test_init_scaffolds_a_package_then_check_finds_it_up_to_date(tmp_path):
    assert main(["--imports", "tvm_ffi.testing", *INIT, str(tmp_path)]) == 0
    api = (tmp_path / "testing" / "_ffi_api.py").read_text()
    assert api.startswith('"""FFI API bindings for testing."""\n')
    assert 'LIB = _FFI_LOAD_LIB("my-ext", "my_ext_shared")' in api
    assert "    def add_one(_0: int, /) -> int: ..." in api
    assert "class TestCxxClassDerived(TestCxxClassBase):" in api  # same-file parent
    assert "    a: int\n    b: int\n" in api  # TestIntPair's fields, filled in
    assert '    "LIB",\n' in api and '    "TestIntPair",\n' in api
    init = (tmp_path / "testing" / "__init__.py").read_text()
    assert "from ._ffi_api import *  # noqa: F403" in init
    compile(api, "_ffi_api.py", "exec")
    assert main(["--check", "--imports", "tvm_ffi.testing", str(tmp_path)]) == 0
    # A second --init adds nothing that is there already.
    assert main(["--imports", "tvm_ffi.testing", *INIT, str(tmp_path)]) == 0
    assert (tmp_path / "testing" / "_ffi_api.py").read_text() == api


def test_init_flag_errors(tmp_path, capsys):
    with pytest.raises(SystemExit) as err:
        main(["--init-pypkg", "x", str(tmp_path)])
    assert err.value.code == 2
    assert "--init-pypkg, --init-lib, and --init-prefix must be provided together" in (
        capsys.readouterr().err
    )
    with pytest.raises(SystemExit):
        main(["--check", *INIT, str(tmp_path)])
    assert "--check cannot be combined with --init-* flags" in capsys.readouterr().err
    assert main([*INIT]) == 2
    assert "--init-* takes exactly one PATH" in capsys.readouterr().err


def test_unknown_target_is_an_argument_error(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["--target", "cobol", str(tmp_path)])
    assert "invalid choice: 'cobol'" in capsys.readouterr().err


def test_coverage_out_without_paths(tmp_path):
    out = tmp_path / "cov.json"
    assert main(["--imports", "tvm_ffi.testing", "--coverage-out", str(out)]) == 0
    report = json.loads(out.read_text())
    assert list(report) == sorted(report) and "testing.TestIntPair" in report
    root = report["ffi.Object"]
    assert root["verdict"] == "complete" and root["detail"].startswith("object header [0, ")
    pair = report["testing.TestIntPair"]
    # No sizeof in this registry yet: every type but the root is layout-unknown.
    assert (pair["verdict"], pair["reason"]) == ("opaque", "layout-unknown")
    assert pair["parent"] == "ffi.Object" and pair["ancestors"] == ["ffi.Object"]


def test_prefix_directive_rolls_out_object_blocks_and_drops_stale_ones(tmp_path, capsys):
    path = tmp_path / "a.pyi"
    path.write_text(
        '"""doc."""\n'
        "# tvm-ffi-stubgen(prefix): ffi.reflection\n"
        "# tvm-ffi-stubgen(skip): ffi.reflection.AccessStep\n"
        "X = 1\n"
        "# tvm-ffi-stubgen(begin): object/ffi.reflection.Gone\n"
        "# tvm-ffi-stubgen(end)\n"
    )
    assert main([str(path)]) == 0
    text = path.read_text()
    assert "object/ffi.reflection.Gone" not in text
    assert "[Removed]" in capsys.readouterr().out
    assert "# tvm-ffi-stubgen(begin): import-section" in text
    assert "# tvm-ffi-stubgen(begin): object/ffi.reflection.AccessPath" in text
    assert "object/ffi.reflection.AccessStep" not in text  # skipped
    lines = text.splitlines()
    # The new blocks come right after the directive, each after a blank line.
    assert lines[2:4] == ["", "# tvm-ffi-stubgen(begin): import-section"]
    assert main(["--check", str(path)]) == 0


def test_two_prefix_directives_are_an_error(tmp_path, capsys):
    path = tmp_path / "a.py"
    text = "# tvm-ffi-stubgen(prefix): ffi.reflection\n# tvm-ffi-stubgen(prefix): testing\n"
    path.write_text(text)
    assert main([str(path)]) == 2
    assert "more than one `prefix` directive (line 2)" in capsys.readouterr().err
    assert path.read_text() == text


def test_prefix_without_registered_objects_changes_nothing(tmp_path, capsys):
    path = tmp_path / "a.py"
    text = "# tvm-ffi-stubgen(prefix): no_such_prefix\nX = 1\n"
    path.write_text(text)
    assert main([str(path)]) == 0
    assert "[Skipped]" in capsys.readouterr().out and path.read_text() == text
