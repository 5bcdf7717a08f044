"""Demo: `import tvm` autoloads the example backend; call its kernels with NumPy arrays."""

import numpy as np
import tvm
import tvm_ffi
from tvm import runtime

for backend in tvm.backend.list_backends():
    print(f"backend {backend.name!r} from {backend.dist}: {backend.state}")

gemm = tvm_ffi.get_global_func("example.gemm")
a = np.random.default_rng(0).standard_normal((96, 64)).astype("float32")
b = np.random.default_rng(1).standard_normal((64, 48)).astype("float32")
c = np.empty((96, 48), "float32")
gemm(a, b, c)
print("example.gemm matches numpy:", np.allclose(c, a @ b, atol=1e-4))

dev = tvm.device("example")
x = runtime.tensor(np.array([-1.5, 0.0, 2.5], "float32"), dev)
y = runtime.empty((3,), "float32", dev)
tvm_ffi.get_global_func("example.relu")(x, y)
print(f"example.relu on {y.device}: {y.numpy()}")

try:
    gemm(a.astype("float64"), b, c)
except ValueError as err:
    print("bad input is a ValueError:", err)
