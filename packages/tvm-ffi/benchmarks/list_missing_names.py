"""Lists every public name of the reference tvm_ffi's modules that our tvm_ffi lacks.

Run with the interpreter that has our tvm_ffi; the reference interpreter (one with
apache-tvm-ffi installed under the same import name) comes from the environment variable
TVM_BENCH_REFERENCE_PYTHON or --reference. Both sides list, per public module (no path part
starting with "_"), the names in its ``__all__`` or else its non-underscore attributes,
leaving out what a module merely imported (other modules, typing helpers, stdlib classes).

    TVM_BENCH_REFERENCE_PYTHON=/path/to/python python list_missing_names.py [--module PREFIX]
"""

import argparse
import json
import os
import subprocess
import sys

# Runs inside either interpreter; prints {module: [public names]} as JSON on stdout.
_LISTER = r"""
import importlib, json, pkgutil, sys, types
import tvm_ffi

def is_own(value):
    if isinstance(value, types.ModuleType) or value is None:
        return False
    if value.__class__.__module__ in ("typing", "typing_extensions", "__future__"):
        return False
    if isinstance(value, (type, types.FunctionType, types.BuiltinFunctionType)):
        origin = getattr(value, "__module__", "") or ""
        return origin == "tvm_ffi" or origin.startswith("tvm_ffi.")
    return True

def public(mod):
    names = getattr(mod, "__all__", None)
    if names is None:
        names = [n for n, v in vars(mod).items() if not n.startswith("_") and is_own(v)]
    return sorted(set(names) - {"TYPE_CHECKING"})  # typing's flag, re-exported by accident

out = {}
names = ["tvm_ffi"] + [m.name for m in pkgutil.walk_packages(tvm_ffi.__path__, "tvm_ffi.")]
for name in names:
    if any(part.startswith("_") for part in name.split(".")):
        continue
    try:
        out[name] = public(importlib.import_module(name))
    except Exception as err:  # a module that cannot import counts as missing with its names
        out[name] = {"error": f"{type(err).__name__}: {err}"}
json.dump(out, sys.stdout)
"""


def list_names(python):
    done = subprocess.run([python, "-c", _LISTER], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"list_missing_names: {python} failed to list tvm_ffi:\n{done.stderr}")
    return json.loads(done.stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--reference",
        default=os.environ.get("TVM_BENCH_REFERENCE_PYTHON"),
        help="python with the reference tvm_ffi (default: $TVM_BENCH_REFERENCE_PYTHON)",
    )
    parser.add_argument("--module", default="tvm_ffi", help="only modules under this dotted prefix")
    args = parser.parse_args(argv)
    if not args.reference:
        parser.error("no reference interpreter: set TVM_BENCH_REFERENCE_PYTHON or pass --reference")
    theirs = list_names(args.reference)
    ours = list_names(sys.executable)
    total_missing = total_names = 0
    summary = []
    for module in sorted(theirs):
        if module != args.module and not module.startswith(args.module + "."):
            continue
        names = theirs[module]
        if isinstance(names, dict):  # the reference itself cannot import it: nothing to compare
            continue
        mine = ours.get(module)
        if mine is None or isinstance(mine, dict):
            missing = names
            why = "module missing" if mine is None else f"module fails to import: {mine['error']}"
        else:
            missing = sorted(set(names) - set(mine))
            why = ""
        total_names += len(names)
        total_missing += len(missing)
        if missing:
            print(f"{module}: {len(missing)}/{len(names)} missing {why}".rstrip())
            print("    " + ", ".join(missing))
        summary.append((module, len(names) - len(missing), len(names)))
    print()
    print("summary (module: ours/reference names)")
    for module, have, count in summary:
        print(f"  {module}: {have}/{count}")
    print(f"total: {total_names - total_missing}/{total_names} present, {total_missing} missing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
