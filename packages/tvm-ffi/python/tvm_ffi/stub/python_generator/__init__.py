"""tvm_ffi.stub.python_generator: the Python code generator of tvm-ffi-stubgen."""

from .generator import PythonGenerator

__all__ = ["PythonGenerator"]
