# ci/summarize_tests.py adds up pytest and ctest closing lines from a CI log.
from __future__ import annotations

from summarize_tests import tally


def test_sums_pytest_and_ctest_results():
    log = [
        "============ 12 passed, 2 skipped in 3.10s ============",
        "=========== 1 failed, 4 passed, 1 error in 0.50s (0:00:00) ===========",
        "100% tests passed out of 7",
        "80% tests passed, 1 tests failed out of 5",
        "nox > Session lint was successful.",
    ]
    assert tally(log) == {"passed": 27, "failed": 3, "skipped": 2, "runs": 4}


def test_no_result_lines_means_no_runs():
    assert tally(["nox > Ran 0 sessions"]) == {"passed": 0, "failed": 0, "skipped": 0, "runs": 0}
