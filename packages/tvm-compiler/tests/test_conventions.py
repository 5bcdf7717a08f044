# Upstream conventions user code relies on: callable modules, tvm.tir.build, with_attr dicts, show.
import numpy as np
import pytest
import tvm
import tvm.runtime
from tvm import te, tir


def _double(n=8):
    a = te.placeholder((n,), "float32", name="A")
    b = te.compute((n,), lambda i: a[i] * 2.0, name="B")
    return te.create_prim_func([a, b])


def test_compiled_module_is_callable_and_runs_main():
    lib = tvm.compile(_double())
    a, b = np.arange(8, dtype="float32"), np.zeros(8, "float32")
    lib(a, b)
    np.testing.assert_array_equal(b, a * 2)
    assert lib.entry_name == "main"


def test_exported_and_loaded_module_is_callable(tmp_path):
    path = tvm.compile(_double()).export_library(tmp_path / "double.so")
    lib = tvm.runtime.load_module(path)
    a, b = np.arange(8, dtype="float32"), np.zeros(8, "float32")
    lib(a, b)
    np.testing.assert_array_equal(b, a * 2)
    timer = lib.time_evaluator("main", tvm.cpu(), number=2)
    assert timer(a, b).mean > 0


def test_time_evaluator_on_a_compiled_module_runs_the_kernel(tmp_path):
    lib = tvm.compile(_double())
    a, b = np.arange(8, dtype="float32"), np.zeros(8, "float32")
    result = lib.time_evaluator("main", tvm.cpu(), number=3, repeat=2)(a, b)
    np.testing.assert_array_equal(b, a * 2)  # the timed calls ran the kernel
    assert len(result.results) == 2 and all(r > 0 for r in result.results)
    with pytest.raises(AttributeError, match="missing"):
        lib.time_evaluator("missing", tvm.cpu())(a, b)


def test_module_without_main_says_so():
    lib = tvm.compile(tvm.IRModule({"other": _double().with_attr("global_symbol", "other")}))
    with pytest.raises(AttributeError, match="has no entry function 'main'"):
        lib(np.zeros(8, "float32"), np.zeros(8, "float32"))


def test_tir_build_is_compile_with_the_default_pipeline():
    lib = tvm.tir.build(_double(), target="c")
    a, b = np.ones(8, "float32"), np.zeros(8, "float32")
    lib["main"](a, b)
    np.testing.assert_array_equal(b, 2 * a)
    with pytest.raises(ValueError, match="tvm.tir.build: argument 'pipeline' must be 'default'"):
        tvm.tir.build(_double(), pipeline="fast")


def test_inspect_source_of_a_compiled_module(tmp_path):
    lib = tvm.compile(_double())
    source = lib.inspect_source()
    assert "__tvm_ffi_main" in source and lib.get_source() == source
    with pytest.raises(ValueError, match="argument 'fmt' must be"):
        lib.inspect_source("asm")
    loaded = tvm.runtime.load_module(lib.export_library(tmp_path / "x.so"))
    with pytest.raises(ValueError, match="is not known here"):
        loaded.inspect_source()


def test_with_attr_takes_a_dict():
    func = _double()
    both = func.with_attr({"global_symbol": "dbl", "tir.noalias": True})
    assert both.attrs["global_symbol"] == "dbl" and both.attrs["tir.noalias"] is True
    assert both.with_attr({"global_symbol": both.attrs["global_symbol"]}) is both
    mod = tvm.IRModule({"main": func}).with_attr({"a": 1, "b": 2})
    assert mod.attrs == {"a": 1, "b": 2}
    with pytest.raises(TypeError, match="attribute keys must be str"):
        func.with_attr({1: 2})
    with pytest.raises(TypeError, match="either a dict of attributes or a key and a value"):
        func.with_attr({"a": 1}, 2)


def test_show_prints_the_script(capsys):
    func = _double()
    mod = tvm.IRModule({"main": func})
    mod.show()
    assert capsys.readouterr().out == mod.script() + "\n"
    func.show()
    assert capsys.readouterr().out == func.script() + "\n"
    sch = tir.Schedule(func)
    sch.show()
    assert "T.prim_func" in capsys.readouterr().out
