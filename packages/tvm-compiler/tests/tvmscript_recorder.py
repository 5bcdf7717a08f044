# A pytest plugin: records every PrimFunc the tests build, then round-trips each through
# TVMScript (print, from_source, structural equality, print again) and writes a report.
import json
import os
import traceback

import tvm.tir.function as _function

_SEEN: dict = {}


def _record(func):
    try:
        key = func.structural_hash()
    except Exception:  # noqa: BLE001  (a half-built function is not ours to judge)
        return
    _SEEN.setdefault(key, func)


def pytest_configure(config):
    cls = _function.PrimFunc
    init, with_fields = cls.__init__, cls.with_fields

    def recording_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        _record(self)

    def recording_with_fields(self, **changes):
        new = with_fields(self, **changes)
        if new is not self:
            _record(new)
        return new

    cls.__init__ = recording_init
    cls.with_fields = recording_with_fields


def pytest_sessionfinish(session, exitstatus):
    import tvm
    from tvm.script import from_source
    from tvm.tir.analysis.well_formed import verify_well_formed

    # Functions a test builds ill-formed on purpose (a variable bound twice) have no text.
    funcs = [f for f in _SEEN.values() if _well_formed(verify_well_formed, f)]
    failures = []
    for func in funcs:
        text = None
        try:
            text = func.script()
            again = from_source(text)
            tvm.ir.assert_structural_equal(func, again)
            if again.script() != text:
                raise AssertionError("printing the parsed function gives other text")
            # And through tvm.ir.save_json / load_json.
            tvm.ir.assert_structural_equal(func, tvm.ir.load_json(tvm.ir.save_json(func)))
        except Exception:  # noqa: BLE001
            failures.append({"text": text, "error": traceback.format_exc(limit=3)})
    with open(os.environ["TVMSCRIPT_ROUNDTRIP_REPORT"], "w") as out:
        json.dump({"functions": len(funcs), "failures": failures}, out)


def _well_formed(verify, func) -> bool:
    try:
        return verify(func, assert_mode=False)
    except Exception:  # noqa: BLE001
        return False
