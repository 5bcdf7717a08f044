"""Backend autoload: throwaway distributions with `tvm.backends` entry points, fresh processes."""

from __future__ import annotations

import json

import pytest
from conftest import check_ok, make_dist, run_python

COUNTING_BACKEND = """
CALLS = []

def load():
    CALLS.append(1)
    return "ready"
"""

# Runs `import tvm` with warnings recorded, then prints calls, states and warning texts as JSON.
REPORT = """
import json, warnings
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    import tvm
    import tvm  # a second import must not load anything again
{extra}
import sys
calls = {{name: len(sys.modules[name].CALLS) for name in {modules!r} if name in sys.modules}}
states = {{b.name: b.state for b in tvm.backend.list_backends()}}
texts = [str(w.message) for w in caught if issubclass(w.category, tvm.backend.BackendLoadWarning)]
print(json.dumps({{"calls": calls, "states": states, "warnings": texts}}))
"""


def report(site, modules=(), extra="", env=None):
    """Run REPORT; states are kept only for the backends declared in `site` (the machine may
    have real backends installed)."""
    proc = run_python(REPORT.format(modules=list(modules), extra=extra), site, env=env)
    out = json.loads(check_ok(proc).strip().splitlines()[-1])
    ours = {
        line.split("=")[0].strip()
        for f in site.glob("*.dist-info/entry_points.txt")
        for line in f.read_text().splitlines()
        if "=" in line
    }
    out["states"] = {name: state for name, state in out["states"].items() if name in ours}
    return out


def test_good_backend_is_called_exactly_once(site):
    make_dist(
        site, "good-backend", {"good": "good_backend:load"}, {"good_backend": COUNTING_BACKEND}
    )
    out = report(site, ["good_backend"])
    assert out["calls"] == {"good_backend": 1}
    assert out["states"]["good"] == "loaded"
    assert out["warnings"] == []


def test_raising_backend_warns_with_name_entry_point_error_and_location(site):
    make_dist(
        site,
        "raising-backend",
        {"raiser": "raising_backend:load"},
        {
            "raising_backend": """
            def load():
                raise ValueError("no such accelerator")
        """
        },
    )
    out = report(site)
    assert out["states"]["raiser"] == "failed"
    [text] = out["warnings"]
    assert "'raiser'" in text and "raising_backend:load" in text and "raising-backend" in text
    assert "ValueError: no such accelerator" in text
    assert "raising_backend.py:3 in load" in text


def test_missing_module_warns_and_import_still_works(site):
    make_dist(site, "ghost", {"ghost": "ghost_module_that_is_not_there:load"})
    out = report(site, extra="    assert tvm.cpu(0).device_id == 0")
    [text] = out["warnings"]
    assert "'ghost'" in text and "ghost_module_that_is_not_there:load" in text
    assert "ModuleNotFoundError" in text
    assert "(while importing module 'ghost_module_that_is_not_there')" in text
    assert out["states"]["ghost"] == "failed"


def test_backend_module_with_missing_dependency_points_at_its_import_line(site):
    make_dist(
        site,
        "needsdep",
        {"needsdep": "needsdep_backend:load"},
        {
            "needsdep_backend": (
                "import os\nimport vendor_sdk_that_is_absent\n\ndef load():\n    pass\n"
            )
        },
    )
    [text] = report(site)["warnings"]
    assert "No module named 'vendor_sdk_that_is_absent'" in text
    assert "needsdep_backend.py:2 in <module>" in text


def test_backend_module_with_syntax_error(site):
    make_dist(site, "broken", {"broken": "broken_backend:load"}, {"broken_backend": "def load(:\n"})
    [text] = report(site)["warnings"]
    assert "SyntaxError" in text and "broken_backend.py:1" in text


def test_not_callable_entry_point_warns(site):
    make_dist(
        site, "notcall", {"notcall": "notcall_backend:VALUE"}, {"notcall_backend": "VALUE = 42\n"}
    )
    [text] = report(site)["warnings"]
    assert "'notcall'" in text and "notcall_backend:VALUE" in text
    assert "TypeError" in text and "names a int, not a callable" in text


def test_backend_calling_sys_exit_does_not_end_import(site):
    make_dist(
        site,
        "exiter",
        {"exiter": "exiter_backend:load"},
        {"exiter_backend": "import sys\n\ndef load():\n    sys.exit(3)\n"},
    )
    out = report(site, extra="    assert tvm.cpu(0).device_id == 0")
    [text] = out["warnings"]
    assert "'exiter'" in text and "SystemExit: 3" in text
    assert out["states"]["exiter"] == "failed"


def test_missing_attribute_warns(site):
    make_dist(
        site, "noattr", {"noattr": "noattr_backend:nothing.here"}, {"noattr_backend": "x = 1\n"}
    )
    [text] = report(site)["warnings"]
    assert "AttributeError" in text and "noattr_backend:nothing.here" in text


def test_backend_importing_tvm_again_is_called_once(site):
    make_dist(
        site,
        "reentrant",
        {"reentrant": "reentrant_backend:load"},
        {
            "reentrant_backend": """
            CALLS = []

            def load():
                CALLS.append(1)
                import tvm  # the partly imported package is complete by now
                from tvm import runtime
                assert runtime.cpu(0).device_id == 0
                tvm.backend.autoload()
                tvm.backend.load("reentrant")
        """
        },
    )
    out = report(site, ["reentrant_backend"])
    assert out["calls"] == {"reentrant_backend": 1}
    assert out["states"]["reentrant"] == "loaded"
    assert out["warnings"] == []


def test_one_failure_does_not_stop_the_others(site):
    make_dist(site, "a-good", {"agood": "a_good:load"}, {"a_good": COUNTING_BACKEND})
    make_dist(
        site, "b-bad", {"bbad": "b_bad:load"}, {"b_bad": "def load():\n    raise KeyError('x')\n"}
    )
    make_dist(site, "c-good", {"cgood": "c_good:load"}, {"c_good": COUNTING_BACKEND})
    out = report(site, ["a_good", "c_good"])
    assert out["calls"] == {"a_good": 1, "c_good": 1}
    assert out["states"] == {"agood": "loaded", "bbad": "failed", "cgood": "loaded"}
    assert len(out["warnings"]) == 1


@pytest.mark.parametrize("value", ["0", "false", "OFF"])
def test_env_var_disables_autoload_and_load_works_on_demand(site, value):
    make_dist(
        site, "good-backend", {"good": "good_backend:load"}, {"good_backend": COUNTING_BACKEND}
    )
    extra = """
    import sys
    assert "good_backend" not in sys.modules
    assert [b.state for b in tvm.backend.list_backends() if b.name == "good"] == ["disabled"]
    backend = tvm.backend.load("good")
    assert backend.result == "ready"
    tvm.backend.load("good")
    """
    out = report(site, ["good_backend"], extra=extra, env={"TVM_DEVICE_BACKEND_AUTOLOAD": value})
    assert out["calls"] == {"good_backend": 1}
    assert out["states"]["good"] == "loaded"


def test_load_reports_unknown_name_and_failure(site):
    make_dist(
        site,
        "raising-backend",
        {"raiser": "raising_backend:load"},
        {"raising_backend": "def load():\n    raise OSError('driver missing')\n"},
    )
    code = """
    import tvm
    try:
        tvm.backend.load("nope")
    except LookupError as err:
        print("lookup:", err)
    try:
        tvm.backend.load("raiser")
    except RuntimeError as err:
        print("failed:", err, "| cause:", type(err.__cause__).__name__)
    try:
        tvm.backend.load(3)
    except TypeError as err:
        print("type:", err)
    """
    out = check_ok(run_python(code, site, env={"TVM_DEVICE_BACKEND_AUTOLOAD": "0"}))
    lookup = next(line for line in out.splitlines() if line.startswith("lookup:"))
    assert (
        "tvm.backend.load: no backend named 'nope'" in lookup
        and "raiser" in lookup.split("found:")[1]
    )
    assert "failed: tvm.backend.load: backend 'raiser'" in out and "OSError: driver missing" in out
    assert "cause: OSError" in out
    assert "type: tvm.backend.load: argument 'name' must be a str" in out


def test_corrupt_native_library_warns_with_its_name(site):
    (site / "libcorrupt_backend.so").write_bytes(b"\x7fELF this is not a real shared library")
    make_dist(
        site,
        "corrupt",
        {"corrupt": "corrupt_backend:load"},
        {
            "corrupt_backend": """
            import os
            import tvm.base

            def load():
                here = os.path.dirname(os.path.abspath(__file__))
                tvm.base.load_backend_libs([os.path.join(here, "libcorrupt_backend.so")])
        """
        },
    )
    out = report(site, extra="    assert tvm.runtime.empty((2,), 'float32').shape == (2,)")
    [text] = out["warnings"]
    assert "'corrupt'" in text and "libcorrupt_backend.so" in text and "OSError" in text
    assert out["states"]["corrupt"] == "failed"


def test_duplicate_backend_name_keeps_the_first(site):
    make_dist(site, "first-dist", {"dup": "first_mod:load"}, {"first_mod": COUNTING_BACKEND})
    make_dist(site, "second-dist", {"dup": "second_mod:load"}, {"second_mod": COUNTING_BACKEND})
    out = report(site, ["first_mod", "second_mod"])
    assert out["calls"] == {"first_mod": 1}
    [text] = out["warnings"]
    assert "second_mod:load" in text and "first-dist" in text
