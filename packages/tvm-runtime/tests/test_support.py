# tvm.support: libinfo's facts and describe's printout.
import pytest
import tvm
import tvm_ffi
from tvm import support


def test_libinfo_reports_versions_and_build_switches_as_strings():
    info = tvm.support.libinfo()
    assert info["TVM_VERSION"] == tvm.__version__
    assert info["TVM_FFI_VERSION"] == tvm_ffi.__version__
    assert info["USE_LLVM"] == "OFF" and info["CODEGEN"] == "c"
    assert info["USE_RPC"] in ("ON", "OFF")
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in info.items())


def test_describe_prints_the_environment_and_every_libinfo_key(capsys):
    support.describe()
    out = capsys.readouterr().out
    assert out.startswith("Python Environment\n")
    assert "TVM Build Information" in out
    for key, value in support.libinfo().items():
        assert f"{key} " in out and value in out


def test_get_global_func_finds_registered_functions_and_says_when_missing():
    tvm_ffi.register_global_func("test_support.echo", lambda x: x, override=True)
    assert support.get_global_func("test_support.echo")(7) == 7
    assert support.get_global_func("test_support.missing", allow_missing=True) is None
    with pytest.raises(ValueError, match="test_support.missing"):
        support.get_global_func("test_support.missing")


def test_detect_active_modules_reports_no_gpu_runtime_built_in():
    assert support.detect_active_modules() == {"cuda": False, "vulkan": False, "opencl": False}


def test_the_registry_has_upstream_top_level_names():
    @tvm.register_global_func("test_support.twice")
    def twice(x):
        return 2 * x

    assert tvm.get_global_func("test_support.twice")(4) == 8
    tvm.register_func("test_support.thrice", lambda x: 3 * x, override=True)
    assert tvm.get_global_func("test_support.thrice")(2) == 6
    assert tvm.get_global_func("test_support.none", True) is None
