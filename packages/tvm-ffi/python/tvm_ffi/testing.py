"""Native helpers for tests and benchmarks: testing.nop, echo, apply, add_one, a reflected object."""

from ._core import Object
from .registry import get_global_func, register_object


@register_object("testing.TestObjectBase")
class TestObjectBase(Object):
    """A reflected test object with fields v_i64, v_f64 (writable), v_str and method add_i64."""


@register_object("testing.TestObjectDerived")
class TestObjectDerived(TestObjectBase):
    """A subclass adding the field v_array."""


nop = get_global_func("testing.nop")
echo = get_global_func("testing.echo")
apply = get_global_func("testing.apply")
add_one = get_global_func("testing.add_one")
test_raise_error = get_global_func("testing.test_raise_error")
object_use_count = get_global_func("testing.object_use_count")
sleep_ms = get_global_func("testing.sleep_ms")
call_n_times = get_global_func("testing.call_n_times")
make_nested = get_global_func("testing.make_nested")
