# Adds up the JUnit XML files that pytest and ctest wrote in CI into one "N passed, N failed" line.
"""Usage: python ci/summarize_tests.py FOLDER

FOLDER holds one JUnit XML file per test run (nox writes them to build/test-results/).
Prints the number of runs, the totals, and the failed tests by name; exits 0 (the CI
status comes from the runs themselves), or 2 when FOLDER holds no result at all.
"""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET
from pathlib import Path


def tally_file(path: Path) -> tuple[dict[str, int], list[str]]:
    """Totals of one JUnit XML file, and the names of its failed test cases."""
    totals = {"passed": 0, "failed": 0, "skipped": 0}
    failed = []
    root = ET.parse(path).getroot()
    for case in root.iter("testcase"):
        outcome = {child.tag for child in case}
        if outcome & {"failure", "error"}:
            totals["failed"] += 1
            failed.append(f"{path.stem}: {case.get('classname', '')}::{case.get('name', '')}")
        elif "skipped" in outcome:
            totals["skipped"] += 1
        else:
            totals["passed"] += 1
    # An error outside any test (a collection error) is counted by its suite only.
    for suite in root.iter("testsuite"):
        cases = sum(1 for _ in suite.iter("testcase"))
        if int(suite.get("errors", 0)) and not cases:
            totals["failed"] += int(suite.get("errors", 0))
            failed.append(f"{path.stem}: {suite.get('name', '')} (error outside the tests)")
    return totals, failed


def tally(folder: Path) -> tuple[dict[str, int], list[str]]:
    totals = {"passed": 0, "failed": 0, "skipped": 0, "runs": 0}
    failed = []
    for path in sorted(folder.glob("*.xml")):
        counts, names = tally_file(path)
        totals["runs"] += 1
        for key, value in counts.items():
            totals[key] += value
        failed += names
    return totals, failed


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    totals, failed = tally(Path(argv[0]))
    print(f"test runs: {totals['runs']}")
    print(
        f"total: {totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped"
    )
    for name in failed:
        print(f"failed: {name}")
    return 0 if totals["runs"] else 2


if __name__ == "__main__":
    sys.exit(main())
