"""run_with_gpu_lock: serialize tests that use one machine-local GPU across parallel workers."""

import getpass
import os
import tempfile
from pathlib import Path

from ..utils import FileLock

# TVM_FFI_TEST_LOCK_DIR names a directory every cooperating process shares; by default one per
# user under the temporary directory, so users sharing a host do not fight over permissions.
_LOCK_DIR_ENV_VAR = "TVM_FFI_TEST_LOCK_DIR"
_GPU_LOCK_PATH = None  # resolved on the first call


def _gpu_lock_path():
    override = os.environ.get(_LOCK_DIR_ENV_VAR)
    if override:
        lock_dir = Path(override).expanduser()
    else:
        try:
            user = getpass.getuser()
        except Exception:  # no login name: the uid, as upstream does
            user = str(os.getuid()) if hasattr(os, "getuid") else "unknown"
        lock_dir = Path(tempfile.gettempdir()) / f"tvm-ffi-test-locks-{user}"
    lock_dir.mkdir(parents=True, exist_ok=True)
    return lock_dir / "gpu.lock"


def run_with_gpu_lock(func, /, *args, **kwargs):
    """Call ``func(*args, **kwargs)`` while holding the machine-local GPU lock; its result.

    Put the whole live-device part of a test in ``func`` (allocation, launches, sync, checks)
    and keep compilation outside, so parallel test workers serialize only on the GPU.
    """
    global _GPU_LOCK_PATH
    if _GPU_LOCK_PATH is None:
        _GPU_LOCK_PATH = _gpu_lock_path()
    with FileLock(str(_GPU_LOCK_PATH)):
        return func(*args, **kwargs)
