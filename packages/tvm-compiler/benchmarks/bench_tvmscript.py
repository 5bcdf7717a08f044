"""TVMScript speed: parse (tvm.script.from_source) and print (func.script()) a TIR function
of 1,000 statements and a Relax function of 1,000 bindings, next to apache-tvm 0.27 on the
same text in the reference venv (goal: <= 100 ms each way). Figures are printed, never
asserted."""

import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from tvmscript_workload import SIZE, figures  # noqa: E402


def reference_figures() -> dict:
    python = os.environ.get("TVM_BENCH_REFERENCE_PYTHON")
    if not python:
        return {"error": "not measured (TVM_BENCH_REFERENCE_PYTHON unset)"}
    script = os.path.join(os.path.dirname(__file__), "bench_tvmscript_reference.py")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # its own tvm only
    proc = subprocess.run([python, script], capture_output=True, text=True, timeout=900, env=env)
    if proc.returncode != 0:
        return {"error": f"failed: {proc.stderr.strip().splitlines()[-1:]}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main():
    import tvm.script

    ours = figures(tvm.script.from_source)
    ref = reference_figures()
    print(f"TVMScript, {SIZE} statements / bindings (best of 3, ms)")
    for name, ms in ours.items():
        for way in ("parse", "print"):
            line = f"  {name:5} {way:5}  ours {ms[way]:8.1f}"
            if "error" not in ref:
                theirs = ref[name][way]
                line += f"   apache-tvm 0.27 {theirs:8.1f}   ratio {ms[way] / theirs:5.2f}x"
            print(line)
    if "error" in ref:
        print(f"  reference: {ref['error']}")


if __name__ == "__main__":
    main()
