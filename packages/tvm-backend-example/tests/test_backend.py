"""The example backend as `import tvm` sees it: loaded once, device registered, errors warned."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import tvm
import tvm_backend_example
from tvm import base, runtime


def run_python(code, *paths, env=None):
    full_env = {k: v for k, v in os.environ.items() if k != "TVM_DEVICE_BACKEND_AUTOLOAD"}
    full_env.update(env or {})
    full_env["PYTHONPATH"] = os.pathsep.join(
        [str(p) for p in paths] + [full_env.get("PYTHONPATH", "")]
    )
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=full_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_autoloaded_by_import_tvm():
    [example] = [b for b in tvm.backend.list_backends() if b.name == "example"]
    assert example.state == "loaded"
    assert example.value == "tvm_backend_example:load"
    assert tvm_backend_example.LIBRARY_NAME in base._LOADED_LIBS


def test_library_links_only_tvm_ffi():
    needed = subprocess.run(
        ["ldd", tvm_backend_example.library_path()], capture_output=True, text=True
    ).stdout
    assert "libtvm_ffi.so" in needed and "not found" not in needed


def test_example_device():
    dev = tvm.device("example")
    assert (dev.device_type, dev.device_id) == (tvm_backend_example.DEVICE_TYPE, 0)
    assert runtime.device_exists(dev) and not runtime.device_exists(tvm.device("example", 1))
    data = np.arange(6, dtype="int16").reshape(2, 3)
    t = runtime.tensor(data, dev)
    np.testing.assert_array_equal(t.numpy(), data)


def test_load_again_changes_nothing():
    handle = base._LOADED_LIBS[tvm_backend_example.LIBRARY_NAME]
    api = runtime.get_device_api(tvm.device("example"))
    tvm_backend_example.load()
    assert base._LOADED_LIBS[tvm_backend_example.LIBRARY_NAME] is handle
    assert runtime.get_device_api(tvm.device("example")) is api


def test_disabled_autoload_then_on_demand():
    out = run_python(
        """
        import tvm_ffi, tvm
        print(tvm_ffi.get_global_func("example.gemm", allow_missing=True) is None)
        tvm.backend.load("example")
        print(tvm_ffi.get_global_func("example.gemm", allow_missing=True) is None)
    """,
        env={"TVM_DEVICE_BACKEND_AUTOLOAD": "0"},
    )
    assert out.split() == ["True", "False"]


def test_corrupt_native_library_warns_and_import_works(tmp_path):
    # A copy of the package whose native library is garbage shadows the installed one.
    package = tmp_path / "tvm_backend_example"
    shutil.copytree(
        os.path.dirname(tvm_backend_example.__file__),
        package,
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    (package / "lib" / tvm_backend_example.LIBRARY_NAME).write_bytes(b"\x7fELF\x02\x01\x01 broken")
    info = tmp_path / "tvm_backend_example-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: tvm-backend-example\nVersion: 0.1.0\n"
    )
    (info / "entry_points.txt").write_text("[tvm.backends]\nexample = tvm_backend_example:load\n")
    out = run_python(
        """
        import warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import tvm
        print([str(w.message) for w in caught])
        print([b.state for b in tvm.backend.list_backends()], tvm.cpu(0).device_id)
    """,
        tmp_path,
    )
    warnings_line, states_line = out.strip().splitlines()
    assert "backend 'example'" in warnings_line and "libtvm_backend_example.so" in warnings_line
    assert "OSError" in warnings_line
    assert states_line == "['failed'] 0"
