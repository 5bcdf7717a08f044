# T.allocate_const: constant data in a prim_func (tir.AllocateConst), its TVMScript form and C code.
import numpy as np
import pytest
import tvm
import tvm.testing
from tvm import tir
from tvm.script import from_source
from tvm.script import tir as T
from tvmscript_checks import assert_round_trip, rendered_error


@T.prim_func
def add_offsets(A: T.Buffer((2, 4), "float32"), C: T.Buffer((2, 4), "float32")):
    B = T.allocate_const([0.0, 0.5, 1.0, 1.5, 2.0, 2.5, -3.0, 0.25], "float32", [2, 4])
    B_buf = T.decl_buffer((2, 4), data=B)
    for i, j in T.grid(2, 4):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = A[vi, vj] + B_buf[vi, vj]


ADD_OFFSETS_TEXT = """# from tvm.script import tir as T

@T.prim_func
def add_offsets(A: T.Buffer((2, 4), "float32"), C: T.Buffer((2, 4), "float32")):
    # with T.block("root"):
    B = T.allocate_const([0.0, 0.5, 1.0, 1.5, 2.0, 2.5, -3.0, 0.25], "float32", [2, 4])
    B_buf = T.decl_buffer((2, 4), data=B)
    for i, j in T.grid(2, 4):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(A[vi, vj], B_buf[vi, vj])
            T.writes(C[vi, vj])
            C[vi, vj] = A[vi, vj] + B_buf[vi, vj]"""

OFFSETS = np.array([[0.0, 0.5, 1.0, 1.5], [2.0, 2.5, -3.0, 0.25]], "float32")


def test_allocate_const_parses_to_the_node_with_its_data():
    node = add_offsets.body.block.body  # inside the implicit root block
    assert isinstance(node, tir.AllocateConst) and node.dtype == "float32"
    assert [e.value for e in node.extents] == [2, 4]
    np.testing.assert_array_equal(node.data.numpy(), OFFSETS)
    assert isinstance(node.body, tir.DeclBuffer) and node.body.buffer.data is node.buffer_var


def test_allocate_const_prints_as_upstream_and_round_trips():
    assert_round_trip(add_offsets, ADD_OFFSETS_TEXT)


def test_structural_equality_compares_the_data():
    var = tir.Var("B", "handle")
    body = tir.Evaluate(0)
    a = tir.AllocateConst(var, "int32", [3], np.array([1, 2, 3], "int32"), body)
    same = tir.AllocateConst(
        tir.Var("C", "handle"), "int32", [3], np.array([1, 2, 3], "int32"), body
    )
    other = tir.AllocateConst(var, "int32", [3], np.array([1, 2, 4], "int32"), body)
    assert tvm.ir.structural_equal(a, same)
    assert not tvm.ir.structural_equal(a, other)
    assert tvm.ir.structural_hash(a) == tvm.ir.structural_hash(same)
    assert tvm.ir.structural_hash(a) != tvm.ir.structural_hash(other)


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "int64", "float64"])
def test_integer_and_double_constants_print_their_values_and_round_trip(dtype):
    @T.prim_func
    def lookup(A: T.Buffer((4,), "int32"), C: T.Buffer((4,), dtype)):
        table = T.allocate_const([3, 1, 4, 1, 5, 9], dtype, [6])
        t = T.decl_buffer((6,), dtype, data=table)
        for i in range(4):
            C[i] = t[A[i]]

    values = "3.0, 1.0, 4.0, 1.0, 5.0, 9.0" if dtype == "float64" else "3, 1, 4, 1, 5, 9"
    text = lookup.script()
    assert f'table = T.allocate_const([{values}], "{dtype}", [6])' in text
    tvm.ir.assert_structural_equal(from_source(text), lookup)
    lib = tvm.compile(lookup, target="c")
    ctype = {"int8": "int8_t", "int32": "int32_t", "uint16": "uint16_t", "int64": "int64_t"}
    assert f"static const {ctype.get(dtype, 'double')} table[6]" in lib.inspect_source()
    idx = np.array([5, 0, 2, 4], "int32")
    out = tvm.runtime.tensor(np.zeros(4, dtype))
    lib["lookup"](tvm.runtime.tensor(idx), out)
    np.testing.assert_array_equal(out.numpy(), np.array([3, 1, 4, 1, 5, 9], dtype)[idx])


@pytest.mark.parametrize(
    "dtype, values",
    [
        ("float32", [np.inf, -np.inf, np.nan, 1.5]),  # printed as "inf", "-inf", "nan"
        ("float16", [0.5, -2.0, 65504.0, np.inf]),
        ("uint64", [0, 2**63 + 5, 2**64 - 1, 7]),
    ],
)
def test_special_values_round_trip_and_compile(dtype, values):
    data = np.array(values, dtype)

    @T.prim_func
    def copy(C: T.Buffer((4,), dtype)):
        k = T.allocate_const(data, dtype, [4])
        kb = T.decl_buffer((4,), dtype, data=k)
        for i in range(4):
            C[i] = kb[i]

    text = copy.script()
    tvm.ir.assert_structural_equal(from_source(text), copy)
    out = tvm.runtime.tensor(np.zeros(4, dtype))
    tvm.compile(copy, target="c")["copy"](out)
    np.testing.assert_array_equal(out.numpy(), data)


def test_the_with_form_prints_when_the_constant_does_not_last_to_the_end():
    @T.prim_func
    def two(C: T.Buffer((2,), "int32")):
        with T.allocate_const([7, 8], "int32", [2]) as k:
            kb = T.decl_buffer((2,), "int32", data=k)
            C[0] = kb[0]
        C[1] = 5

    text = two.script()
    assert 'with T.allocate_const([7, 8], "int32", [2]) as k:' in text
    tvm.ir.assert_structural_equal(from_source(text), two)
    out = tvm.runtime.tensor(np.zeros(2, "int32"))
    tvm.compile(two, target="c")["two"](out)
    np.testing.assert_array_equal(out.numpy(), [7, 5])


def test_allocate_const_compiles_to_a_static_c_array_and_runs():
    lib = tvm.compile(add_offsets, target="c")
    source = lib.inspect_source()
    assert "static const float B[8] __attribute__((aligned(64))) = {" in source
    a = np.arange(8, dtype="float32").reshape(2, 4)
    c = tvm.runtime.tensor(np.zeros((2, 4), "float32"))
    lib["add_offsets"](tvm.runtime.tensor(a), c)
    np.testing.assert_array_equal(c.numpy(), a + OFFSETS)


def test_the_constructor_checks_its_arguments():
    var, body = tir.Var("B", "handle"), tir.Evaluate(0)
    with pytest.raises(ValueError, match=r"data has 3 elements, extents \[4\] hold 4"):
        tir.AllocateConst(var, "int32", [4], np.array([1, 2, 3], "int32"), body)
    with pytest.raises(TypeError, match="data has dtype int64, expected int32"):
        tir.AllocateConst(var, "int32", [3], np.array([1, 2, 3], "int64"), body)
    with pytest.raises(TypeError, match="data_or_idx must be a tvm.runtime.Tensor or a NumPy"):
        tir.AllocateConst(var, "int32", [3], [1, 2, 3], body)
    with pytest.raises(TypeError, match="buffer_var must be a handle Var"):
        tir.AllocateConst(tir.Var("x", "int32"), "int32", [1], np.array([1], "int32"), body)
    with pytest.raises(TypeError, match="dtype must be a scalar int, uint or float, got bool"):
        tir.AllocateConst(var, "bool", [1], np.array([True]), body)


HEAD = 'from tvm.script import tir as T\n@T.prim_func\ndef f(A: T.Buffer((4,), "int32")):\n'


def _rendered(body: str) -> str:
    return rendered_error(HEAD + body)


def test_bad_allocate_const_calls_are_diagnostics():
    assert _rendered('    B = T.allocate_const([1, "x"], "int32", [2])\n') == (
        "error: T.allocate_const: data must be a list of numbers, got an element 'x'\n"
        ' --> <string>:4:9\n   |\n 4 |     B = T.allocate_const([1, "x"], "int32", [2])\n'
        "   |         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^"
    )
    assert _rendered('    B = T.allocate_const([1, 300], "int8", [2])\n').startswith(
        "error: T.allocate_const: data does not convert to int8: "
    )
    assert _rendered('    B = T.allocate_const([1, 2], "int32", [3])\n').startswith(
        "error: T.allocate_const: data has 2 elements, extents [3] hold 3\n"
    )
    assert _rendered('    B = T.allocate_const([1, 2], "int32", 2)\n').startswith(
        "error: T.allocate_const: extents must be a list such as [4], got 2\n"
    )


@pytest.mark.parametrize("extents", [[1 << 32, 1 << 32], [1 << 62, 4], [-1, 0]])
def test_extents_whose_product_wraps_or_are_negative_are_refused(extents):
    # np.prod of these is 0 in int64, which an empty data array matched: the C array was 1
    # element while the function indexed it as 2**64.
    var, body = tir.Var("B", "handle"), tir.Evaluate(0)
    with pytest.raises(ValueError, match="AllocateConst: "):
        tir.AllocateConst(var, "float32", extents, np.zeros(0, "float32"), body)
    text = ", ".join(str(e) for e in extents)
    message = _rendered(f'    B = T.allocate_const([], "int32", [{text}])\n')
    assert message.startswith("error: T.allocate_const: ")
    assert "hold 0" not in message


if __name__ == "__main__":
    tvm.testing.main()
