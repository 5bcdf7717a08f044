# The ONNX backend node tests shipped with the onnx package, run through from_onnx + tvm.compile
# + the Relax VM, one pytest case each, against onnx_conformance_xfail.txt (kept true both ways).
#
# By default a deterministic subset runs (about one case in SUBSET_EVERY = 16, chosen by a hash of
# the name); TVM_ONNX_CONFORMANCE=full runs all of them. `python test_onnx_conformance.py
# [--write] [--op=Mod,LRN] [names...]` runs cases outside pytest (all, those whose graph uses one of
# the ops, or those named), prints the tally and (with --write, whole runs only) rewrites the list.
from __future__ import annotations

import os
import pickle
import signal
import sys
import traceback
import zlib
from pathlib import Path

import numpy as np
import pytest

onnx = pytest.importorskip("onnx") if __name__ != "__main__" else __import__("onnx")

XFAIL_FILE = Path(__file__).with_name("onnx_conformance_xfail.txt")
SUBSET_EVERY = 16
CASE_TIMEOUT_S = 120
RTOL, ATOL = 1e-3, 1e-5
BFLOAT16_RTOL = 2**-6  # two bfloat16 ULPs, the tolerance onnx's runner uses for bfloat16
TARGET = "llvm"

# Inputs that ONNX models carry as shapes, axes or counts: the backend tests feed them as graph
# inputs, real exported models as initializers or Constant nodes. The harness moves such an
# input into the initializers (same values), so the op's semantics are tested with a static
# operand; a converter still refuses a truly run-time operand with OpNotImplemented.
SHAPE_OPERANDS = {
    "Reshape": (1,),
    "Expand": (1,),
    "Tile": (1,),
    "Slice": (1, 2, 3, 4),
    "Squeeze": (1,),
    "Unsqueeze": (1,),
    "Split": (1,),
    "Pad": (1, 2, 3),
    "TopK": (1,),
    "Resize": (1, 2, 3),
    "Upsample": (1,),
    "ConstantOfShape": (0,),
    "Range": (0, 1, 2),
    "OneHot": (1,),
    "CenterCropPad": (1,),
    "Col2Im": (1, 2),
    "AffineGrid": (1,),
    "DFT": (1, 2),
    "STFT": (1, 3),
    "MaxUnpool": (2,),
    "ReduceSum": (1,),
    "ReduceMean": (1,),
    "ReduceMax": (1,),
    "ReduceMin": (1,),
    "ReduceProd": (1,),
    "ReduceL1": (1,),
    "ReduceL2": (1,),
    "ReduceLogSum": (1,),
    "ReduceLogSumExp": (1,),
    "ReduceSumSquare": (1,),
    "Dropout": (1, 2),
    "Compress": (1,),
    "Trilu": (1,),
    "CumSum": (1,),
    "CumProd": (1,),
    "SequenceAt": (1,),
    "SequenceErase": (1,),
    "SequenceInsert": (2,),
    "SplitToSequence": (1,),
}


# Categories only running the compiled case can show (a conversion-only run cannot judge them).
RUN_CATEGORIES = ("compile-error", "runtime-error", "mismatch", "crash", "timeout")


def load_cases():
    import warnings

    from onnx.backend.test.loader import load_model_tests

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sorted(load_model_tests(kind="node"), key=lambda c: c.name)


def read_xfail_list(path: Path = XFAIL_FILE) -> dict[str, str]:
    """name -> "category: reason" from the list file (# comments, blank lines skipped)."""
    entries = {}
    if path.exists():
        for line in path.read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                name, _, reason = line.partition(" ")
                entries[name] = reason.strip()
    return entries


def freeze_shape_operands(model, inputs):
    """A copy of model whose shape-operand graph inputs are initializers holding their test
    values; returns it and the remaining (name, array) inputs in order."""
    from onnx import numpy_helper

    model = onnx.ModelProto.FromString(model.SerializeToString())
    graph = model.graph
    init_names = {t.name for t in graph.initializer}
    graph_inputs = [vi for vi in graph.input if vi.name not in init_names]
    values = {vi.name: arr for vi, arr in zip(graph_inputs, inputs)}
    frozen = set()
    for node in graph.node:
        for pos in SHAPE_OPERANDS.get(node.op_type, ()):
            if pos < len(node.input) and node.input[pos] in values:
                frozen.add(node.input[pos])
    for name in frozen:
        graph.initializer.append(numpy_helper.from_array(np.asarray(values[name]), name))
    keep = [vi for vi in graph.input if vi.name not in frozen]
    del graph.input[:]
    graph.input.extend(keep)
    rest = [(vi.name, values[vi.name]) for vi in graph_inputs if vi.name not in frozen]
    return model, rest


def _as_array(value):
    """Test data comes as NumPy arrays or, for some cases, as TensorProtos; a sequence as a
    list of them."""
    if isinstance(value, onnx.TensorProto):
        return onnx.numpy_helper.to_array(value)
    if isinstance(value, list):
        return [_as_array(v) for v in value]
    return value


def _flat(values):
    """Expected outputs with each sequence (a list) spliced in as its elements, the order the
    VM's nested tuples flatten to."""
    out = []
    for value in values:
        out.extend(_flat(value) if isinstance(value, list) else [value])
    return out


def _tvm_arg(value):
    """A test input as a VM argument: a tensor, or a list of them for a sequence input."""
    import tvm

    if isinstance(value, list):
        return [_tvm_arg(v) for v in value]
    return tvm.runtime.tensor(np.array(value, order="C"))


def _to_numpy(value):
    if hasattr(value, "numpy"):
        return [value.numpy()]
    if isinstance(value, (list, tuple)) or hasattr(value, "__len__"):
        out = []
        for item in value:
            out.extend(_to_numpy(item))
        return out
    return [np.asarray(value)]


def _ml(dtype) -> bool:
    """Whether a NumPy dtype is one of ml_dtypes' (bfloat16, float8/4, int4/2, ...)."""
    return dtype.type.__module__.startswith("ml_dtypes")


def compare(got, expected):
    """None when got matches expected (shapes, dtypes, values), else what differs."""
    if len(got) != len(expected):
        return f"{len(got)} outputs, expected {len(expected)}"
    for i, (g, e) in enumerate(zip(got, expected)):
        e = np.asarray(e)
        if g.shape != e.shape:
            return f"output {i}: shape {g.shape}, expected {e.shape}"
        if g.dtype != e.dtype:
            return f"output {i}: dtype {g.dtype}, expected {e.dtype}"
        # onnx's own backend runner (onnx.backend.test.runner) allows two bfloat16 ULPs there
        rtol = max(RTOL, BFLOAT16_RTOL) if e.dtype.name == "bfloat16" else RTOL
        if _ml(e.dtype):  # compared through a NumPy type that holds every value exactly
            wide = "int64" if e.dtype.name.startswith(("int", "uint")) else "float64"
            g, e = g.astype(wide), e.astype(wide)
        if e.dtype.kind in "fc":
            if not np.allclose(g, e, rtol=rtol, atol=ATOL, equal_nan=True):
                err = np.nanmax(np.abs(g.astype("float64") - e.astype("float64")))
                return f"output {i}: values differ (max abs error {err:.3g})"
        elif not np.array_equal(g, e):
            return f"output {i}: values differ"
    return None


def test_compare_allows_two_bfloat16_ulps_and_no_more():
    ml_dtypes = pytest.importorskip("ml_dtypes", reason="bfloat16 data needs ml_dtypes")
    bf16 = ml_dtypes.bfloat16
    expected = np.array([1.0, -0.5, 3.0], dtype=bf16)
    two_ulps = np.array([1.0 + 2 * 2**-7, -0.5, 3.0], dtype=bf16)  # 1 + 2**-6
    assert compare([two_ulps], [expected]) is None
    four_ulps = np.array([1.0 + 4 * 2**-7, -0.5, 3.0], dtype=bf16)
    assert "values differ" in compare([four_ulps], [expected])
    # float16 keeps rtol 1e-3: two of its ULPs at 1.0 (2**-9) are outside it
    half = np.array([1.0], "float16")
    assert "values differ" in compare([half + np.float16(2**-9)], [half])


def vm_available() -> bool:
    try:
        from tvm import relax
    except ImportError:
        return False
    return hasattr(relax, "VirtualMachine")


def run_case(case, from_onnx, execute: bool = True):
    """("pass", "") or (category, detail) for one node case."""
    import tvm
    from tvm.error import OpNotImplemented

    inputs, expected = ([_as_array(x) for x in values] for values in case.data_sets[0])
    model, rest = freeze_shape_operands(case.model, inputs)
    for array in [a for _, a in rest] + list(expected):
        dtype = getattr(array, "dtype", None)  # sequence and optional inputs have none
        if dtype is not None and (dtype.name == "object" or (dtype.kind == "V" and not _ml(dtype))):
            return "unsupported-dtype", f"test data of NumPy dtype {dtype} (no tvm tensor type)"
    # a sequence input's length and element shapes come from its test data (shape_dict), and
    # then the tensor inputs' shapes too, so that dims the ONNX types share by name agree
    shapes = {}
    if any(isinstance(a, list) for _, a in rest):
        for n, a in rest:
            shapes[n] = [list(np.shape(v)) for v in a] if isinstance(a, list) else np.shape(a)
    try:
        mod = from_onnx(model, shape_dict=shapes or None)
    except OpNotImplemented as err:
        text = str(err)
        if "element type" in text:
            return "unsupported-dtype", text
        if "computed at run time" in text:
            return "dynamic-operand", text
        if "attribute" in text:
            return "unsupported-attribute", text
        return "unsupported-op", text
    except Exception as err:  # noqa: BLE001  (the category is the point)
        return "convert-error", f"{type(err).__name__}: {err}"
    if not execute:
        return "pass", ""
    from tvm import relax

    try:
        ex = tvm.compile(mod, target=TARGET)
    except Exception as err:  # noqa: BLE001
        return "compile-error", f"{type(err).__name__}: {str(err)[:300]}"
    try:
        vm = relax.VirtualMachine(ex, tvm.cpu())
        args = [_tvm_arg(a) for _, a in rest]
        got = _to_numpy(vm["main"](*args))
    except Exception as err:  # noqa: BLE001
        return "runtime-error", f"{type(err).__name__}: {str(err)[:300]}"
    diff = compare(got, _flat(expected))
    return ("pass", "") if diff is None else ("mismatch", diff)


def run_isolated(fn, timeout: int = CASE_TIMEOUT_S):
    """fn() in a forked child, so a case that crashes or hangs cannot take the run with it."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read_fd)
        try:
            result = fn()
        except BaseException as err:  # noqa: BLE001
            result = ("harness-error", "".join(traceback.format_exception_only(err)).strip())
        with os.fdopen(write_fd, "wb") as out:
            pickle.dump(result, out)
        os._exit(0)
    os.close(write_fd)

    def on_alarm(signum, frame):
        os.kill(pid, signal.SIGKILL)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(timeout)
    try:
        with os.fdopen(read_fd, "rb") as inp:
            data = inp.read()
        _, status = os.waitpid(pid, 0)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    if data:
        return pickle.loads(data)
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
        return "timeout", f"no result within {timeout} s"
    return "crash", f"the case's process died (status {status})"


def graph_ops(graph) -> set[str]:
    """The op types a graph uses, its subgraphs' (If / Loop bodies) included."""
    ops = set()
    for node in graph.node:
        ops.add(node.op_type)
        for attr in node.attribute:
            if attr.HasField("g"):
                ops |= graph_ops(attr.g)
    return ops


def selected(name: str) -> bool:
    if os.environ.get("TVM_ONNX_CONFORMANCE", "") == "full":
        return True
    return zlib.crc32(name.encode()) % SUBSET_EVERY == 0


if __name__ != "__main__":
    _CASES = load_cases()
    _XFAIL = read_xfail_list()

    @pytest.fixture(scope="module")
    def _kernel_cache(tmp_path_factory):
        # one cache for the whole module: cases share many identical kernels
        return str(tmp_path_factory.mktemp("onnx-kernels"))

    @pytest.fixture(autouse=True)
    def _private_kernel_cache(_kernel_cache, monkeypatch):
        monkeypatch.setenv("TVM_STACK_KERNEL_CACHE", _kernel_cache)

    def test_xfail_list_names_real_cases():
        names = {c.name for c in _CASES}
        unknown = sorted(set(_XFAIL) - names)
        assert not unknown, f"{XFAIL_FILE.name} lists cases onnx does not have: {unknown[:10]}"
        for name, reason in _XFAIL.items():
            assert ":" in reason, f"{XFAIL_FILE.name}: {name} needs 'category: reason'"

    @pytest.mark.parametrize("case", [c for c in _CASES if selected(c.name)], ids=lambda c: c.name)
    def test_node_case(case):
        from tvm.relax.frontend.onnx import from_onnx

        execute = vm_available()
        status, detail = run_isolated(lambda: run_case(case, from_onnx, execute))
        listed = _XFAIL.get(case.name)
        if status == "pass" and listed and not execute and listed.startswith(RUN_CATEGORIES):
            pytest.skip(f"converts; listed as {listed.split(':')[0]}, which needs the Relax VM")
        if status == "pass":
            assert listed is None, (
                f"{case.name} passes now: remove it from {XFAIL_FILE.name} ({listed})"
            )
            return
        if listed is not None:
            pytest.xfail(f"{listed} [{status}: {detail[:200]}]")
        pytest.fail(f"{case.name}: {status}: {detail}")


def _main(argv):
    """Run every case (or those named) outside pytest; --write rewrites the expected-failure
    list from the results; prints the pass count and the count per category."""
    import collections

    from tvm.relax.frontend.onnx import from_onnx

    write = "--write" in argv
    names = [a for a in argv if not a.startswith("--")]
    ops = {op for a in argv if a.startswith("--op=") for op in a[5:].split(",") if op}
    if write and (names or ops):
        raise SystemExit("--write rewrites the whole list: run it without --op or names")
    cases = [c for c in load_cases() if not names or c.name in names]
    if ops:
        cases = [c for c in cases if graph_ops(c.model.graph) & ops]
    execute = vm_available()
    expected_fail = read_xfail_list()
    results = {}
    for i, case in enumerate(cases):
        results[case.name] = run_isolated(lambda case=case: run_case(case, from_onnx, execute))
        if names or ops:
            status, detail = results[case.name]
            listed = expected_fail.get(case.name)
            note = "" if (status == "pass") == (listed is None) else "  <- list disagrees"
            print(case.name, status, detail[:200], note, flush=True)
        elif i % 100 == 0:
            print(f"{i}/{len(cases)}", file=sys.stderr, flush=True)
    tally = collections.Counter(status for status, _ in results.values())
    print(f"passed {tally['pass']} of {len(cases)} (execute={execute})")
    now_pass = sorted(n for n, (st, _) in results.items() if st == "pass" and n in expected_fail)
    now_fail = sorted(
        n for n, (st, _) in results.items() if st != "pass" and n not in expected_fail
    )
    print(f"  listed but passing: {len(now_pass)} {' '.join(now_pass)}")
    print(f"  failing but not listed: {len(now_fail)} {' '.join(now_fail)}")
    for status, count in tally.most_common():
        print(f"  {status}: {count}")
    if write:
        lines = [
            "# ONNX backend node cases that do not pass yet: name, then category: reason.",
            "# Regenerate: python packages/tvm-compiler/tests/test_onnx_conformance.py --write",
        ]
        for name, (status, detail) in sorted(results.items()):
            if status != "pass":
                detail = " ".join(detail.split())[:160]
                lines.append(f"{name} {status}: {detail}")
        XFAIL_FILE.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    _main(sys.argv[1:])
