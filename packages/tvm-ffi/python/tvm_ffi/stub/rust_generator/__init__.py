"""tvm_ffi.stub.rust_generator: the Rust side of tvm-ffi-stubgen (its tables, directives and
helpers; the RustGenerator target itself is not written yet)."""
