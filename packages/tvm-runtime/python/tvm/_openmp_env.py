"""The OpenMP settings compiled kernels start with, chosen before the first kernel loads."""

import os
import warnings

# libgomp's default wait policy spins each worker for about 300,000 iterations (around a
# millisecond here) after every parallel loop. In a process that also runs NumPy/OpenBLAS or
# PyTorch threads, those spinning workers take the cores the other pool needs: a 512^3 NumPy
# matmul interleaved with one of our parallel kernels ran 4-5x slower than the two apart.
# A short spin keeps back-to-back kernel calls from paying a futex wake-up each time and
# gives the cores back soon after.
SPIN_COUNT = "10000"


def apply_defaults(environ=os.environ) -> None:
    """Set the kernel threading defaults where the user has set nothing.

    ``TVM_NUM_THREADS`` (upstream's name) sets the worker count when ``OMP_NUM_THREADS`` is
    unset. The spin count applies only when neither ``OMP_WAIT_POLICY`` nor ``GOMP_SPINCOUNT``
    is set, so a user's explicit choice always wins. libgomp reads these once, when the first
    kernel library loads it, so this runs at ``import tvm``.
    """
    threads = environ.get("TVM_NUM_THREADS")
    if threads and "OMP_NUM_THREADS" not in environ:
        if threads.strip().isdigit() and int(threads) > 0:
            environ["OMP_NUM_THREADS"] = threads.strip()
        else:
            # libgomp would warn about OMP_NUM_THREADS, which the user never set
            warnings.warn(
                f"TVM_NUM_THREADS={threads!r} is not a positive integer; ignored (kernels use "
                "OpenMP's default thread count)",
                RuntimeWarning,
                stacklevel=2,
            )
    if "OMP_WAIT_POLICY" not in environ and "GOMP_SPINCOUNT" not in environ:
        environ["GOMP_SPINCOUNT"] = SPIN_COUNT
