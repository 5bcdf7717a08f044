"""tvm_ffi.utils.embed_cubin: a blob merged into an object file as __tvm_ffi__cubin_<name>."""

import ctypes
import shutil
import subprocess
import sys

import pytest
from tvm_ffi.utils.embed_cubin import embed_cubin, main

_TOOLS = [tool for tool in ("cc", "ld", "objcopy") if shutil.which(tool) is None]
pytestmark = pytest.mark.skipif(bool(_TOOLS), reason=f"needs {', '.join(_TOOLS)} on PATH")

_READER = """
#include <stddef.h>
extern const unsigned char __tvm_ffi__cubin_{name}[];
extern const unsigned char __tvm_ffi__cubin_{name}_end[];
size_t {fn}_size(void) {{ return (size_t)(__tvm_ffi__cubin_{name}_end - __tvm_ffi__cubin_{name}); }}
const unsigned char* {fn}_data(void) {{ return __tvm_ffi__cubin_{name}; }}
"""


def compile_reader(tmp_path, name, fn):
    src = tmp_path / f"{fn}.c"
    src.write_text(_READER.format(name=name, fn=fn))
    obj = tmp_path / f"{fn}.o"
    subprocess.run(["cc", "-fPIC", "-c", str(src), "-o", str(obj)], check=True)
    return obj


def read_blob(lib, fn):
    size = getattr(lib, f"{fn}_size")
    size.restype = ctypes.c_size_t
    data = getattr(lib, f"{fn}_data")
    data.restype = ctypes.c_void_p
    return ctypes.string_at(data(), size())


def test_embedded_bytes_are_read_back_and_symbols_stay_local(tmp_path):
    blob_a, blob_b = b"CUBIN\x00\x01\xff" + bytes(range(256)), b"other"
    objs = []
    # Two objects embed the same name: the symbols are local, so they link side by side.
    for fn, blob in (("a", blob_a), ("b", blob_b)):
        (tmp_path / f"{fn}.cubin").write_bytes(blob)
        out = tmp_path / f"{fn}_out.o"
        embed_cubin(tmp_path / f"{fn}.cubin", compile_reader(tmp_path, "kern", fn), out, "kern")
        objs.append(str(out))
    lib_path = tmp_path / "libblobs.so"
    subprocess.run(["cc", "-shared", *objs, "-o", str(lib_path)], check=True)
    lib = ctypes.CDLL(str(lib_path))
    assert read_blob(lib, "a") == blob_a and read_blob(lib, "b") == blob_b
    symbols = subprocess.run(["nm", objs[0]], capture_output=True, text=True).stdout
    assert " r __tvm_ffi__cubin_kern\n" in symbols and " r __tvm_ffi__cubin_kern_end\n" in symbols


def test_command_line(tmp_path):
    (tmp_path / "k.cubin").write_bytes(b"xyz")
    obj = compile_reader(tmp_path, "k", "cli")
    out = tmp_path / "sub" / "out.o"
    cmd = [sys.executable, "-m", "tvm_ffi.utils.embed_cubin", "--output-obj", str(out)]
    cmd += ["--input-obj", str(obj), "--cubin", str(tmp_path / "k.cubin"), "--name", "k"]
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert (
        "__tvm_ffi__cubin_k_end"
        in subprocess.run(["nm", str(out)], capture_output=True, text=True).stdout
    )
    bad = cmd[:-1] + ["not-an-identifier"]
    done = subprocess.run(bad, capture_output=True, text=True)
    assert done.returncode == 1 and "Error: embed_cubin: argument `name`" in done.stderr


def test_bad_input(tmp_path, monkeypatch, capsys):
    (tmp_path / "k.cubin").write_bytes(b"x")
    obj = compile_reader(tmp_path, "k", "bad")
    with pytest.raises(FileNotFoundError, match="CUBIN file not found"):
        embed_cubin(tmp_path / "missing.cubin", obj, tmp_path / "o.o", "k")
    with pytest.raises(FileNotFoundError, match="Input object file not found"):
        embed_cubin(tmp_path / "k.cubin", tmp_path / "missing.o", tmp_path / "o.o", "k")
    with pytest.raises(ValueError, match="C identifier, got '1k'"):
        embed_cubin(tmp_path / "k.cubin", obj, tmp_path / "o.o", "1k")
    (tmp_path / "junk.o").write_bytes(b"not an object file")
    with pytest.raises(RuntimeError, match="`ld -r .*` failed"):
        embed_cubin(tmp_path / "k.cubin", tmp_path / "junk.o", tmp_path / "o.o", "k")
    assert not (tmp_path / "o.o").exists()
    argv = ["embed_cubin", "--output-obj", "o.o", "--input-obj", str(obj)]
    monkeypatch.setattr(sys, "argv", [*argv, "--cubin", "nope.cubin", "--name", "k"])
    assert main() == 1
    assert "Error: CUBIN file not found: nope.cubin" in capsys.readouterr().err
