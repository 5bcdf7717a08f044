"""bench_onnx.py's models in the reference venv: onnxruntime's CPU provider, best of N calls per
input shape; prints JSON {model: {shape: ms}}."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import onnxruntime as ort  # noqa: E402
from mlp_workload import best_ms  # noqa: E402
from onnx_models import BENCH_MODELS, bench_input  # noqa: E402


def main():
    results = {}
    for name, build, kwargs, shapes in BENCH_MODELS:
        sess = ort.InferenceSession(
            build(**kwargs).SerializeToString(), providers=["CPUExecutionProvider"]
        )
        results[name] = {}
        for shape in shapes:
            x = bench_input(shape)
            results[name][str(shape)] = best_ms(lambda x=x, sess=sess: sess.run(None, {"x": x}))
    print(json.dumps(results))


if __name__ == "__main__":
    main()
