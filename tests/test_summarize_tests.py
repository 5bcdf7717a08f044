# ci/summarize_tests.py adds up the JUnit XML files of pytest and ctest runs.
from __future__ import annotations

from summarize_tests import main, tally

PYTEST_XML = """<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest"
errors="0" failures="1" skipped="1" tests="4"><testcase classname="tests.test_a" name="test_ok"/>
<testcase classname="tests.test_a" name="test_ok2"/>
<testcase classname="tests.test_a" name="test_bad"><failure message="assert 1 == 2"/></testcase>
<testcase classname="tests.test_a" name="test_skip"><skipped message="no torch"/></testcase>
</testsuite></testsuites>"""
COLLECTION_ERROR_XML = """<testsuites><testsuite name="pytest" errors="1" failures="0"
skipped="0" tests="0"></testsuite></testsuites>"""
CTEST_XML = """<?xml version="1.0" encoding="UTF-8"?><testsuite name="host" tests="3" failures="1"
disabled="0" skipped="0"><testcase name="any_test" classname="any_test" status="run"/>
<testcase name="map_test" classname="map_test" status="fail"><failure message="Failed"/></testcase>
<testcase name="obj_test" classname="obj_test" status="run"/></testsuite>"""


def test_sums_pytest_and_ctest_files_and_names_the_failures(tmp_path):
    (tmp_path / "tests-tvm-ffi.pytest.xml").write_text(PYTEST_XML)
    (tmp_path / "tests-tvm-ffi.ctest.xml").write_text(CTEST_XML)
    (tmp_path / "integration.pytest.xml").write_text(COLLECTION_ERROR_XML)
    totals, failed = tally(tmp_path)
    assert totals == {"passed": 4, "failed": 3, "skipped": 1, "runs": 3}
    assert failed == [
        "integration.pytest: pytest (error outside the tests)",
        "tests-tvm-ffi.ctest: map_test::map_test",
        "tests-tvm-ffi.pytest: tests.test_a::test_bad",
    ]


def test_a_folder_without_results_is_an_error(tmp_path, capsys):
    assert main([str(tmp_path)]) == 2
    assert "test runs: 0" in capsys.readouterr().out
