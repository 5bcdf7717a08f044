"""The OpenMP defaults `import tvm` sets before any kernel loads, and that user settings win."""

import os
import subprocess
import sys

from tvm._openmp_env import SPIN_COUNT, apply_defaults


def test_short_spin_is_the_default_when_nothing_is_set():
    env = {}
    apply_defaults(env)
    assert env == {"GOMP_SPINCOUNT": SPIN_COUNT}


def test_explicit_wait_policy_or_spin_count_is_left_alone():
    for setting in ({"OMP_WAIT_POLICY": "active"}, {"GOMP_SPINCOUNT": "300000"}):
        env = dict(setting)
        apply_defaults(env)
        assert env == setting


def test_tvm_num_threads_sets_the_worker_count_unless_omp_num_threads_is_set():
    env = {"TVM_NUM_THREADS": "3"}
    apply_defaults(env)
    assert env["OMP_NUM_THREADS"] == "3"
    env = {"TVM_NUM_THREADS": "3", "OMP_NUM_THREADS": "1"}
    apply_defaults(env)
    assert env["OMP_NUM_THREADS"] == "1"


def test_import_tvm_applies_the_defaults_to_the_process_environment():
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    code = "import os, tvm; print(os.environ.get('GOMP_SPINCOUNT'))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == SPIN_COUNT


def test_a_tvm_num_threads_that_is_not_a_positive_integer_is_ignored_with_a_warning():
    import pytest

    for bad in ("garbage", "0", "-3", "2.5"):
        env = {"TVM_NUM_THREADS": bad}
        with pytest.warns(RuntimeWarning, match=f"TVM_NUM_THREADS='{bad}' is not a positive"):
            apply_defaults(env)
        assert "OMP_NUM_THREADS" not in env  # libgomp warned about OMP_NUM_THREADS
