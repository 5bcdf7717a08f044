"""tvm_ffi.utils.kwargs_wrapper and unpack_dataclass, checked against upstream's docs."""

import dataclasses
import inspect
from typing import NamedTuple

import pytest
import tvm_ffi
import tvm_ffi.utils
from tvm_ffi.core import MISSING
from tvm_ffi.utils.kwargs_wrapper import make_kwargs_wrapper, make_kwargs_wrapper_from_signature
from tvm_ffi.utils.unpack_dataclass import UNPACK, unpack_dataclass_to_tuple


def record(*args):
    return args


def test_wrapper_maps_keywords_and_defaults_to_positions():
    f = make_kwargs_wrapper(record, ["a", "b", "c", "d"], arg_defaults=(10, 20))
    assert f(1, 2) == (1, 2, 10, 20)
    assert f(1, 2, d=4) == (1, 2, 10, 4)
    assert f(d=4, c=3, b=2, a=1) == (1, 2, 3, 4)
    with pytest.raises(TypeError):
        f(1)  # b is required
    with pytest.raises(TypeError):
        f(1, 2, e=5)


def test_keyword_only_arguments_and_their_defaults():
    f = make_kwargs_wrapper(
        record, ["x"], kwonly_names=["debug", "timeout"], kwonly_defaults={"timeout": 30}
    )
    assert f(1, debug=True) == (1, True, 30)
    assert f(x=1, debug=False, timeout=5) == (1, False, 5)
    with pytest.raises(TypeError):
        f(1, True)  # keyword-only
    with pytest.raises(TypeError):
        f(1)  # debug is required
    params = inspect.signature(f).parameters
    assert params["debug"].kind is inspect.Parameter.KEYWORD_ONLY


def test_defaults_are_not_source_code():
    # None and bools are written in the signature; other defaults show as MISSING and are
    # looked up at call time, so any object (one with a hostile repr too) works as a default.
    class Evil:
        def __repr__(self):
            return "__import__('os').system('false')"

    evil = Evil()
    f = make_kwargs_wrapper(record, ["a", "b", "c", "d"], arg_defaults=(None, True, evil))
    params = inspect.signature(f).parameters
    assert params["b"].default is None and params["c"].default is True
    assert params["d"].default is MISSING
    assert f(0) == (0, None, True, evil)
    assert f(0, d=MISSING)[3] is evil


def test_prototype_metadata_is_copied():
    def add(a, b=1):
        """Adds."""

    f = make_kwargs_wrapper(record, ["a", "b"], (1,), prototype=add)
    assert f.__name__ == "add" and f.__doc__ == "Adds." and f.__wrapped__ is add


def test_wrapper_over_an_ffi_function():
    add_one = tvm_ffi.get_global_func("testing.add_one")
    f = make_kwargs_wrapper(add_one, ["x"])
    assert f(x=41) == 42


def test_from_signature():
    def proto(a, b=2, *, c, d=4, skip=None):
        pass

    f = make_kwargs_wrapper_from_signature(
        record, inspect.signature(proto), exclude_arg_names=["skip"]
    )
    assert f(1, c=3) == (1, 2, 3, 4)
    assert list(inspect.signature(f).parameters) == ["a", "b", "c", "d"]

    def star(a, *args):
        pass

    def kw(a, **kwargs):
        pass

    with pytest.raises(ValueError, match=r"\*args not supported"):
        make_kwargs_wrapper_from_signature(record, inspect.signature(star))
    with pytest.raises(ValueError, match=r"\*\*kwargs not supported"):
        make_kwargs_wrapper_from_signature(record, inspect.signature(kw))
    bad = inspect.Signature(
        [
            inspect.Parameter("a", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=1),
            inspect.Parameter("b", inspect.Parameter.POSITIONAL_OR_KEYWORD),
        ],
        __validate_parameters__=False,
    )
    with pytest.raises(ValueError, match="Required positional parameter 'b' cannot follow"):
        make_kwargs_wrapper_from_signature(record, bad)


@pytest.mark.parametrize(
    ("kwargs", "error", "text"),
    [
        ({"arg_names": ["a", "a"]}, ValueError, "Duplicate argument names"),
        ({"arg_names": ["class"]}, ValueError, "is a Python keyword"),
        ({"arg_names": ["a-b"]}, ValueError, "is not a valid Python identifier"),
        ({"arg_names": [1]}, TypeError, "Argument name must be a string, got int"),
        (
            {"arg_names": ["a"], "arg_defaults": [1]},
            TypeError,
            "arg_defaults must be a tuple, got list",
        ),
        (
            {"arg_names": ["a"], "arg_defaults": (1, 2)},
            ValueError,
            "arg_defaults has 2 values but only 1",
        ),
        (
            {"arg_names": ["a"], "kwonly_names": ["a"]},
            ValueError,
            "both positional and keyword-only",
        ),
        ({"arg_names": [], "kwonly_defaults": {"z": 1}}, ValueError, "Default provided for 'z'"),
        ({"arg_names": ["__i_target_func"]}, ValueError, "conflict with internal names"),
    ],
)
def test_bad_arguments_raise_clear_errors(kwargs, error, text):
    with pytest.raises(error, match=text):
        make_kwargs_wrapper(record, **kwargs)


@dataclasses.dataclass
class Inner:
    x: int
    tags: list


@dataclasses.dataclass
class Outer:
    name: str
    inner: Inner
    items: dict


class Pair(NamedTuple):
    a: object
    b: object


def test_unpack_dataclass_to_tuple():
    value = Outer("n", Inner(1, [Inner(2, [])]), {"k": Inner(3, [])})
    assert unpack_dataclass_to_tuple(value) == ("n", (1, [(2, [])]), {"k": (3, [])})
    leaf = object()
    assert unpack_dataclass_to_tuple(leaf) is leaf  # leaves are not copied
    pair = unpack_dataclass_to_tuple(Pair(Inner(1, []), 2))
    assert type(pair) is Pair and pair == Pair((1, []), 2)
    assert unpack_dataclass_to_tuple((Inner(1, []),)) == ((1, []),)
    assert UNPACK == "unpack"


def test_wrapper_unpacks_the_named_dataclass_arguments():
    f = make_kwargs_wrapper(record, ["cfg", "raw"], map_dataclass_to_tuple=["cfg"])
    assert f(Inner(1, []), Inner(2, [])) == ((1, []), Inner(2, []))


def test_utils_exposes_the_submodules():
    assert tvm_ffi.utils.kwargs_wrapper.make_kwargs_wrapper is make_kwargs_wrapper
    assert tvm_ffi.utils.unpack_dataclass.unpack_dataclass_to_tuple is unpack_dataclass_to_tuple
    with pytest.raises(AttributeError):
        tvm_ffi.utils.no_such_module  # noqa: B018
