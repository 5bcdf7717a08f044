"""tvm_ffi.stub.rust_generator: the Rust code generator of tvm-ffi-stubgen (`--target rust`)."""

from .generator import RustGenerator

__all__ = ["RustGenerator"]
