# A short tour of tvm_ffi that `nox -s demo` shows while no package ships its own demo.py.
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


if __name__ == "__main__":
    main()
