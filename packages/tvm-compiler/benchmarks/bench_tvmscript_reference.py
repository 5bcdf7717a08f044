"""bench_tvmscript.py's texts in the reference venv (apache-tvm 0.27); prints JSON
{workload: {"parse": ms, "print": ms}}."""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from tvmscript_workload import figures  # noqa: E402

if __name__ == "__main__":
    import tvm
    import tvm.relax  # noqa: F401  (registers the relax dialect)
    import tvm.tirx  # noqa: F401  (registers the tirx dialect)

    print(json.dumps(figures(tvm.script.from_source, tir_module="tirx")))
