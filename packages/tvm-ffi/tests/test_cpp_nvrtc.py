"""tvm_ffi.cpp.nvrtc.nvrtc_compile: its checks, the message without cuda-python, the NVRTC calls."""

import enum
import importlib.util
import sys
import types

import pytest
from tvm_ffi.cpp.nvrtc import nvrtc_compile

_SOURCE = 'extern "C" __global__ void add_one(float* x) { x[threadIdx.x] += 1.0f; }'


def test_without_cuda_python_names_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "cuda", None)  # import cuda.bindings raises ImportError
    with pytest.raises(RuntimeError, match="CUDA bindings not available.*pip install cuda-python"):
        nvrtc_compile(_SOURCE, arch="sm_80")


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"source": b"x"}, "argument `source` must be a str, got bytes"),
        ({"source": "x", "name": 3}, "argument `name` must be a str"),
        ({"source": "x", "arch": 80}, "argument `arch` must be a str or None, got int"),
        ({"source": "x", "extra_opts": "-DX"}, "`extra_opts` must be a sequence of str"),
        ({"source": "x", "extra_opts": [1]}, "`extra_opts` must be a sequence of str"),
    ],
)
def test_bad_arguments(kwargs, match):
    source = kwargs.pop("source")
    with pytest.raises(TypeError, match=match):
        nvrtc_compile(source, **kwargs)


class _Result(enum.IntEnum):
    NVRTC_SUCCESS = 0
    NVRTC_ERROR_COMPILATION = 6


class _FakeNvrtc:
    """The slice of cuda.bindings.nvrtc nvrtc_compile calls, recording what it was given."""

    nvrtcResult = _Result

    def __init__(self, fail_with_log=None):
        self.fail_with_log = fail_with_log
        self.calls = []

    def nvrtcCreateProgram(self, src, name, n, headers, include_names):
        self.calls.append(("create", src, name))
        return _Result.NVRTC_SUCCESS, "prog"

    def nvrtcCompileProgram(self, prog, n, opts):
        self.calls.append(("compile", n, list(opts)))
        ok = self.fail_with_log is None
        return (_Result.NVRTC_SUCCESS if ok else _Result.NVRTC_ERROR_COMPILATION,)

    def nvrtcGetProgramLogSize(self, prog):
        return _Result.NVRTC_SUCCESS, len(self.fail_with_log) + 1

    def nvrtcGetProgramLog(self, prog, buf):
        # cuda-python fills the bytes buffer in place; emulate that.
        import ctypes

        ctypes.memmove(buf, self.fail_with_log + b"\0", len(buf))
        return (_Result.NVRTC_SUCCESS,)

    def nvrtcGetCUBINSize(self, prog):
        return _Result.NVRTC_SUCCESS, 4

    def nvrtcGetCUBIN(self, prog, buf):
        import ctypes

        ctypes.memmove(buf, b"\x7fELF", 4)
        return (_Result.NVRTC_SUCCESS,)

    def nvrtcDestroyProgram(self, prog):
        self.calls.append(("destroy", prog))
        return (_Result.NVRTC_SUCCESS,)


def _install_fake(monkeypatch, nvrtc):
    bindings = types.ModuleType("cuda.bindings")
    bindings.nvrtc = nvrtc
    bindings.driver = types.SimpleNamespace()  # arch is given: the driver is not asked
    monkeypatch.setitem(sys.modules, "cuda", types.ModuleType("cuda"))
    monkeypatch.setitem(sys.modules, "cuda.bindings", bindings)


def test_calls_nvrtc_with_the_options_and_returns_the_cubin(monkeypatch):
    fake = _FakeNvrtc()
    _install_fake(monkeypatch, fake)
    assert nvrtc_compile(_SOURCE, name="k.cu", arch="sm_90", extra_opts=["-DN=4"]) == b"\x7fELF"
    assert fake.calls[0] == ("create", _SOURCE.encode(), b"k.cu")
    assert fake.calls[1] == (
        "compile",
        3,
        [b"--gpu-architecture=sm_90", b"-default-device", b"-DN=4"],
    )
    assert fake.calls[-1] == ("destroy", "prog")


def test_compile_error_carries_the_log(monkeypatch):
    fake = _FakeNvrtc(fail_with_log=b'k.cu(1): error: identifier "y" is undefined')
    _install_fake(monkeypatch, fake)
    with pytest.raises(
        RuntimeError, match=r'compiling k.cu for sm_80 failed.*\n.*"y" is undefined'
    ):
        nvrtc_compile("bad", name="k.cu", arch="sm_80")
    assert fake.calls[-1] == ("destroy", "prog")  # the program is freed on failure too


@pytest.mark.skipif(
    importlib.util.find_spec("cuda") is None, reason="needs cuda-python (cuda.bindings) and NVRTC"
)
def test_real_compile_for_an_explicit_arch():
    cubin = nvrtc_compile(_SOURCE, arch="sm_80")
    assert cubin[:4] == b"\x7fELF"
