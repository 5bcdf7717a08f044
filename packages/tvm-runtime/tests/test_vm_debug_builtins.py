# vm.builtin.invoke_debug_func / vm.builtin.debug_print: the run-time half of nn.op.print_.
import numpy as np
import pytest
import tvm
import tvm_ffi
from tvm.runtime.vm import builtins


def test_debug_print_tensor_and_scalars(capsys):
    t = tvm.runtime.tensor(np.array([1.0, 2.5], "float32"))
    builtins.debug_print("model.py:7", t, 3)
    out = capsys.readouterr().out
    assert out.startswith("model.py:7: shape = (2,), dtype = float32, data =\n[1.  2.5]")
    assert out.rstrip().endswith(", 3")


def test_invoke_debug_func_calls_the_global_and_passes_the_effect_through():
    seen = []
    tvm_ffi.register_global_func(
        "testing.nn_debug_collect", lambda line, *args: seen.append((line, args)), override=True
    )
    io = object()
    fn = tvm_ffi.get_global_func("vm.builtin.invoke_debug_func")
    assert builtins.invoke_debug_func(io, "testing.nn_debug_collect", "f.py:1", 5) is io
    assert seen == [("f.py:1", (5,))]
    assert fn is not None


def test_invoke_debug_func_unknown_name():
    with pytest.raises(ValueError, match=r"no global function named 'no.such.debug_func'"):
        builtins.invoke_debug_func(None, "no.such.debug_func", "f.py:2")
