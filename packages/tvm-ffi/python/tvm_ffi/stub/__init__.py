"""tvm_ffi.stub: Python type stubs for registered global functions and object types (stubgen)."""
