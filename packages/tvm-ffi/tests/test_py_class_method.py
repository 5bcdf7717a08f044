"""tvm_ffi.method: @py_class methods join the type's reflected methods, callable through the FFI."""

import pytest
import tvm_ffi
import tvm_ffi.testing
from tvm_ffi import Object, method
from tvm_ffi.dataclasses import py_class
from tvm_ffi.registry import get_registered_type_keys


@py_class("test_method.Node")
class Node(Object):
    x: int

    @method
    def label(self, suffix: str = "") -> str:
        """The node's label."""
        return f"N({self.x}){suffix}"

    @method
    @staticmethod
    def make(x: int) -> "Node":
        return Node(x=x)

    def plain(self) -> int:  # not marked: stays Python-only
        return self.x


def _methods():
    return {m.name: m for m in Node.__tvm_ffi_type_info__.methods}


def test_marked_methods_are_reflected_and_callable_through_the_ffi():
    methods = _methods()
    assert "label" in methods and "make" in methods and "plain" not in methods
    assert not methods["label"].is_static and methods["make"].is_static
    assert methods["label"].doc == "The node's label."
    assert methods["label"].func(Node(x=7)) == "N(7)"
    assert methods["label"].func(Node(x=7), "!") == "N(7)!"
    made = methods["make"].func(3)
    assert isinstance(made, Node) and made.x == 3
    # From another FFI caller: a C++ function applying the reflected method.
    assert tvm_ffi.testing.apply(methods["label"].func, Node(x=1)) == "N(1)"


def test_python_calls_keep_the_python_function():
    node = Node(x=2)
    assert node.label() == "N(2)" and Node.make(4).x == 4 and node.plain() == 2


def test_errors_raised_by_a_reflected_method_cross_the_ffi():
    with pytest.raises(AttributeError):
        _methods()["label"].func(tvm_ffi.testing.TestIntPair(1, 2))


def test_method_refuses_what_it_cannot_register():
    with pytest.raises(TypeError, match="classmethod"):
        method(classmethod(lambda cls: None))
    with pytest.raises(TypeError, match="method: argument `fn`"):
        method(5)
    with pytest.raises(TypeError, match="Python function"):
        method(len)


def test_get_registered_type_keys_lists_builtin_and_user_types():
    keys = list(get_registered_type_keys())
    assert keys[:4] == ["None", "int", "bool", "float"]
    for key in (
        "ffi.Object",
        "ffi.Array",
        "ffi.List",
        "ffi.Dict",
        "testing.TestIntPair",
        "test_method.Node",
    ):
        assert key in keys
    assert len(keys) == len(set(keys))
