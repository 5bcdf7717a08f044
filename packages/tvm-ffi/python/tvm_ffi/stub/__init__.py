"""tvm_ffi.stub: generates Python type stubs for registered global functions and object types (tvm-ffi-stubgen)."""
