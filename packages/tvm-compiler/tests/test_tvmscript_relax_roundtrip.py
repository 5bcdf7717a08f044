# Every Relax function and module the Relax test suites build prints, parses back
# structurally equal, and prints again to the same text.
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent


# It reruns whole test suites in a child: on a loaded 2-core machine that took over the
# session's 300 s per-test limit, so it has its own.
@pytest.mark.timeout(1200)
def test_every_relax_module_the_test_suites_build_round_trips(tmp_path):
    report = tmp_path / "report.json"
    files = sorted(str(p) for p in HERE.glob("test_relax*.py"))
    env = dict(os.environ, TVMSCRIPT_ROUNDTRIP_REPORT=str(report))
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")])
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tvmscript_relax_recorder"]
        + ["-p", "no:cacheprovider", *files],
        env=env,
        capture_output=True,
        text=True,
        timeout=1100,
    )
    # The suites' own results are theirs to report; this test judges the round trip.
    assert report.exists(), done.stdout[-3000:] + done.stderr[-3000:]
    result = json.loads(report.read_text())
    failures = result["failures"]
    assert not failures, f"{len(failures)} of {result['items']} failed; first:\n" + (
        f"{failures[0]['text']}\n{failures[0]['error']}"
    )
    assert result["items"] > 80  # the suites build about a hundred distinct ones
