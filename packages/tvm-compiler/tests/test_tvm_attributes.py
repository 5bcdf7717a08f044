# After a bare `import tvm`, each subpackage of this wheel is an attribute of `tvm`, loaded on use.
import importlib.metadata
import subprocess
import sys

import tvm


def shipped_subpackages():
    """The top-level `tvm.X` modules and packages the installed tvm-compiler wheel holds."""
    names = set()
    for path in importlib.metadata.files("tvm-compiler"):
        parts = path.parts
        if len(parts) >= 2 and parts[0] == "tvm" and not parts[1].startswith("_"):
            if len(parts) > 2 or parts[1].endswith(".py"):
                names.add(parts[1].removesuffix(".py"))
    return sorted(names)


def test_the_wheel_ships_the_upstream_subpackages():
    names = shipped_subpackages()
    for expected in ["arith", "ir", "relax", "target", "te", "tir", "topi", "transform"]:
        assert expected in names


def test_every_shipped_subpackage_resolves_lazily_after_a_bare_import():
    names = shipped_subpackages()
    code = (
        "import sys, tvm\n"
        f"names = {names!r}\n"
        "eager = [n for n in names if f'tvm.{n}' in sys.modules]\n"
        "assert not eager, f'imported by a bare import tvm: {eager}'\n"
        "for n in names:\n"
        "    assert getattr(tvm, n) is sys.modules[f'tvm.{n}'], n\n"
        "assert tvm.tir.Var('x', 'int32').dtype == 'int32'\n"
        "assert callable(tvm.transform.Sequential) and callable(tvm.relax.BlockBuilder)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_the_missing_wheel_table_names_this_wheel_for_each_subpackage():
    # The runtime's table is what names tvm-compiler when it is absent: it must cover them all.
    table = tvm._WHEEL_OF_SUBPACKAGE
    assert {n: table.get(n) for n in shipped_subpackages()} == dict.fromkeys(
        shipped_subpackages(), "tvm-compiler"
    )
