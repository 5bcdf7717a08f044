"""Where the installed tvm-ffi keeps its shared library, headers and CMake package."""

import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def _existing(path, what):
    if not os.path.exists(path):
        raise RuntimeError(f"tvm_ffi.libinfo: cannot find {what} at {path}; is tvm-ffi installed correctly?")
    return path


def find_libtvm_ffi():
    """Path of libtvm_ffi.so."""
    return _existing(os.path.join(_HERE, "lib", "libtvm_ffi.so"), "libtvm_ffi.so")


def find_lib_path():
    """The folder holding libtvm_ffi.so."""
    return os.path.dirname(find_libtvm_ffi())


def find_include_path():
    """The folder that holds tvm_ffi/c_api.h (pass it with -I)."""
    return _existing(os.path.join(_HERE, "include"), "the tvm-ffi headers")


def find_dlpack_include_path():
    """The folder holding tvm_ffi/dlpack.h (the same as find_include_path)."""
    return find_include_path()


def find_cmake_path():
    """The folder holding tvm_ffiConfig.cmake (for -Dtvm_ffi_DIR=...)."""
    return _existing(os.path.join(_HERE, "lib", "cmake", "tvm_ffi"), "the tvm-ffi CMake package")
