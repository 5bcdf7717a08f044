"""tvm.runtime.convert and tvm.contrib.utils.tempdir, as upstream code uses them."""

import os

import pytest
import tvm.runtime
from tvm.contrib import utils


def test_runtime_convert_makes_ffi_values():
    arr = tvm.runtime.convert([1, 2, 3])
    assert list(arr) == [1, 2, 3] and type(arr).__name__ == "Array"


def test_contrib_tempdir(tmp_path):
    with utils.tempdir() as temp:
        path = temp.relpath("f.txt")
        with open(path, "w") as f:
            f.write("x")
        assert temp.listdir() == ["f.txt"]
        folder = temp.path
    assert not os.path.exists(folder)
    kept = utils.tempdir(custom_path=tmp_path / "mine")
    kept.remove()
    assert (tmp_path / "mine").is_dir()  # a folder the caller named is never deleted
    with pytest.raises(TypeError, match="argument 'name' must be a str"):
        kept.relpath(3)
