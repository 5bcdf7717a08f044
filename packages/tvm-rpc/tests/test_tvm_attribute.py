# After a bare `import tvm`, `tvm.rpc` is an attribute loaded on first use, as in Apache TVM.
import subprocess
import sys

import tvm


def test_rpc_resolves_lazily_after_a_bare_import():
    code = (
        "import sys, tvm\n"
        "assert 'tvm.rpc' not in sys.modules, 'imported by a bare import tvm'\n"
        "assert tvm.rpc is sys.modules['tvm.rpc'] and callable(tvm.rpc.connect)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_the_missing_wheel_table_names_this_wheel():
    assert tvm._WHEEL_OF_SUBPACKAGE["rpc"] == "tvm-rpc"
