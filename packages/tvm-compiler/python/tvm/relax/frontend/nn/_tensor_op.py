"""Operator overloads and helper methods of nn.Tensor (a mixin so core.py stays about state)."""


def _op():
    # op imports core, which imports this mixin: resolve the op module at call time.
    from . import op

    return op


def _as_tensor(value, ref, who: str):
    """A Python or TIR scalar becomes a constant of ref's dtype; a Tensor passes through."""
    from tvm import tir

    from .core import Tensor

    if isinstance(value, Tensor):
        return value
    if isinstance(value, (tir.IntImm, tir.FloatImm)):
        value = value.value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(
            f"nn.Tensor.{who}: the other operand must be an nn.Tensor or a Python int/float, "
            f"got {type(value).__name__}"
        )
    return Tensor.from_scalar(value, dtype=ref.dtype)


class _TensorOp:
    def __add__(self, other):
        return _op().add(self, _as_tensor(other, self, "__add__"))

    def __radd__(self, other):
        return _op().add(self, _as_tensor(other, self, "__radd__"))

    def __sub__(self, other):
        return _op().subtract(self, _as_tensor(other, self, "__sub__"))

    def __rsub__(self, other):
        return _op().subtract(_as_tensor(other, self, "__rsub__"), self)

    def __mul__(self, other):
        return _op().multiply(self, _as_tensor(other, self, "__mul__"))

    def __rmul__(self, other):
        return _op().multiply(self, _as_tensor(other, self, "__rmul__"))

    def __truediv__(self, other):
        return _op().divide(self, _as_tensor(other, self, "__truediv__"))

    def __rtruediv__(self, other):
        return _op().divide(_as_tensor(other, self, "__rtruediv__"), self)

    def __matmul__(self, other):
        return _op().matmul(self, _as_tensor(other, self, "__matmul__"))

    def __neg__(self):
        return _op().negative(self)

    def __lt__(self, other):
        return _op().less(self, _as_tensor(other, self, "__lt__"))

    def __le__(self, other):
        return _op().less_equal(self, _as_tensor(other, self, "__le__"))

    def __gt__(self, other):
        return _op().greater(self, _as_tensor(other, self, "__gt__"))

    def __ge__(self, other):
        return _op().greater_equal(self, _as_tensor(other, self, "__ge__"))

    def astype(self, dtype):
        """Cast to dtype (nn.op.astype)."""
        return _op().astype(self, dtype)

    def maximum(self, other):
        """Elementwise maximum with other (nn.op.maximum)."""
        return _op().maximum(self, _as_tensor(other, self, "maximum"))

    def minimum(self, other):
        """Elementwise minimum with other (nn.op.minimum)."""
        return _op().minimum(self, _as_tensor(other, self, "minimum"))

    def reshape(self, *shape):
        """Reshape to shape, given as separate extents (nn.op.reshape)."""
        return _op().reshape(self, shape)

    def permute_dims(self, *axes):
        """Permute the axes, given as separate ints (nn.op.permute_dims)."""
        return _op().permute_dims(self, axes)

    def repeat(self, repeats: int, axis: int | None = None):
        """Repeat elements along axis (nn.op.repeat)."""
        return _op().repeat(self, repeats, axis)
