"""tvm-rpc demo: compile a small C kernel, run it on an RPC server on this machine, time it."""

import os
import shutil
import subprocess
import tempfile

import numpy as np
import tvm
import tvm.rpc as rpc
import tvm_ffi
from tvm_ffi import libinfo

HERE = os.path.dirname(os.path.abspath(__file__))


def build_kernel(folder):
    """Compile demo_kernel.c into a library exporting `axpy_one` (FFI calling convention)."""
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        return None
    lib_dir = os.path.dirname(libinfo.find_libtvm_ffi())
    out = os.path.join(folder, "axpy.so")
    subprocess.run(
        [
            compiler,
            "-shared",
            "-fPIC",
            "-O2",
            "-std=c99",
            "-I",
            libinfo.find_include_path(),
            os.path.join(HERE, "demo_kernel.c"),
            "-o",
            out,
            "-L",
            lib_dir,
            "-ltvm_ffi",
            f"-Wl,-rpath,{lib_dir}",
        ],
        check=True,
    )
    return out


def main():
    tvm_ffi.register_global_func("demo.where_am_i", lambda: os.getpid(), override=True)
    with tempfile.TemporaryDirectory() as folder, rpc.Server(port=0, silent=True) as server:
        print(f"RPC server on 127.0.0.1:{server.port} (pid {server.pid})")
        with rpc.connect("127.0.0.1", server.port) as sess:
            print(
                f"session worker pid {sess.get_function('demo.where_am_i')()}, "
                f"this process {os.getpid()}"
            )
            dev = sess.cpu(0)
            x = tvm.runtime.tensor(np.arange(8, dtype="float32"), dev)
            y = tvm.runtime.empty((8,), "float32", dev)
            library = build_kernel(folder)
            if library is None:
                print("no C compiler found: skipping the compiled kernel")
                return
            sess.upload(library)
            module = sess.load_module(os.path.basename(library))
            module["axpy_one"](x, y, 2.0)
            print("x          =", x.numpy())
            print("2 * x + 1  =", y.numpy())
            assert np.array_equal(y.numpy(), 2 * np.arange(8, dtype="float32") + 1)
            timer = module.time_evaluator("axpy_one", dev, number=100, repeat=3)
            result = timer(x, y, 2.0)
            print(
                f"axpy_one on the server: {result.mean * 1e6:.2f} us per call "
                f"(mean of {len(result.results)} repeats)"
            )


if __name__ == "__main__":
    main()
