"""tvm.testing: helpers upstream test files use (assert_allclose, CompareBeforeAfter, main)."""

from __future__ import annotations

import sys

import numpy as np

# Upstream's tests call tvm.ir.assert_structural_equal; the same function is here too.
from tvm.ir.structural import assert_structural_equal


def assert_allclose(actual, desired, rtol: float = 1e-7, atol: float = 1e-7) -> None:
    """np.testing.assert_allclose on tensors or arrays (anything with .numpy() is converted)."""
    actual = actual.numpy() if hasattr(actual, "numpy") else np.asarray(actual)
    desired = desired.numpy() if hasattr(desired, "numpy") else np.asarray(desired)
    np.testing.assert_allclose(actual, desired, rtol=rtol, atol=atol, verbose=True)


def assert_prim_expr_equal(lhs, rhs) -> None:
    """lhs and rhs simplify to structurally equal expressions."""
    from tvm.arith import Analyzer

    analyzer = Analyzer()
    a, b = analyzer.simplify(lhs), analyzer.simplify(rhs)
    if not a.structural_equal(b):
        raise ValueError(f"{lhs} and {rhs} differ: {a} vs {b}")


class CompareBeforeAfter:
    """Upstream's pattern: a class with `transform` (a pass, or a method returning one),
    `before` and `expected` (PrimFuncs, IRModules, @T.prim_func functions written in the class
    body, or an exception type); the generated test checks transform(before)."""

    transform = None
    before = None
    expected = None

    @staticmethod
    def _as_module(value):
        from tvm.ir.module import IRModule
        from tvm.tir.function import PrimFunc

        if getattr(value, "__tvmscript_prim_func__", False):
            from tvm.script.parser.tir.entry import parse_later

            value = parse_later(value)
        if isinstance(value, PrimFunc):
            # before and expected are different Python functions: both become "main".
            if "global_symbol" in value.attrs:
                value = value.with_attr("global_symbol", "main")
            value = IRModule({"main": value})
        return value

    def test_compare(self):
        import inspect

        transform = self.transform
        if inspect.ismethod(transform):
            transform = transform()
        before = self._as_module(type(self).before)
        expected = type(self).expected
        if isinstance(expected, type) and issubclass(expected, Exception):
            import pytest

            with pytest.raises(expected):
                transform(before)
            return
        assert_structural_equal(transform(before), self._as_module(expected))


def parameter(*values, ids=None, by_dict=None):
    """A fixture taking each value in turn (upstream's `x = tvm.testing.parameter(1, 2)`);
    by_dict={id: value} gives the values with their test ids."""
    import pytest

    if by_dict is not None:
        if values or ids is not None:
            raise TypeError("tvm.testing.parameter: pass either values (and ids) or by_dict")
        ids, values = list(by_dict), tuple(by_dict.values())

    @pytest.fixture(params=values, ids=ids)
    def as_fixture(*_cls, request):  # _cls: a parameter may be defined in a class body
        return request.param

    return as_fixture


_PARAMETRIZE_GROUPS = iter(range(1 << 62))


def parameters(*value_sets, ids=None):
    """Fixtures varied together (upstream's `size, dtype = tvm.testing.parameters((16,
    "float32"), (512, "float16"))`): a test using them runs once per value set. The
    tvm.testing.plugin pytest plugin generates those tests."""
    import pytest

    sizes = {len(v) if isinstance(v, (tuple, list)) else None for v in value_sets}
    if not value_sets or None in sizes or len(sizes) != 1:
        raise TypeError(
            "tvm.testing.parameters: each value set must be a tuple of the same length, got "
            f"{value_sets!r}"
        )
    if ids is not None and len(ids) != len(value_sets):
        raise ValueError(f"tvm.testing.parameters: {len(ids)} ids for {len(value_sets)} value sets")
    group = next(_PARAMETRIZE_GROUPS)
    outputs = []
    for column in zip(*value_sets):

        def as_fixture(*_cls, request):
            if not hasattr(request, "param"):
                raise RuntimeError(
                    f"tvm.testing.parameters: fixture {request.fixturename!r} has no value: "
                    "load the tvm.testing.plugin pytest plugin (pytest -p tvm.testing.plugin, "
                    'or pytest_plugins = ["tvm.testing.plugin"] in the root conftest.py)'
                )
            return request.param

        as_fixture.parametrize_group = group
        as_fixture.parametrize_values = column
        as_fixture.parametrize_ids = ids
        outputs.append(pytest.fixture(as_fixture))
    return outputs


def fixture(func=None, *, cache_return_value: bool = False):
    """A pytest fixture (upstream's decorator); cached ones live for the whole session."""
    import pytest

    def wrap(f):
        return pytest.fixture(scope="session" if cache_return_value else "function")(f)

    return wrap if func is None else wrap(func)


def _device_marks(name: str, present: bool):
    import pytest

    return pytest.mark.skipif(not present, reason=f"needs {name}, which this host does not have")


def _has_cuda() -> bool:
    try:
        import tvm

        return bool(getattr(tvm.cuda(0), "exist", False))
    except Exception:  # noqa: BLE001  (no CUDA runtime at all)
        return False


def requires_cuda(func):
    """Skip the test cleanly where no CUDA device is present."""
    return _device_marks("a CUDA GPU", _has_cuda())(func)


requires_gpu = requires_cuda


def requires_llvm(func):
    """Skip the test cleanly where no llvm target kind is registered."""
    from tvm.target import list_target_kinds

    return _device_marks("the LLVM backend", "llvm" in list_target_kinds())(func)


def main() -> None:
    """Run the calling test file with pytest (upstream's `tvm.testing.main()`)."""
    import pytest

    caller = sys.modules["__main__"].__file__
    sys.exit(pytest.main([caller, *sys.argv[1:]]))


__all__ = [
    "CompareBeforeAfter",
    "fixture",
    "parameter",
    "parameters",
    "requires_cuda",
    "requires_gpu",
    "requires_llvm",
    "assert_allclose",
    "assert_prim_expr_equal",
    "assert_structural_equal",
    "main",
]
