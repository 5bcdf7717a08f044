# The tvm_ffi part of `nox -s demo`: functions both ways, containers, zero-copy tensors, errors.
import traceback

import numpy as np
import tvm_ffi


@tvm_ffi.register_global_func("demo.scale")
def scale(x, factor):
    return x * factor


def main() -> None:
    scale_fn = tvm_ffi.get_global_func("demo.scale")
    print("a Python function called back through the C ABI:", scale_fn(21, 2))
    add_one = tvm_ffi.get_global_func("testing.add_one")
    print("a C++ function from tvm_ffi.testing:", add_one(41))
    values = tvm_ffi.convert([1, 2.5, "three"])
    print(f"a Python list crosses as {type(values).__name__}:", list(values))
    host = np.arange(6, dtype="float32").reshape(2, 3)
    tensor = tvm_ffi.from_dlpack(host)
    print("a NumPy array seen as a tvm_ffi.Tensor:", tensor.shape, tensor.dtype, tensor.device)
    np.from_dlpack(tensor)[0, 0] = 42.0
    print("zero copy both ways (NumPy sees the write):", host[0, 0] == 42.0)
    try:
        add_one("forty-one")
    except TypeError as err:
        print("a typed C++ function checks its arguments:", err)
    try:
        tvm_ffi.get_global_func("testing.test_raise_error")("ValueError", "raised in C++")
    except ValueError as err:
        frame = traceback.extract_tb(err.__traceback__)[-1]
        print(
            f"a C++ error arrives as {type(err).__name__}, its frame in the traceback:",
            f"{frame.filename.rsplit('/', 1)[-1]}:{frame.lineno} in {frame.name}",
        )


if __name__ == "__main__":
    main()
