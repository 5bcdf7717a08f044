"""bench_te_kernels.py's kernels built by apache-tvm 0.27 (LLVM, this CPU); runs in the
reference venv, prints {kernel: best seconds} as JSON."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import tvm  # noqa: E402
from te_kernels import measure  # noqa: E402
from tvm.target import codegen  # noqa: E402


def main():
    target = tvm.target.Target({"kind": "llvm", "mcpu": codegen.llvm_get_system_cpu()})
    results = measure(
        lambda mod: tvm.compile(mod, target=target)["main"],
        tvm.runtime.tensor,
        sys.argv[1:] or None,
    )
    print(json.dumps(results))


if __name__ == "__main__":
    main()
