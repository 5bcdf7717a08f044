# tvm.testing.parameter / parameters and the tvm.testing.plugin pytest plugin, run on an
# upstream-style test file in a child pytest.
import subprocess
import sys
import textwrap

import pytest
import tvm.testing

UPSTREAM_STYLE = textwrap.dedent(
    """
    import tvm.testing

    size, dtype = tvm.testing.parameters((16, "float32"), (512, "float16"))
    shape = tvm.testing.parameter((1,), (2, 3), ids=["one", "two"])
    mode = tvm.testing.parameter(by_dict={"fast": 1, "slow": 2})

    def test_sets(size, dtype):
        assert (size, dtype) in [(16, "float32"), (512, "float16")]

    def test_product(shape, mode):
        assert mode in (1, 2)

    class TestInClass:
        level = tvm.testing.parameter(0, 3)

        def test_level(self, level, size):
            assert level in (0, 3)
    """
)


def _pytest(tmp_path, *args):
    path = tmp_path / "test_upstream_style.py"
    path.write_text(UPSTREAM_STYLE)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args, str(path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )


def test_the_plugin_runs_each_value_set_once_and_each_parameter_value(tmp_path):
    listed = _pytest(tmp_path, "-p", "tvm.testing.plugin", "--collect-only")
    ids = sorted(line.split("::", 1)[1] for line in listed.stdout.splitlines() if "::" in line)
    assert ids == [
        "TestInClass::test_level[0-16]",  # size alone: its column of the value sets
        "TestInClass::test_level[0-512]",
        "TestInClass::test_level[3-16]",
        "TestInClass::test_level[3-512]",
        "test_product[one-fast]",
        "test_product[one-slow]",
        "test_product[two-fast]",
        "test_product[two-slow]",
        "test_sets[16-float32]",
        "test_sets[512-float16]",
    ], listed.stdout + listed.stderr
    ran = _pytest(tmp_path, "-p", "tvm.testing.plugin")
    assert ran.returncode == 0, ran.stdout + ran.stderr
    assert "10 passed" in ran.stdout


def test_without_the_plugin_a_parameters_fixture_says_to_load_it(tmp_path):
    ran = _pytest(tmp_path, "-k", "test_sets")
    assert ran.returncode != 0
    assert "load the tvm.testing.plugin pytest plugin" in ran.stdout


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: tvm.testing.parameters((1, 2), (3,)), TypeError, "tuple of the same length"),
        (lambda: tvm.testing.parameters(), TypeError, "each value set must be a tuple"),
        (lambda: tvm.testing.parameters((1,), ids=["a", "b"]), ValueError, "2 ids for 1 value"),
        (lambda: tvm.testing.parameter(1, by_dict={"a": 1}), TypeError, "either values"),
    ],
)
def test_bad_arguments_name_the_function(call, error, message):
    with pytest.raises(error, match=message):
        call()
