"""Keyword-argument wrappers for positional-only callables (FFI functions), made by generating
a plain Python function with the wanted signature, so a call costs one extra Python frame."""

from __future__ import annotations

import functools
import inspect
import keyword

from ..core import MISSING
from .unpack_dataclass import unpack_dataclass_to_tuple

# Names the generated code uses for itself; argument names may not take them.
_TARGET = "__i_target_func"
_MISSING_NAME = "__i_MISSING"
_DEFAULTS = "__i_arg_defaults"
_UNPACK_NAME = "__i_unpack"
_INTERNAL_NAMES = {_TARGET, _MISSING_NAME, _DEFAULTS, _UNPACK_NAME}


def _check_names(names, what):
    if len(set(names)) != len(names):
        raise ValueError(f"Duplicate {what.lower()} names found in: {names}")
    for name in names:
        if not isinstance(name, str):
            raise TypeError(f"{what} name must be a string, got {type(name).__name__}: {name!r}")
        if keyword.iskeyword(name):
            raise ValueError(
                f"Invalid {what.lower()} name: {name!r} is a Python keyword and cannot be "
                "used as a parameter name"
            )
        if not name.isidentifier():
            raise ValueError(
                f"Invalid {what.lower()} name: {name!r} is not a valid Python identifier"
            )


def _check_arguments(arg_names, arg_defaults, kwonly_names, kwonly_defaults):
    _check_names(arg_names, "Argument")
    if not isinstance(arg_defaults, tuple):
        raise TypeError(f"arg_defaults must be a tuple, got {type(arg_defaults).__name__}")
    if len(arg_defaults) > len(arg_names):
        raise ValueError(
            f"arg_defaults has {len(arg_defaults)} values but only {len(arg_names)} positional "
            "arguments"
        )
    _check_names(kwonly_names, "Keyword-only argument")
    for key in kwonly_defaults:
        if key not in kwonly_names:
            raise ValueError(
                f"Default provided for '{key}' which is not in kwonly_names: {kwonly_names}"
            )
    both = set(arg_names) & set(kwonly_names)
    if both:
        raise ValueError(f"Arguments cannot be both positional and keyword-only: {both}")
    clash = (set(arg_names) | set(kwonly_names)) & _INTERNAL_NAMES
    if clash:
        raise ValueError(
            f"Argument names conflict with internal names: {clash}. "
            'Please avoid using names starting with "__i_"'
        )


def _wrapper_source(arg_names, arg_defaults, kwonly_names, kwonly_defaults, unpacked):
    """The wrapper's source and the defaults it reads at call time.

    None and bool defaults are written into the signature; any other default is the MISSING
    sentinel there and is looked up when the call leaves it out, so no value's repr ever
    becomes source code.
    """
    defaults = dict(zip(arg_names[len(arg_names) - len(arg_defaults) :], arg_defaults))
    defaults.update(kwonly_defaults)
    params, call, runtime_defaults = [], [], {}

    def add(name):
        expr = name
        if name in defaults:
            value = defaults[name]
            if value is None or type(value) is bool:
                params.append(f"{name}={value!r}")
            else:
                params.append(f"{name}={_MISSING_NAME}")
                runtime_defaults[name] = value
                expr = f'{_DEFAULTS}["{name}"] if {name} is {_MISSING_NAME} else {name}'
        else:
            params.append(name)
        call.append(f"{_UNPACK_NAME}({expr})" if name in unpacked else expr)

    for name in arg_names:
        add(name)
    if kwonly_names:
        params.append("*")
        for name in kwonly_names:
            add(name)
    source = f"def wrapper({', '.join(params)}):\n    return {_TARGET}({', '.join(call)})\n"
    return source, runtime_defaults


def make_kwargs_wrapper(
    target_func,
    arg_names,
    arg_defaults=(),
    kwonly_names=None,
    kwonly_defaults=None,
    prototype=None,
    map_dataclass_to_tuple=None,
):
    """A function taking ``arg_names`` (positional or keyword) and ``kwonly_names`` (keyword
    only) that calls ``target_func`` with every argument positionally, in that order.

    ``arg_defaults`` are the defaults of the last positional arguments (right-aligned, as
    ``__defaults__``); ``kwonly_defaults`` maps keyword-only names to defaults (others are
    required). ``prototype``'s name, docstring, module, qualname and annotations are copied onto
    the wrapper. Arguments named in ``map_dataclass_to_tuple`` go through
    ``unpack_dataclass_to_tuple`` first. Bad names (keywords, non-identifiers, duplicates,
    names starting with ``__i_``) raise ValueError or TypeError.
    """
    kwonly_names = [] if kwonly_names is None else kwonly_names
    kwonly_defaults = {} if kwonly_defaults is None else kwonly_defaults
    unpacked = set(map_dataclass_to_tuple or ())
    _check_arguments(arg_names, arg_defaults, kwonly_names, kwonly_defaults)
    source, runtime_defaults = _wrapper_source(
        arg_names, arg_defaults, kwonly_names, kwonly_defaults, unpacked
    )
    # Only validated identifiers reach the source; default values stay out of it.
    env = {_TARGET: target_func, _MISSING_NAME: MISSING, _DEFAULTS: runtime_defaults}
    if unpacked:
        env[_UNPACK_NAME] = unpack_dataclass_to_tuple
    namespace = {}
    exec(source, env, namespace)
    wrapper = namespace["wrapper"]
    if prototype is not None:
        functools.update_wrapper(wrapper, prototype, updated=())
    return wrapper


def make_kwargs_wrapper_from_signature(
    target_func, signature, prototype=None, exclude_arg_names=None, map_dataclass_to_tuple=None
):
    """make_kwargs_wrapper with the parameters (and defaults) of an ``inspect.Signature``.

    Parameters named in ``exclude_arg_names`` are left out; ``*args`` and ``**kwargs`` are a
    ValueError, as is a required positional parameter after one with a default.
    """
    skip = set(exclude_arg_names or ())
    arg_names, arg_defaults, kwonly_names, kwonly_defaults = [], [], [], {}
    for name, param in signature.parameters.items():
        if name in skip:
            continue
        if param.kind == inspect.Parameter.VAR_POSITIONAL:
            raise ValueError("*args not supported in wrapper generation")
        if param.kind == inspect.Parameter.VAR_KEYWORD:
            raise ValueError("**kwargs not supported in wrapper generation")
        if param.kind == inspect.Parameter.KEYWORD_ONLY:
            kwonly_names.append(name)
            if param.default is not inspect.Parameter.empty:
                kwonly_defaults[name] = param.default
            continue
        arg_names.append(name)
        if param.default is not inspect.Parameter.empty:
            arg_defaults.append(param.default)
        elif arg_defaults:
            raise ValueError(
                f"Required positional parameter '{name}' cannot follow parameters with defaults"
            )
    return make_kwargs_wrapper(
        target_func,
        arg_names,
        tuple(arg_defaults),
        kwonly_names,
        kwonly_defaults,
        prototype,
        map_dataclass_to_tuple,
    )


__all__ = [
    "MISSING",
    "make_kwargs_wrapper",
    "make_kwargs_wrapper_from_signature",
    "unpack_dataclass_to_tuple",
]
