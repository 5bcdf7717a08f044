"""bench_relax_mlp.py's MLP in the reference venv: onnxruntime, and apache-tvm 0.27's Relax
(untuned, tvm.compile + VirtualMachine); prints JSON {batch: {name: ms}}."""

import json
import time

import numpy as np

SIZES = (784, 512, 512, 10)
BATCHES = (1, 64)


def weights():
    rng = np.random.default_rng(0)
    return [
        (
            (rng.standard_normal((k, m)) / np.sqrt(k)).astype("float32"),
            rng.standard_normal(m).astype("float32"),
        )
        for k, m in zip(SIZES[:-1], SIZES[1:])
    ]


def best_ms(fn, repeat=30):
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def onnxruntime_runner(ws):
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    nodes, inits, cur = [], [], "x"
    for i, (w, b) in enumerate(ws):
        inits += [numpy_helper.from_array(w, f"w{i}"), numpy_helper.from_array(b, f"b{i}")]
        nodes += [
            helper.make_node("MatMul", [cur, f"w{i}"], [f"mm{i}"]),
            helper.make_node("Add", [f"mm{i}", f"b{i}"], [f"add{i}"]),
            helper.make_node("Relu", [f"add{i}"], [f"y{i}"]),
        ]
        cur = f"y{i}"
    graph = helper.make_graph(
        nodes,
        "mlp",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", SIZES[0]])],
        [helper.make_tensor_value_info(cur, TensorProto.FLOAT, ["n", SIZES[-1]])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    _ = onnx  # imported for its helpers
    return lambda x: sess.run(None, {"x": x})[0]


def tvm_runner(ws):
    import tvm
    from tvm import relax, tirx

    n = tirx.Var("n", "int64")
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorType((n, SIZES[0]), "float32"))
    params = [x]
    for i, (k, m) in enumerate(zip(SIZES[:-1], SIZES[1:])):
        params += [
            relax.Var(f"w{i}", relax.TensorType((k, m), "float32")),
            relax.Var(f"b{i}", relax.TensorType((m,), "float32")),
        ]
    with bb.function("main", params):
        with bb.dataflow():
            h = x
            for i in range(len(SIZES) - 1):
                h = bb.emit(relax.op.matmul(h, params[1 + 2 * i]))
                h = bb.emit(relax.op.add(h, params[2 + 2 * i]))
                h = bb.emit(relax.op.nn.relu(h))
            out = bb.emit_output(h)
        bb.emit_func_output(out)
    ex = tvm.compile(bb.get(), target="llvm")
    vm = relax.VirtualMachine(ex, tvm.cpu())
    args = [tvm.runtime.tensor(a) for pair in ws for a in pair]
    return lambda x: vm["main"](tvm.runtime.tensor(x), *args)


def main():
    ws = weights()
    runners = {}
    for name, make in (("onnxruntime", onnxruntime_runner), ("apache-tvm untuned", tvm_runner)):
        try:
            runners[name] = make(ws)
        except Exception as err:  # noqa: BLE001  (a missing reference is reported, not fatal)
            runners[name] = None
            print(f"{name}: {err}")
    figures = {}
    for batch in BATCHES:
        x = np.random.default_rng(batch).standard_normal((batch, SIZES[0])).astype("float32")
        figures[str(batch)] = {
            name: best_ms(lambda fn=fn, x=x: fn(x), repeat=10 if "tvm" in name else 50)
            for name, fn in runners.items()
            if fn is not None
        }
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
