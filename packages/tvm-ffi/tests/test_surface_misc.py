"""Upstream names outside the containers: libinfo finders, tvm-ffi-config flags, utils.FileLock,
registry helpers."""

import os
import subprocess
import sys
import threading

import pytest
import tvm_ffi
from tvm_ffi import libinfo
from tvm_ffi.utils import FileLock


def test_libinfo_finders_point_at_the_install():
    assert os.path.isfile(libinfo.find_libtvm_ffi())
    inc = libinfo.find_include_path()
    assert os.path.isfile(os.path.join(inc, "tvm_ffi", "c_api.h"))
    assert os.path.isfile(os.path.join(libinfo.find_dlpack_include_path(), "tvm_ffi", "dlpack.h"))
    assert libinfo.include_paths() == [inc]
    assert libinfo.find_python_helper_include_path() == inc
    assert os.path.isdir(libinfo.find_source_path())
    assert os.path.basename(libinfo.find_cython_lib()).startswith("_core.")
    assert os.path.isfile(os.path.join(libinfo.find_cmake_path(), "tvm_ffiConfig.cmake"))
    with pytest.raises(RuntimeError, match="tvm_ffi.lib"):
        libinfo.find_windows_implib()


def test_load_lib_ctypes_and_module_find_a_package_library():
    lib = libinfo.load_lib_ctypes("tvm_ffi", "tvm_ffi", "RTLD_LOCAL")
    assert lib.TVMFFIEnvGetStream is not None
    with pytest.raises(ValueError, match="argument `mode`"):
        libinfo.load_lib_ctypes("tvm_ffi", "tvm_ffi", "RTLD_NOW")
    with pytest.raises(RuntimeError, match="cannot find library 'no_such_lib'"):
        libinfo.load_lib_module("tvm_ffi", "no_such_lib")


@pytest.mark.parametrize(
    "flag, expected",
    [
        ("--includedir", lambda: libinfo.find_include_path()),
        ("--dlpack-includedir", lambda: libinfo.find_dlpack_include_path()),
        ("--libdir", lambda: libinfo.find_lib_path()),
        ("--libfiles", lambda: libinfo.find_libtvm_ffi()),
        ("--cmakedir", lambda: libinfo.find_cmake_path()),
        ("--sourcedir", lambda: libinfo.find_source_path()),
        ("--cython-lib-path", lambda: libinfo.find_cython_lib()),
        ("--libs", lambda: "-ltvm_ffi"),
    ],
)
def test_config_flags(flag, expected):
    out = subprocess.run(
        [sys.executable, "-m", "tvm_ffi.config", flag],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert out.stdout.strip() == expected()


def test_config_unknown_flag_fails():
    out = subprocess.run(
        [sys.executable, "-m", "tvm_ffi.config", "--nope"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 2 and "unrecognized arguments: --nope" in out.stderr


def test_file_lock_excludes_and_times_out(tmp_path):
    path = tmp_path / "x.lock"
    with FileLock(path) as held:
        assert isinstance(held, FileLock)
        other = FileLock(path)
        with pytest.raises(TimeoutError, match="could not lock"):
            other.acquire(timeout=0.1)
    order = []

    def worker():
        with FileLock(path):
            order.append("worker")

    with FileLock(path):
        t = threading.Thread(target=worker)
        t.start()
        t.join(0.2)
        order.append("main")
    t.join()
    assert order == ["main", "worker"]


def test_file_lock_double_acquire_is_an_error(tmp_path):
    lock = FileLock(tmp_path / "y.lock")
    lock.acquire()
    try:
        with pytest.raises(RuntimeError, match="already held"):
            lock.acquire()
    finally:
        lock.release()


def test_global_func_metadata_and_convert_func():
    # A packed C++ function records the bare Function schema, as apache-tvm-ffi's does.
    assert tvm_ffi.get_global_func_metadata("testing.nop") == {
        "type_schema": '{"type":"ffi.Function"}'
    }
    with pytest.raises(ValueError, match="no global function"):
        tvm_ffi.get_global_func_metadata("no.such.func")
    f = tvm_ffi.convert_func(lambda x: x + 1)
    assert isinstance(f, tvm_ffi.Function) and f(1) == 2
    with pytest.raises(TypeError, match="convert_func: argument `pyfunc` must be callable"):
        tvm_ffi.convert_func(3)
    with pytest.raises(TypeError, match="argument `tensor_cls`"):
        tvm_ffi.convert_func(lambda x: x, tensor_cls=int)


def test_convert_func_delivers_torch_tensors():
    torch = pytest.importorskip("torch", reason="tensor_cls=torch.Tensor needs torch")
    np = pytest.importorskip("numpy", reason="the argument is a numpy array")
    f = tvm_ffi.convert_func(lambda t: isinstance(t, torch.Tensor), tensor_cls=torch.Tensor)
    assert f(np.zeros(3)) is True


def test_package_level_upstream_names():
    assert tvm_ffi.__version_tuple__ == tuple(int(p) for p in tvm_ffi.__version__.split("."))
    assert tvm_ffi.LIB.TVMFFIEnvGetStream is not None  # a ctypes handle of libtvm_ffi
    from tvm_ffi.module import ModulePropertyMask

    assert (
        ModulePropertyMask.BINARY_SERIALIZABLE,
        ModulePropertyMask.RUNNABLE,
        ModulePropertyMask.COMPILATION_EXPORTABLE,
    ) == (1, 2, 4)
    assert tvm_ffi.stream.device is tvm_ffi.device
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = tvm_ffi.module.nope
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = tvm_ffi.nope


def test_lazy_names_stay_out_of_the_plain_import():
    code = (
        "import sys, tvm_ffi; print(sorted(m for m in ('enum', 'ctypes', 'tvm_ffi.stream', "
        "'tvm_ffi.core', 'tvm_ffi.utils') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "[]", out.stdout


def test_upstream_module_layout_of_dataclasses_structural_and_cpp():
    import importlib

    dc = importlib.import_module("tvm_ffi.dataclasses")
    for module, names in {
        "tvm_ffi.dataclasses.common": ["asdict", "astuple", "fields", "is_dataclass", "replace"],
        "tvm_ffi.dataclasses.field": ["Field", "KW_ONLY", "MISSING", "field"],
        "tvm_ffi.dataclasses.py_class": ["py_class", "field", "Field"],
        "tvm_ffi.dataclasses.c_class": ["c_class", "field", "Field"],
    }.items():
        mod = importlib.import_module(module)
        for name in names:
            assert getattr(mod, name) is getattr(dc, name), (module, name)
    assert importlib.import_module("tvm_ffi.dataclasses.py_class").method is tvm_ffi.method
    structural = importlib.import_module("tvm_ffi.structural")
    for name in (
        "StructuralVisitor",
        "StructuralMutator",
        "structural_walk",
        "WalkOrder",
        "VisitInterrupt",
    ):
        assert getattr(structural, name) is getattr(tvm_ffi, name)
    assert tvm_ffi.cpp.load_inline is importlib.import_module("tvm_ffi.cpp").load_inline
    assert "cpp" in tvm_ffi.__all__ and "method" in tvm_ffi.__all__


def test_asdict_converts_mutable_containers_too():
    from tvm_ffi.dataclasses import asdict, py_class

    @py_class("test_surface.Holder")
    class Holder(tvm_ffi.Object):
        items: tvm_ffi.List
        table: tvm_ffi.Dict

    h = Holder(items=tvm_ffi.List([1, [2]]), table=tvm_ffi.Dict({"k": tvm_ffi.List([3])}))
    assert asdict(h) == {"items": [1, [2]], "table": {"k": [3]}}


def test_core_base_classes_and_object_repr():
    import tvm_ffi.testing as t
    from tvm_ffi import core

    for value in (
        tvm_ffi.Array([1]),
        tvm_ffi.Map({"a": 1}),
        tvm_ffi.List([1]),
        tvm_ffi.Dict({"a": 1}),
    ):
        assert isinstance(value, core.CContainerBase) and isinstance(value, core.CObject)
        assert isinstance(t.echo(value), core.CContainerBase)
    assert not isinstance(tvm_ffi.Shape((1,)), core.CContainerBase)
    assert isinstance(t.nop, core.CObject) and not isinstance(1, core.CObject)
    assert core.object_repr(t.TestIntPair(1, 2)) == "testing.TestIntPair(a=1, b=2)"
    assert core.object_repr(tvm_ffi.Array([1, "a"])) == '(1, "a")'
    assert core.object_repr(tvm_ffi.List([tvm_ffi.Map({"k": 1})])) == '[{"k": 1}]'
