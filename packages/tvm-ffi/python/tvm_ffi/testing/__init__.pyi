"""Native helpers for tests and benchmarks: the testing.* globals and reflected test objects."""

from collections.abc import Callable
from typing import Any, TypeVar

from .._core import Function
from .testing import (
    TestCompare as TestCompare,
)
from .testing import (
    TestCustomCompare as TestCustomCompare,
)
from .testing import (
    TestCustomHash as TestCustomHash,
)
from .testing import (
    TestEqWithoutHash as TestEqWithoutHash,
)
from .testing import (
    TestFrozenCxx as TestFrozenCxx,
)
from .testing import (
    TestHash as TestHash,
)
from .testing import (
    TestIntPair as TestIntPair,
)
from .testing import (
    TestNonCopyable as TestNonCopyable,
)
from .testing import (
    TestObjectBase as TestObjectBase,
)
from .testing import (
    TestObjectDerived as TestObjectDerived,
)
from .testing import (
    TestObjectPtrHolder as TestObjectPtrHolder,
)
from .testing import (
    add_one as add_one,
)
from .testing import (
    create_object as create_object,
)
from .testing import (
    make_unregistered_object as make_unregistered_object,
)

_R = TypeVar("_R")

def run_with_gpu_lock(func: Callable[..., _R], /, *args: Any, **kwargs: Any) -> _R: ...

TestIntPairSum: Function
apply: Function
call_n_times: Function
echo: Function
enum_variant_get: Function
get_add_one_c_symbol: Function
get_mlir_add_one_c_symbol: Function
make_array_with_mixed: Function
make_array_with_tensor: Function
make_dict_with_tensor: Function
make_empty_array_with_tensor_input: Function
make_list_with_tensor: Function
make_map_with_tensor: Function
make_nested: Function
make_nested_array_with_tensor: Function
make_nested_map_with_tensor: Function
nop: Function
object_use_count: Function
optional_tensor_view_has_value: Function
schema_arr_map_opt: Function
schema_id_any: Function
schema_id_arr: Function
schema_id_arr_int: Function
schema_id_arr_obj: Function
schema_id_arr_str: Function
schema_id_bool: Function
schema_id_bytes: Function
schema_id_device: Function
schema_id_dict_str_int: Function
schema_id_dict_str_str: Function
schema_id_dltensor: Function
schema_id_dtype: Function
schema_id_float: Function
schema_id_func: Function
schema_id_func_typed: Function
schema_id_int: Function
schema_id_list_int: Function
schema_id_list_obj: Function
schema_id_list_str: Function
schema_id_map: Function
schema_id_map_str_int: Function
schema_id_map_str_obj: Function
schema_id_map_str_str: Function
schema_id_object: Function
schema_id_opt_int: Function
schema_id_opt_obj: Function
schema_id_opt_str: Function
schema_id_string: Function
schema_id_tensor: Function
schema_id_variant_int_str: Function
schema_no_args: Function
schema_no_args_no_return: Function
schema_no_return: Function
schema_packed: Function
schema_tensor_view_input: Function
schema_variant_mix: Function
run_check_signal: Function
sleep_ms: Function
test_raise_error: Function

__all__ = [
    "TestCompare",
    "TestCustomCompare",
    "TestCustomHash",
    "TestEqWithoutHash",
    "TestFrozenCxx",
    "TestHash",
    "TestIntPair",
    "TestNonCopyable",
    "TestObjectBase",
    "TestObjectDerived",
    "TestObjectPtrHolder",
    "add_one",
    "create_object",
    "make_unregistered_object",
    "run_with_gpu_lock",
    "TestIntPairSum",
    "apply",
    "call_n_times",
    "echo",
    "enum_variant_get",
    "get_add_one_c_symbol",
    "get_mlir_add_one_c_symbol",
    "make_array_with_mixed",
    "make_array_with_tensor",
    "make_dict_with_tensor",
    "make_empty_array_with_tensor_input",
    "make_list_with_tensor",
    "make_map_with_tensor",
    "make_nested",
    "make_nested_array_with_tensor",
    "make_nested_map_with_tensor",
    "nop",
    "object_use_count",
    "optional_tensor_view_has_value",
    "schema_arr_map_opt",
    "schema_id_any",
    "schema_id_arr",
    "schema_id_arr_int",
    "schema_id_arr_obj",
    "schema_id_arr_str",
    "schema_id_bool",
    "schema_id_bytes",
    "schema_id_device",
    "schema_id_dict_str_int",
    "schema_id_dict_str_str",
    "schema_id_dltensor",
    "schema_id_dtype",
    "schema_id_float",
    "schema_id_func",
    "schema_id_func_typed",
    "schema_id_int",
    "schema_id_list_int",
    "schema_id_list_obj",
    "schema_id_list_str",
    "schema_id_map",
    "schema_id_map_str_int",
    "schema_id_map_str_obj",
    "schema_id_map_str_str",
    "schema_id_object",
    "schema_id_opt_int",
    "schema_id_opt_obj",
    "schema_id_opt_str",
    "schema_id_string",
    "schema_id_tensor",
    "schema_id_variant_int_str",
    "schema_no_args",
    "schema_no_args_no_return",
    "schema_no_return",
    "schema_packed",
    "schema_tensor_view_input",
    "schema_variant_mix",
    "run_check_signal",
    "sleep_ms",
    "test_raise_error",
]
