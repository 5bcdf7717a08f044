# Adds up the pytest and ctest result lines of a CI log into one closing "N passed, N failed" line.
"""Usage: python ci/summarize_tests.py LOGFILE"""

from __future__ import annotations

import re
import sys

PYTEST_SUMMARY = re.compile(r"^=+ (.*) in [\d.]+s(?: \([^)]*\))? =+$")
PYTEST_COUNT = re.compile(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed)")
# "100% tests passed out of 7" or "80% tests passed, 1 tests failed out of 5"
CTEST_SUMMARY = re.compile(r"\d+% tests passed(?:, (\d+) tests? failed)? out of (\d+)")


def tally(lines) -> dict[str, int]:
    totals = {"passed": 0, "failed": 0, "skipped": 0, "runs": 0}
    for line in lines:
        line = line.strip()
        if match := PYTEST_SUMMARY.match(line):
            totals["runs"] += 1
            for count, kind in PYTEST_COUNT.findall(match.group(1)):
                key = {"error": "failed", "errors": "failed", "xpassed": "failed",
                       "xfailed": "passed"}.get(kind, kind)
                totals[key] += int(count)
        elif match := CTEST_SUMMARY.search(line):
            totals["runs"] += 1
            failed, total = int(match.group(1) or 0), int(match.group(2))
            totals["passed"] += total - failed
            totals["failed"] += failed
    return totals


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8", errors="replace") as log:
        totals = tally(log)
    print(f"test runs: {totals['runs']}")
    print(f"total: {totals['passed']} passed, {totals['failed']} failed, "
          f"{totals['skipped']} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
