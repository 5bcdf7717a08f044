"""Run by bench_vm_dispatch.py inside the apache-tvm reference venv: the same program there."""

import numpy as np
import tvm
from tvm import relax, te
from tvm.relax.vm_build import _vmlink
from vm_dispatch_program import CALLS, add_module, build, report, us_per_call

ib = relax.ExecBuilder()
build(ib)
ex = _vmlink(ib, "llvm", add_module(tvm, te))
vm = relax.VirtualMachine(ex, tvm.cpu())
x = tvm.runtime.tensor(np.ones(1, "float32"))
a, b = tvm.runtime.empty((1,), "float32"), tvm.runtime.empty((1,), "float32")
out = vm["main"](x, a, b)
assert out.numpy()[0] == CALLS + 1, out.numpy()
main = vm["main"]
best, median = us_per_call(main, (x, a, b))
print(report(best=best, median=median))
