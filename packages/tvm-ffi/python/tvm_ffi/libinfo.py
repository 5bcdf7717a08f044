"""Where the installed tvm-ffi keeps its shared library, headers and CMake package."""

import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def _existing(path, what):
    if not os.path.exists(path):
        raise RuntimeError(
            f"tvm_ffi.libinfo: cannot find {what} at {path}; is tvm-ffi installed correctly?"
        )
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


def find_source_path():
    """The installed package folder (what upstream calls the packaged source home)."""
    return _HERE


def find_python_helper_include_path():
    """The folder of headers Python-facing C++ helpers include (the same as find_include_path)."""
    return find_include_path()


def find_cython_lib():
    """Path of the native Python extension (tvm_ffi._core; upstream's Cython core)."""
    for name in sorted(os.listdir(_HERE)):
        if name.startswith("_core.") and name.endswith((".so", ".pyd")):
            return os.path.join(_HERE, name)
    raise RuntimeError(f"tvm_ffi.libinfo: cannot find the native module _core in {_HERE}")


def find_windows_implib():
    """Path of the Windows import library tvm_ffi.lib (only Windows builds have one)."""
    return _existing(os.path.join(_HERE, "lib", "tvm_ffi.lib"), "tvm_ffi.lib (a Windows-only file)")


def include_paths():
    """Every include folder a build against tvm-ffi needs (pass each with -I)."""
    return [find_include_path()]


def _library_names(target_name):
    return [
        f"lib{target_name}.so",
        f"{target_name}.so",
        f"lib{target_name}.dylib",
        f"{target_name}.dll",
    ]


def _find_package_library(func, package, target_name, extra_lib_paths):
    import importlib.util

    if not isinstance(package, str) or not isinstance(target_name, str):
        raise TypeError(f"{func}: arguments `package` and `target_name` must be str")
    folders = [os.fspath(p) for p in (extra_lib_paths or [])]
    spec = importlib.util.find_spec(package)
    if spec is not None and spec.submodule_search_locations:
        for root in spec.submodule_search_locations:
            folders += [root, os.path.join(root, "lib")]
    elif spec is not None and spec.origin:
        folders.append(os.path.dirname(spec.origin))
    for folder in folders:
        for name in _library_names(target_name):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                return path
    raise RuntimeError(
        f"{func}: cannot find library {target_name!r} of package {package!r}; searched {folders}"
    )


def load_lib_ctypes(package, target_name, mode, extra_lib_paths=None):
    """ctypes.CDLL of library `target_name` shipped by `package`; mode RTLD_LOCAL or RTLD_GLOBAL."""
    import ctypes

    modes = {"RTLD_LOCAL": ctypes.RTLD_LOCAL, "RTLD_GLOBAL": ctypes.RTLD_GLOBAL}
    if mode not in modes:
        raise ValueError(
            f"load_lib_ctypes: argument `mode` must be 'RTLD_LOCAL' or 'RTLD_GLOBAL', got {mode!r}"
        )
    return ctypes.CDLL(
        _find_package_library("load_lib_ctypes", package, target_name, extra_lib_paths), modes[mode]
    )


_KEPT_MODULES = []  # modules loaded with keep_module_alive: their code must never unload


def load_lib_module(package, target_name, keep_module_alive=True, extra_lib_paths=None):
    """The tvm_ffi Module of library `target_name` shipped by `package`."""
    from .module import load_module

    mod = load_module(
        _find_package_library("load_lib_module", package, target_name, extra_lib_paths)
    )
    if keep_module_alive:
        _KEPT_MODULES.append(mod)
    return mod
