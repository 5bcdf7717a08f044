"""Native helpers for tests and benchmarks: testing.nop, echo, apply, add_one, a reflected object."""

from typing import Any

from ._core import Function, Object

class TestObjectBase(Object):
    """A reflected test object with fields v_i64, v_f64 (writable), v_str and method add_i64."""

    v_i64: int
    v_f64: float
    v_str: str
    def __init__(self, v_i64: int, v_f64: float, v_str: str) -> None: ...
    def add_i64(self, other: int) -> int: ...

class TestObjectDerived(TestObjectBase):
    """A subclass adding the field v_array."""

    v_array: Any
    def __init__(self, v_i64: int, v_f64: float, v_str: str, v_array: Any) -> None: ...

nop: Function
echo: Function
apply: Function
add_one: Function
test_raise_error: Function
object_use_count: Function
sleep_ms: Function
call_n_times: Function
make_nested: Function
