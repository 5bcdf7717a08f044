"""The VM dispatch workload, shared by our benchmark and its apache-tvm reference run:
main(x, a, b) makes CALLS chained calls of a 1-element add kernel, ping-ponging a and b."""

import json
import statistics
import time

CALLS = 100


def add_module(tvm, te):
    a = te.placeholder((1,), "float32", name="A")
    b = te.placeholder((1,), "float32", name="B")
    c = te.compute((1,), lambda i: a[i] + b[i], name="C")
    return tvm.IRModule({"add": te.create_prim_func([a, b, c]).with_attr("global_symbol", "add")})


def build(ib):
    """main(x, a, b): a = x + x, then CALLS - 1 times dst = src + x; returns the last dst."""
    with ib.function("main", num_inputs=3, param_names=["x", "a", "b"]):
        ib.emit_call("add", args=[ib.r(0), ib.r(0), ib.r(1)])
        dst = 1
        for i in range(1, CALLS):
            src, dst = (1, 2) if i % 2 else (2, 1)
            ib.emit_call("add", args=[ib.r(src), ib.r(0), ib.r(dst)])
        ib.emit_ret(ib.r(dst))


def us_per_call(fn, args, calls=CALLS, repeat=7, number=300) -> float:
    """Best over `repeat` batches of `number` runs, in microseconds per call inside fn."""
    fn(*args)
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn(*args)
        samples.append((time.perf_counter() - start) / number / calls * 1e6)
    return min(samples), statistics.median(samples)


def report(**figures) -> str:
    return json.dumps(figures)
