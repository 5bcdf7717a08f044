# dynamic_strided_slice: struct info (only the rank is known; errors name the op and the
# argument) and a compiled function on the VM slicing with run-time begin/end/strides,
# against NumPy's slicing (negative indices and strides, clamped ends).
import numpy as np
import pytest
import tvm
from tvm import relax
from tvm.relax import op as R


def _v(name, shape, dtype="int64"):
    return relax.Var(name, relax.TensorStructInfo(shape, dtype))


def _sinfo(call):
    return relax.BlockBuilder().normalize(call).struct_info


def test_dynamic_strided_slice_struct_info_and_errors():
    x = _v("x", [4, 5], "float32")
    b, e, s = _v("b", [2]), _v("e", [2]), _v("s", [2])
    out = _sinfo(R.dynamic_strided_slice(x, b, e, s))
    assert out.ndim == 2 and out.dtype == "float32" and out.shape is None
    with pytest.raises(ValueError, match=r"dynamic_strided_slice: begin of shape \(3,\) must"):
        _sinfo(R.dynamic_strided_slice(x, _v("b", [3]), e, s))
    with pytest.raises(TypeError, match="dynamic_strided_slice: end must be an integer tensor"):
        _sinfo(R.dynamic_strided_slice(x, b, _v("e", [2], "float32"), s))


def test_dynamic_strided_slice_runs_on_the_vm():
    if not hasattr(relax, "VirtualMachine"):
        pytest.skip("the Relax VM is not in this build yet")
    x = _v("x", [4, 5], "float32")
    b, e, s = _v("b", [2]), _v("e", [2]), _v("s", [2])
    bb = relax.BlockBuilder()
    with bb.function("main", [x, b, e, s]):
        bb.emit_func_output(bb.emit(R.dynamic_strided_slice(x, b, e, s)))
    vm = relax.VirtualMachine(tvm.compile(bb.get(), target="llvm"), tvm.cpu())
    data = np.arange(20, dtype="float32").reshape(4, 5)
    cases = [
        ((1, 0), (3, 5), (1, 2)),
        ((-1, 4), (-5, 0), (-1, -2)),
        ((0, -3), (100, 100), (2, 1)),
        ((3, 1), (1, 1), (1, 1)),  # empty
    ]
    for begin, end, strides in cases:
        args = [np.array(v, "int64") for v in (begin, end, strides)]
        got = vm["main"](*[tvm.runtime.tensor(a) for a in [data, *args]]).numpy()
        want = data[tuple(slice(*t) for t in zip(begin, end, strides))]
        np.testing.assert_array_equal(got, want)
