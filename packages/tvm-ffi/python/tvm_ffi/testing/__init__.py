"""Native helpers for tests and benchmarks: the testing.* globals and reflected test objects."""

from ..registry import get_global_func
from ._locking import run_with_gpu_lock
from .testing import (
    TestCompare,
    TestCustomCompare,
    TestCustomHash,
    TestEqWithoutHash,
    TestFrozenCxx,
    TestHash,
    TestIntPair,
    TestNonCopyable,
    TestObjectBase,
    TestObjectDerived,
    TestObjectPtrHolder,
    _TestCxxClassBase,
    _TestCxxClassDerived,
    _TestCxxClassDerivedDerived,
    add_one,
    create_object,
    make_unregistered_object,
)

# The testing.* globals bound by their short name (add_one and make_unregistered_object are
# the Python helpers above, as apache-tvm-ffi has them).
_GLOBALS = (
    "TestIntPairSum", "apply", "call_n_times", "echo", "enum_variant_get", "get_add_one_c_symbol",
    "get_mlir_add_one_c_symbol", "make_array_with_mixed", "make_array_with_tensor",
    "make_dict_with_tensor", "make_empty_array_with_tensor_input", "make_list_with_tensor",
    "make_map_with_tensor", "make_nested", "make_nested_array_with_tensor",
    "make_nested_map_with_tensor", "nop", "object_use_count", "optional_tensor_view_has_value",
    "schema_arr_map_opt", "schema_id_any", "schema_id_arr", "schema_id_arr_int",
    "schema_id_arr_obj",
    "schema_id_arr_str", "schema_id_bool", "schema_id_bytes", "schema_id_device",
    "schema_id_dict_str_int", "schema_id_dict_str_str", "schema_id_dltensor", "schema_id_dtype",
    "schema_id_float", "schema_id_func", "schema_id_func_typed", "schema_id_int",
    "schema_id_list_int", "schema_id_list_obj", "schema_id_list_str", "schema_id_map",
    "schema_id_map_str_int", "schema_id_map_str_obj", "schema_id_map_str_str", "schema_id_object",
    "schema_id_opt_int", "schema_id_opt_obj", "schema_id_opt_str", "schema_id_string",
    "schema_id_tensor", "schema_id_variant_int_str", "schema_no_args", "schema_no_args_no_return",
    "schema_no_return", "schema_packed", "schema_tensor_view_input", "schema_variant_mix",
    "run_check_signal", "sleep_ms", "test_raise_error",
)  # fmt: skip
for _name in _GLOBALS:
    globals()[_name] = get_global_func("testing." + _name)
del _name

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
    *_GLOBALS,
]
