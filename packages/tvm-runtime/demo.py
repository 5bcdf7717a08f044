"""Demo: import tvm, list devices and backends, make tensors and copy them around."""

import time

import numpy as np

t0 = time.perf_counter()
import tvm  # noqa: E402
from tvm import runtime  # noqa: E402

print(f"import tvm took {(time.perf_counter() - t0) * 1e3:.1f} ms (numpy was imported first here)")
print(
    "devices:",
    tvm.cpu(0),
    tvm.device("cuda:1"),
    "| cuda present:",
    runtime.device_exists(tvm.cuda(0)),
)
print("backends:", [(b.name, b.state) for b in tvm.backend.list_backends()] or "none installed")

data = np.arange(12, dtype="float32").reshape(3, 4)
t = runtime.tensor(data, tvm.cpu(0))
print(t, "\n", t.numpy())
u = runtime.empty((3, 4), "float32").copyfrom(data * 2)
print("copyfrom then numpy():", u.numpy()[0])
print("copyto a new CPU tensor:", t.copyto(tvm.cpu(0)).numpy().sum())
try:
    u.copyfrom(np.zeros((4, 3), "float32"))
except ValueError as err:
    print("bad copy is a ValueError:", err)
