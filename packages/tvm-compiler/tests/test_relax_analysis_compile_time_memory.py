# relax.analysis.computable_at_compile_time and estimate_memory_usage: results (and the report
# text, character for character) as apache-tvm 0.27 gives them for the same programs.
import pytest
import tvm
from tvm import relax, tir
from tvm.relax.analysis import computable_at_compile_time, estimate_memory_usage


def _names(vs):
    return [v.name_hint for v in vs]


def _weights_program(attrs):
    n = tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo((n, 4), "float32"))
    w = relax.Var("w", relax.TensorStructInfo((4, 4), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w], attrs=attrs):
        with bb.dataflow():
            lv = bb.emit(relax.op.add(w, w))
            lv1 = bb.emit(relax.op.multiply(lv, w))
            lv2 = bb.emit(relax.op.matmul(x, lv1))  # reads the run-time input
            gv = bb.emit_output(relax.op.add(lv2, lv2))
        bb.emit_func_output(gv)
    return bb.get()["main"]


def test_computable_at_compile_time():
    assert _names(computable_at_compile_time(_weights_program({"num_input": 1}))) == [
        "w",
        "lv",
        "lv1",
    ]
    # without num_input every parameter is a run-time input
    assert computable_at_compile_time(_weights_program(None)) == []


def test_binding_depending_only_on_weights_is_computable_even_if_impure():
    # apache-tvm 0.27 looks at what a binding reads, not at its purity
    w = relax.Var("w", relax.TensorStructInfo((2,), "float32"))
    x = relax.Var("x", relax.TensorStructInfo((2,), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x, w], attrs={"num_input": 1}, pure=False):
        bb.emit(relax.op.print(w, format="w"))
        y = bb.emit(relax.op.add(w, w))
        bb.emit_func_output(y)
    assert _names(computable_at_compile_time(bb.get()["main"])) == ["w", "gv", "gv1"]


def test_computable_bad_input():
    with pytest.raises(
        TypeError, match="computable_at_compile_time: func must be a relax Function"
    ):
        computable_at_compile_time(tvm.IRModule())


def _lowered_chain():
    x = relax.Var("x", relax.TensorStructInfo((2, 3), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        with bb.dataflow():
            y = bb.emit(relax.op.add(x, x))
            z = bb.emit(relax.op.multiply(y, y))
            u = bb.emit(relax.op.exp(z))
            w = bb.emit_output(relax.op.exp(u))
        bb.emit_func_output(w)
    seq = tvm.transform.Sequential(
        [relax.transform.LegalizeOps(), relax.transform.CallTIRRewrite()]
    )
    return seq(bb.get())


def test_estimate_memory_usage_before_and_after_planning():
    mod = _lowered_chain()
    assert estimate_memory_usage(mod) == (
        "Memory usage estimation:\n"
        "- Function main:\n"
        " * Without memory planning, there are 4 constant-size memory allocation(s) with total "
        "size 8.941e-08 GB.\n"
        " * With memory planning, there are 4 constant-size memory allocation(s) with total "
        "size 8.941e-08 GB.\n"
        " * Memory planning reduces constant memory size to 100.0%.\n"
    )
    planned = relax.transform.StaticPlanBlockMemory()(mod)
    assert estimate_memory_usage(planned) == (
        "Memory usage estimation:\n"
        "- Function main:\n"
        " * Without memory planning, there are 4 constant-size memory allocation(s) with total "
        "size 8.941e-08 GB.\n"
        " * With memory planning, there are 3 constant-size memory allocation(s) with total "
        "size 6.706e-08 GB.\n"
        " * Memory planning reduces constant memory size to 75.0%.\n"
    )
    # a lone function is reported as "foo"
    assert estimate_memory_usage(planned["main"]).startswith(
        "Memory usage estimation:\n- Function foo:\n"
    )


def test_estimate_memory_usage_dynamic_and_empty():
    n = tir.Var("n", "int64")
    x = relax.Var("x", relax.TensorStructInfo((n,), "float32"))
    bb = relax.BlockBuilder()
    with bb.function("main", [x]):
        bb.emit_func_output(bb.emit(relax.op.add(x, x)))
    seq = tvm.transform.Sequential(
        [relax.transform.LegalizeOps(), relax.transform.CallTIRRewrite()]
    )
    text = estimate_memory_usage(seq(bb.get()))
    assert (
        "there are 0 constant-size memory allocation(s) with total size 0.0 GB, and 1 "
        "dynamic-size allocation(s).\n" in text
    )
    assert "reduces" not in text  # nothing constant to compare
    assert estimate_memory_usage(tvm.IRModule()) == ""


def test_estimate_memory_usage_bad_input():
    with pytest.raises(
        TypeError, match="estimate_memory_usage: mod must be an IRModule or Function"
    ):
        estimate_memory_usage("main")
