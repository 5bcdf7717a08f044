"""Call-path, tensor and container timings of tvm_ffi, side by side with a reference build.

Runs the same measurements in this interpreter (our tvm_ffi) and, when the environment
variable TVM_BENCH_REFERENCE_PYTHON names another interpreter (one with the reference
package installed under the same import name), in that one too, then prints both with
their ratio. Figures are the minimum over repeats, in nanoseconds per operation.
"""

import json
import os
import subprocess
import sys
import timeit

REPEAT = 7


def per_call_ns(stmt, env, number):
    best = min(timeit.repeat(stmt, globals=env, number=number, repeat=REPEAT))
    return best / number * 1e9


def import_ms(python):
    code = "import time; t = time.perf_counter(); import tvm_ffi; print(time.perf_counter() - t)"
    runs = [float(subprocess.check_output([python, "-c", code], text=True)) for _ in range(7)]
    return min(runs) * 1e3


def cached_load_inline_ms():
    """A second tvm_ffi.cpp.load_inline of the same source: must hit the cache, not the compiler."""
    import tempfile

    import tvm_ffi.cpp

    src = "int add(int a, int b) { return a + b; }"
    with tempfile.TemporaryDirectory() as cache:
        os.environ["TVM_FFI_CACHE_DIR"] = cache
        try:
            tvm_ffi.cpp.load_inline("bench_cached", cpp_sources=src, functions="add")
        except RuntimeError:  # no compiler here: no figure
            return None
        env = {"load": tvm_ffi.cpp.load_inline, "src": src}
        return per_call_ns('load("bench_cached", cpp_sources=src, functions="add")', env, 20) / 1e6


def measure():
    import numpy as np
    import tvm_ffi

    get = tvm_ffi.get_global_func
    env = {
        "nop": get("testing.nop"),
        "apply": get("testing.apply"),
        "echo": get("testing.echo"),
        "callback": lambda: None,
        "wrapped": tvm_ffi.convert(lambda: None),
        "arr": np.zeros((4, 4), dtype="float32"),
        "from_dlpack": tvm_ffi.from_dlpack,
        "Array": tvm_ffi.Array,
        "Map": tvm_ffi.Map,
        "r1000": list(range(1000)),
        "d1000": {i: i for i in range(1000)},
    }
    env["a1000"] = tvm_ffi.Array(env["r1000"])
    out = {
        "nop()": per_call_ns("nop()", env, 200000),
        "nop(1)": per_call_ns("nop(1)", env, 200000),
        'nop(1, 2.0, "abc")': per_call_ns('nop(1, 2.0, "abc")', env, 200000),
        "apply(py callback)": per_call_ns("apply(callback)", env, 100000),
        "apply(converted callback)": per_call_ns("apply(wrapped)", env, 100000),
        "nop(numpy array)": per_call_ns("nop(arr)", env, 100000),
        "from_dlpack(numpy array)": per_call_ns("from_dlpack(arr)", env, 100000),
        "Array(range(1000))": per_call_ns("Array(r1000)", env, 2000),
        "list(Array of 1000)": per_call_ns("list(a1000)", env, 2000),
        "Map of 1000 ints": per_call_ns("Map(d1000)", env, 1000),
        "nop(dict of 1000 ints)": per_call_ns("nop(d1000)", env, 1000),
    }
    out["load_inline, cached (ms)"] = cached_load_inline_ms()
    try:
        import torch

        env["t"] = torch.zeros(4, 4)
        out["nop(torch tensor)"] = per_call_ns("nop(t)", env, 100000)
    except ImportError:
        pass
    out.update(measure_reflection())
    return out


TREE_NODES = 10000


def measure_reflection():
    """py_class construction and field access; structural equal/hash/JSON of a 10,000-node tree."""
    import tvm_ffi
    from tvm_ffi import Object
    from tvm_ffi.dataclasses import py_class
    from tvm_ffi.serialization import to_json_graph_str

    @py_class("bench.Point")
    class Point(Object):
        x: float
        y: float

    @py_class("bench.Node")
    class Node(Object):
        value: int
        kids: list

    def tree(size=TREE_NODES, start=0):
        # A node holding `size` nodes in all: itself and up to 4 subtrees of nearly equal size.
        rest, kids = size - 1, []
        for k in range(4):
            part = rest // (4 - k)
            if part:
                kids.append(tree(part, start + 1 + len(kids)))
            rest -= part
        return Node(start, kids)

    def count(n):
        return 1 + sum(count(k) for k in n.kids)

    a, b = tree(), tree()
    env = {
        "Point": Point,
        "p": Point(1.0, 2.0),
        "a": a,
        "b": b,
        "se": tvm_ffi.structural_equal,
        "sh": tvm_ffi.structural_hash,
        "tj": to_json_graph_str,
    }
    assert tvm_ffi.structural_equal(a, b)
    nodes = count(a)
    return {
        "py_class Point(1.0, 2.0)": per_call_ns("Point(1.0, 2.0)", env, 50000),
        "py_class field get p.x": per_call_ns("p.x", env, 200000),
        f"structural_equal({nodes} nodes)": per_call_ns("se(a, b)", env, 20),
        f"structural_hash({nodes} nodes)": per_call_ns("sh(a)", env, 20),
        f"to_json_graph_str({nodes} nodes)": per_call_ns("tj(a)", env, 3),
    }


def run(python):
    text = subprocess.check_output([python, os.path.abspath(__file__), "--measure"], text=True)
    result = json.loads(text)
    result["import tvm_ffi (ms)"] = import_ms(python)
    return result


def fmt(value, key):
    if value is None:
        return "-"
    return f"{value:.2f}" if key.endswith("(ms)") else f"{value:.0f}"


def main():
    if "--measure" in sys.argv:
        print(json.dumps(measure()))
        return
    ours = run(sys.executable)
    reference_python = os.environ.get("TVM_BENCH_REFERENCE_PYTHON")
    reference = run(reference_python) if reference_python else {}
    print("tvm-ffi benchmark (ns per call unless marked; min of repeats)")
    print(f"{'case':32} {'ours':>10} {'reference':>10} {'ref/ours':>9}")
    for key in ours:
        ref = reference.get(key)
        ratio = f"{ref / ours[key]:.2f}x" if ref and ours[key] else "-"
        print(f"{key:32} {fmt(ours[key], key):>10} {fmt(ref, key):>10} {ratio:>9}")


if __name__ == "__main__":
    main()
