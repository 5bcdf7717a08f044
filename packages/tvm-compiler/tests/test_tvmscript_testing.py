# tvm.testing as upstream's test files use it: assert_allclose, assert_structural_equal with the
# first mismatch, CompareBeforeAfter classes written in TVMScript, and main().
import subprocess
import sys

import numpy as np
import pytest
import tvm
import tvm.testing
from tvm.script import tir as T


def test_assert_allclose_takes_tensors_and_arrays():
    tvm.testing.assert_allclose(tvm.runtime.tensor(np.ones(3, "float32")), np.ones(3))
    with pytest.raises(AssertionError):
        tvm.testing.assert_allclose(np.ones(3), np.zeros(3))


def test_assert_structural_equal_names_the_first_mismatch_and_prints_both_sides():
    @T.prim_func
    def one(A: T.Buffer((4,), "float32")):
        A[0] = T.float32(1)

    @T.prim_func
    def two(A: T.Buffer((4,), "float32")):
        A[0] = T.float32(2)

    tvm.testing.assert_structural_equal(one, one)
    with pytest.raises(ValueError) as info:
        tvm.testing.assert_structural_equal(one, two)
    # Upstream's message: each side's path and its script with the mismatch underlined.
    assert str(info.value) == (
        "StructuralEqual check failed, caused by lhs at <root>.body.value.value:\n"
        "# from tvm.script import tir as T\n\n"
        "@T.prim_func\n"
        'def one(A: T.Buffer((4,), "float32")):\n'
        "    A[0] = T.float32(1.0)\n"
        "           ^^^^^^^^^^^^^^\n"
        "and rhs at <root>.body.value.value:\n"
        "# from tvm.script import tir as T\n\n"
        "@T.prim_func\n"
        'def two(A: T.Buffer((4,), "float32")):\n'
        "    A[0] = T.float32(2.0)\n"
        "           ^^^^^^^^^^^^^^"
    )
    assert tvm.testing.assert_structural_equal is tvm.ir.assert_structural_equal


def test_assert_prim_expr_equal_simplifies_both_sides():
    x = tvm.tir.Var("x", "int32")
    tvm.testing.assert_prim_expr_equal(x + 0, x)
    with pytest.raises(ValueError):
        tvm.testing.assert_prim_expr_equal(x + 1, x)


class TestSimplifyFoldsAnAddOfZero(tvm.testing.CompareBeforeAfter):
    transform = tvm.tir.transform.Simplify()

    @T.prim_func
    def before(A: T.Buffer((4,), "int32")):
        for i in range(4):
            A[i] = i + 0

    @T.prim_func
    def expected(A: T.Buffer((4,), "int32")):
        for i in range(4):
            A[i] = i


class TestCompareBeforeAfterTakesATransformMethod(tvm.testing.CompareBeforeAfter):
    def transform(self):
        return tvm.tir.transform.Simplify()

    @T.prim_func
    def before(A: T.Buffer((4,), "int32")):
        A[0] = 2 * 3

    @T.prim_func
    def expected(A: T.Buffer((4,), "int32")):
        A[0] = 6


def test_compare_before_after_fails_when_the_transform_gives_something_else(tmp_path):
    path = tmp_path / "test_wrong.py"
    path.write_text(
        "import tvm, tvm.testing\n"
        "from tvm.script import tir as T\n"
        "class TestWrong(tvm.testing.CompareBeforeAfter):\n"
        "    transform = tvm.tir.transform.Simplify()\n"
        "    @T.prim_func\n"
        "    def before(A: T.Buffer((4,), 'int32')):\n"
        "        A[0] = 1\n"
        "    @T.prim_func\n"
        "    def expected(A: T.Buffer((4,), 'int32')):\n"
        "        A[0] = 2\n"
        "if __name__ == '__main__':\n"
        "    tvm.testing.main()\n"
    )
    done = subprocess.run(
        [sys.executable, str(path), "-q", "-p", "no:cacheprovider"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed" in done.stdout and "root" in done.stdout


size = tvm.testing.parameter(1, 4)


def test_parameter_runs_a_test_once_per_value(size):
    assert size in (1, 4)


@tvm.testing.fixture
def doubled(size):
    return size * 2


def test_fixtures_built_from_parameters(doubled, size):
    assert doubled == 2 * size


def test_requires_marks_skip_where_the_device_or_backend_is_missing():
    def needs_a_device():
        pass

    def needs_llvm():
        pass

    for func in (tvm.testing.requires_cuda(needs_a_device), tvm.testing.requires_llvm(needs_llvm)):
        (mark,) = func.pytestmark
        assert mark.name == "skipif" and mark.kwargs["reason"].startswith("needs ")
