"""With every package installed, `import tvm; tvm.compile(...)` works with no compiler import."""

import subprocess
import sys


def test_tvm_compile_is_loaded_on_first_use():
    code = (
        "import sys, tvm\n"
        "assert 'tvm.driver' not in sys.modules\n"
        "compile_kernel = tvm.compile\n"  # looked up before any compiler module is imported
        "from tvm import te\n"
        "A = te.placeholder((8,), 'float32', name='A')\n"
        "B = te.compute((8,), lambda i: A[i] * 2.0, name='B')\n"
        "mod = compile_kernel(te.create_prim_func([A, B]))\n"
        "import numpy as np\n"
        "a = np.arange(8, dtype='float32'); b = np.zeros(8, dtype='float32')\n"
        "mod['main'](a, b)\n"
        "assert (b == a * 2).all()\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
