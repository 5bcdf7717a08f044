"""Freeing million-deep nests (Array, Map, py_class chains) from Python: no stack overflow."""

import subprocess
import sys
import textwrap

import pytest

DEPTH = 1_000_000

# Runs in a child process: a crash there (SIGSEGV from a recursive free) fails the test here.
PRELUDE = f"""
import threading
import tvm_ffi
from tvm_ffi import Object
from tvm_ffi.dataclasses import py_class

DEPTH = {DEPTH}

@py_class("test_deep_free.Link")
class Link(Object):
    value: int
    next: Object

def in_small_stack_thread(body):
    # 1 MiB of C stack: releasing the nest must not need more than a fixed amount of it.
    errors = []
    def run():
        try:
            body()
        except BaseException as e:
            errors.append(e)
    old = threading.stack_size(1 << 20)
    try:
        t = threading.Thread(target=run)
        t.start()
    finally:
        threading.stack_size(old)
    t.join()
    if errors:
        raise errors[0]
"""


def run_child(body):
    code = PRELUDE + textwrap.dedent(body) + "\nprint('freed')\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"exit status {out.returncode}\n{out.stderr[-3000:]}"
    assert out.stdout.strip().endswith("freed"), out.stdout


@pytest.mark.parametrize(
    "build",
    [
        "nest = tvm_ffi.Array([nest])",
        "nest = tvm_ffi.Map({i: nest})",
        "nest = tvm_ffi.List([nest])",
        "nest = tvm_ffi.Dict({'k': nest})",
        "nest = Link(i, nest)",
    ],
    ids=["Array", "Map", "List", "Dict", "py_class"],
)
def test_freeing_a_million_deep_nest(build):
    run_child(
        f"""
        nest = tvm_ffi.Array([])
        for i in range(DEPTH):
            {build}
        del nest
        """
    )


def test_freeing_a_deep_nest_releases_the_innermost_object():
    # Only when the whole chain above it is destroyed is the innermost Array back to one owner.
    run_child(
        """
        use_count = tvm_ffi.get_global_func("testing.object_use_count")
        inner = tvm_ffi.Array([1, 2, 3])
        nest = inner
        for i in range(DEPTH):
            nest = tvm_ffi.Map({"next": tvm_ffi.Array([nest])})
        assert use_count(inner) == 2, use_count(inner)
        del nest
        assert use_count(inner) == 1, use_count(inner)
        assert list(inner) == [1, 2, 3]
        """
    )


def test_freeing_a_deep_nest_on_a_thread_with_a_small_stack():
    run_child(
        """
        def body():
            nest = tvm_ffi.Array([])
            for i in range(DEPTH):
                nest = tvm_ffi.Array([Link(i, nest)])
            del nest
        in_small_stack_thread(body)
        """
    )
