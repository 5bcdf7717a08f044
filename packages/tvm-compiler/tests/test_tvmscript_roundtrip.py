# Every well-formed PrimFunc the schedule, te, TIR-transform and vectorize tests build prints,
# parses back structurally equal, and prints again to the same text.
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
SUITES = ["test_schedule*.py", "test_te*.py", "test_tir_*.py", "test_vectorize.py"]
SUITES += ["test_analysis.py", "test_transform.py"]


# It reruns whole test suites in a child: on a loaded 2-core machine that took over the
# session's 300 s per-test limit, so it has its own.
@pytest.mark.timeout(1200)
def test_every_function_the_test_suites_build_round_trips(tmp_path):
    report = tmp_path / "report.json"
    files = sorted(str(p) for pattern in SUITES for p in HERE.glob(pattern))
    env = dict(os.environ, TVMSCRIPT_ROUNDTRIP_REPORT=str(report))
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tvmscript_recorder", "-p", "no:cacheprovider"]
        + files,
        env=env,
        capture_output=True,
        text=True,
        timeout=1100,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(report.read_text())
    failures = result["failures"]
    assert not failures, f"{len(failures)} of {result['functions']} failed; first:\n" + (
        f"{failures[0]['text']}\n{failures[0]['error']}"
    )
    assert result["functions"] > 300  # the suites build hundreds of distinct functions
