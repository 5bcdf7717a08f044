"""With every wheel installed, `import tvm` then `tvm.tir`, `tvm.rpc`, ... work, loaded on use."""

import subprocess
import sys


def test_every_installed_subpackage_is_an_attribute():
    code = (
        "import sys, tvm\n"
        "names = ['rpc', 'tir', 'te', 'ir', 'transform', 'arith', 'target', 'driver', 'tirx']\n"
        "assert not any(f'tvm.{n}' in sys.modules for n in names), 'imported eagerly'\n"
        "for n in names:\n"
        "    assert getattr(tvm, n) is sys.modules[f'tvm.{n}'], n\n"
        "assert tvm.tir.Var('x', 'int32').dtype == 'int32'\n"
        "assert callable(tvm.rpc.connect) and callable(tvm.transform.Sequential)\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
