"""The named constants vm_link(params=...) embeds beside the bytecode: their versioned binary
form, and the initialisation of external modules that ask for them by name (a module with
get_symbol / get_const_vars gets `__init_<symbol>(tensors)`, as apache-tvm's const loader does).
"""

from __future__ import annotations

import ctypes

import tvm_ffi

from .serialize import _read_const, _Reader, _write_const, _Writer

# The library functions handing out the embedded constants (address and size of the blob).
PARAMS_SYMBOL = "__tvm_vm_params"
PARAMS_SIZE_SYMBOL = "__tvm_vm_params_size"
MAGIC = b"TVMSVMPR"
VERSION = 1


def check_params(who: str, params) -> dict:
    """params as {name: Tensor}; TypeError naming who for anything else."""
    from ..tensor import tensor

    if params is None:
        return {}
    if not hasattr(params, "items"):
        raise TypeError(
            f"{who}: argument 'params' must be a dict of name -> tensor, got "
            f"{type(params).__name__}"
        )
    out = {}
    for name, value in params.items():
        if not isinstance(name, str):
            raise TypeError(f"{who}: argument 'params' has a key {name!r} that is not a str")
        if not isinstance(value, tvm_ffi.Tensor):
            try:
                value = tensor(value)
            except (TypeError, ValueError) as err:
                raise TypeError(
                    f"{who}: argument 'params' entry {name!r} must be a tensor, got "
                    f"{type(value).__name__}"
                ) from err
        out[name] = value
    return out


def save_params(params: dict) -> bytes:
    w = _Writer()
    w.parts.append(MAGIC)
    w.u32(VERSION)
    w.i64(len(params))
    for name, value in params.items():
        w.str(name)
        _write_const(w, value)
    return b"".join(w.parts)


class _ParamsReader(_Reader):
    WHERE = "Executable: the embedded params"


def load_params(data) -> dict:
    r = _ParamsReader(bytes(data))
    magic = bytes(r.take(len(MAGIC), "the magic number"))
    if magic != MAGIC:
        raise ValueError(f"{r.WHERE}: the data starts with {magic!r}, expected {MAGIC!r}")
    version = r.u32("the format version")
    if version != VERSION:
        raise ValueError(
            f"{r.WHERE} have format version {version}, this tvm-runtime reads version "
            f"{VERSION}; rebuild the library with a matching tvm-compiler"
        )
    out = {}
    for _ in range(r.count("params", 9)):
        name = r.str("a param name")
        out[name] = _read_const(r)
    if r.pos != len(r.data):
        raise ValueError(f"{r.WHERE}: {len(r.data) - r.pos} bytes follow the last param")
    return out


def embedded_params(mod) -> dict:
    """The params a library written by vm_link embeds ({} when it has none)."""
    get = getattr(mod, "get_function", None)
    addr_fn = get(PARAMS_SYMBOL, allow_missing=True) if get else None
    size_fn = get(PARAMS_SIZE_SYMBOL, allow_missing=True) if get else None
    if addr_fn is None or size_fn is None:
        return {}
    address = addr_fn()
    address = address if isinstance(address, int) else ctypes.cast(address, ctypes.c_void_p).value
    return load_params(ctypes.string_at(address, int(size_fn())))


def init_submodules(who: str, modules, params: dict) -> None:
    """Call `__init_<symbol>` of each module that names the constants it needs (get_symbol,
    get_const_vars) with those constants, in that order; ValueError for a missing one."""
    for mod in modules:
        get = getattr(mod, "get_function", None)
        if get is None:
            continue
        symbol_fn = get("get_symbol", allow_missing=True)
        vars_fn = get("get_const_vars", allow_missing=True)
        if symbol_fn is None or vars_fn is None:
            continue
        symbol = str(symbol_fn())
        names = [str(n) for n in vars_fn()]
        missing = [n for n in names if n not in params]
        if missing:
            raise ValueError(
                f"{who}: module {symbol!r} needs the constants {missing}, which argument "
                f"'params' does not have (it has {sorted(params)})"
            )
        init = get(f"__init_{symbol}", allow_missing=True)
        if init is not None:
            init([params[n] for n in names])
