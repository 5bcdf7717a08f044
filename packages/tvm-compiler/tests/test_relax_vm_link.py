"""vm_link: bytecode calling compiled TIR kernels, in one library that exports and loads back
in a process without the compiler."""

import subprocess
import sys
import textwrap

import numpy as np
import pytest
import tvm
import tvm_ffi
from tvm import relax, te
from tvm.relax.vm_link import vm_link
from tvm.runtime.vm import MakeShapeCode, MatchShapeCode


@pytest.fixture(params=["bytecode", "compiled"])
def link(request):
    """vm_link in one execution mode: every program must run the same in both."""

    def link_in_mode(*args, **kwargs):
        return vm_link(*args, exec_mode=request.param, **kwargs)

    return link_in_mode


def _add_module(n=None):
    length = te.var("n") if n is None else n
    a = te.placeholder((length,), "float32", name="A")
    b = te.placeholder((length,), "float32", name="B")
    c = te.compute((length,), lambda i: a[i] + b[i], name="C")
    return tvm.IRModule({"add": te.create_prim_func([a, b, c]).with_attr("global_symbol", "add")})


def _dynamic_program():
    """main(x: R.Tensor((n,), "float32")) -> x + x + x, with the shape heap and checks."""
    ib = relax.ExecBuilder()
    f32 = ib.convert_constant(tvm_ffi.dtype("float32"))
    with ib.function("main", num_inputs=1, param_names=["x"]):
        ctx = ib.convert_constant("main: argument 'x'")
        ib.emit_call("vm.builtin.check_tensor_info", args=[ib.r(0), ib.imm(1), f32, ctx])
        ib.emit_call("vm.builtin.alloc_shape_heap", args=[ib.vm_state(), ib.imm(1)], dst=ib.r(1))
        store = [ib.imm(MatchShapeCode.kStoreToHeap), ib.imm(0)]
        ib.emit_call("vm.builtin.match_shape", args=[ib.r(0), ib.r(1), ib.imm(1), *store, ctx])
        load = [ib.imm(MakeShapeCode.kLoadShape), ib.imm(0)]
        ib.emit_call("vm.builtin.make_shape", args=[ib.r(1), ib.imm(1), *load], dst=ib.r(2))
        glob = ib.convert_constant("global")
        ib.emit_call(
            "vm.builtin.alloc_storage",
            args=[ib.vm_state(), ib.r(2), ib.imm(0), f32, glob],
            dst=ib.r(3),
        )
        ib.emit_call(
            "vm.builtin.alloc_tensor", args=[ib.r(3), ib.imm(0), ib.r(2), f32], dst=ib.r(4)
        )
        ib.emit_call("add", args=[ib.r(0), ib.r(0), ib.r(4)])
        ib.emit_call("add", args=[ib.r(4), ib.r(0), ib.r(4)])
        ib.emit_ret(ib.r(4))
    return ib


def test_bytecode_calls_compiled_kernels_on_any_length(link):
    ex = link(_dynamic_program(), "llvm", tir_mod=_add_module())
    vm = relax.VirtualMachine(ex, tvm.cpu())
    for n in (1, 5, 17):
        x = np.arange(n, dtype="float32")
        np.testing.assert_allclose(vm["main"](x).numpy(), 3 * x)


def test_wrong_dtype_and_ndim_name_the_function_argument(link):
    vm = relax.VirtualMachine(link(_dynamic_program(), "llvm", _add_module()), tvm.cpu())
    with pytest.raises(ValueError, match="main: argument 'x': expected a tensor of dtype float32"):
        vm["main"](np.zeros(3, "int32"))
    with pytest.raises(ValueError, match="main: argument 'x': expected a tensor of 1 dimensions"):
        vm["main"](np.zeros((3, 2), "float32"))
    with pytest.raises(TypeError, match="main: argument 'x': expected a Tensor, got int"):
        vm["main"](3)


def test_static_shape_mismatch_names_dimension_and_values(link):
    ib = relax.ExecBuilder()
    with ib.function("main", num_inputs=1, param_names=["x"]):
        ctx = ib.convert_constant("main: argument 'x'")
        check = [ib.imm(MatchShapeCode.kAssertEqualToImm), ib.imm(4)]
        ib.emit_call(
            "vm.builtin.match_shape", args=[ib.r(0), ib.void_arg(), ib.imm(1), *check, ctx]
        )
        ib.emit_ret(ib.r(0))
    vm = relax.VirtualMachine(link(ib, "llvm"), tvm.cpu())
    with pytest.raises(ValueError, match=r"main: argument 'x': dimension 0 .* is 3, expected 4"):
        vm["main"](np.zeros(3, "float32"))


def test_bad_builder_and_params_are_refused():
    with pytest.raises(TypeError, match="vm_link: argument 'params' must be a dict"):
        vm_link(relax.ExecBuilder(), "llvm", params=[1])
    with pytest.raises(TypeError, match="vm_link: argument 'params' has a key 3 that is not"):
        vm_link(relax.ExecBuilder(), "llvm", params={3: np.zeros(2)})
    with pytest.raises(TypeError, match="vm_link: argument 'params' entry 'w' must be a tensor"):
        vm_link(relax.ExecBuilder(), "llvm", params={"w": object()})
    with pytest.raises(TypeError, match="argument 'builder' must be an ExecBuilder"):
        vm_link(42, "llvm")


def _params():
    return {
        "w": np.arange(6, dtype="float32") * 2,
        "table": np.array([[1, 2], [3, 4]], "int64"),
    }


def test_params_are_linked_into_the_executable(link):
    ex = link(_dynamic_program(), "llvm", tir_mod=_add_module(), params=_params())
    got = ex.get_const_var_tensor()
    assert sorted(got) == ["table", "w"]
    for name, value in _params().items():
        np.testing.assert_array_equal(got[name].numpy(), value)
    assert vm_link(relax.ExecBuilder(), "llvm").get_const_var_tensor() == {}


class _FakeExternal:
    """An external module in apache-tvm's const-loader contract, its functions in Python."""

    def __init__(self, names):
        self.names, self.received = names, None

    def get_function(self, name, allow_missing=False):
        funcs = {
            "get_symbol": lambda: "ext0",
            "get_const_vars": lambda: self.names,
            "__init_ext0": lambda tensors: setattr(self, "received", tensors),
        }
        return funcs.get(name)


def test_external_modules_get_the_constants_they_name():
    from tvm.runtime.vm.const_loader import init_submodules

    params = {k: tvm.runtime.tensor(v) for k, v in _params().items()}
    ext = _FakeExternal(["table", "w"])
    init_submodules("vm_link", [ext], params)
    assert [t.numpy().tolist() for t in ext.received] == [[[1, 2], [3, 4]], list(range(0, 12, 2))]
    with pytest.raises(ValueError, match=r"vm_link: module 'ext0' needs the constants \['b'\]"):
        init_submodules("vm_link", [_FakeExternal(["b"])], params)


def test_corrupt_params_blob_is_refused():
    from tvm.runtime.vm.const_loader import load_params, save_params

    blob = save_params({"w": tvm.runtime.tensor(np.ones(2, "float32"))})
    assert load_params(blob)["w"].numpy().tolist() == [1.0, 1.0]
    with pytest.raises(ValueError, match="expected b'TVMSVMPR'"):
        load_params(b"NOTPARAMS" + blob[9:])
    with pytest.raises(ValueError, match="truncated data"):
        load_params(blob[:-3])


def _run_runtime_only(script, path) -> list:
    """The lines script printed, run in a child process on the library at path."""
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


# Run in a child: the compiler's packages cannot be imported there, as with only tvm-runtime.
_BLOCK_COMPILER = """
import sys, importlib.abc
BLOCKED = ("tvm.tir", "tvm.relax", "tvm.ir", "tvm.te", "tvm.codegen", "tvm.driver", "tvm.target")
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.startswith(BLOCKED):
            raise ImportError(f"{name} is blocked: this process has only tvm-runtime")
sys.meta_path.insert(0, Block())
"""
_PARAMS_RUNTIME_ONLY = (
    _BLOCK_COMPILER
    + """
import tvm
from tvm.runtime.vm import Executable, VirtualMachine
mod = tvm.runtime.load_module(sys.argv[1])
params = Executable.from_module(mod).get_const_var_tensor()
print(sorted(params))
print(VirtualMachine(mod, tvm.cpu())["main"](params["w"]).numpy().tolist())
print(params["table"].numpy().tolist())
assert not [m for m in sys.modules if m.startswith(BLOCKED)]
"""
)


def test_exported_params_are_used_in_a_process_without_the_compiler(tmp_path, link):
    ex = link(_dynamic_program(), "llvm", tir_mod=_add_module(), params=_params())
    path = ex.export_library(tmp_path / "with_params.so")
    names, result, table = _run_runtime_only(_PARAMS_RUNTIME_ONLY, path)
    assert names == "['table', 'w']"
    assert result == str([3.0 * v for v in range(0, 12, 2)])
    assert table == "[[1, 2], [3, 4]]"


_RUNTIME_ONLY = (
    _BLOCK_COMPILER
    + """
import numpy as np, tvm
from tvm.runtime.vm import VirtualMachine
mod = tvm.runtime.load_module(sys.argv[1])
vm = VirtualMachine(mod, tvm.cpu())
print(vm["main"](np.arange(6, dtype="float32")).numpy().tolist())
try:
    vm["main"](np.zeros((2, 2), "float32"))
except ValueError as err:
    print("ValueError", err)
assert not [m for m in sys.modules if m.startswith(BLOCKED)]
"""
)


def test_export_library_loads_in_a_process_without_the_compiler(tmp_path, link):
    ex = link(_dynamic_program(), "llvm", tir_mod=_add_module())
    path = ex.export_library(tmp_path / "model.so")
    assert str(path).endswith("model.so")
    lines = _run_runtime_only(_RUNTIME_ONLY, path)
    assert lines[0] == "[0.0, 3.0, 6.0, 9.0, 12.0, 15.0]"
    assert lines[1].startswith("ValueError main: argument 'x': expected a tensor of 1 dimensions")


def test_loaded_module_runs_in_this_process_and_exports_again(tmp_path, link):
    ex = link(_dynamic_program(), "llvm", tir_mod=_add_module())
    first = ex.export_library(tmp_path / "a.so")
    loaded = tvm.runtime.load_module(first)
    again = relax.Executable.from_module(loaded).export_library(tmp_path / "b.so")
    vm = relax.VirtualMachine(tvm.runtime.load_module(again), tvm.cpu())
    np.testing.assert_allclose(vm["main"](np.ones(4, "float32")).numpy(), np.full(4, 3.0))


def test_exec_builder_executable_exports_through_the_linker(tmp_path):
    @tvm_ffi.register_global_func("test.link.twice", override=True)
    def twice(x):
        return 2 * x

    ib = relax.ExecBuilder()
    with ib.function("main", num_inputs=1):
        ib.emit_call("test.link.twice", args=[ib.r(0)], dst=ib.r(1))
        ib.emit_ret(ib.r(1))
    path = ib.get().export_library(tmp_path / "plain.so")
    vm = relax.VirtualMachine(tvm.runtime.load_module(path), tvm.cpu())
    assert vm["main"](21) == 42


_VMTIR_SOURCE = r"""
#include <tvm_ffi/c_api.h>
TVM_FFI_LIBRARY_ABI_TAG();
/* A compiled VM function: the VM, the pooled-allocator flag and the constants come first,
   then the function's own arguments. */
TVM_FFI_DLL_EXPORT int __tvm_ffi___vmtir__main(void* self, const TVMFFIAny* args,
                                               int32_t num_args, TVMFFIAny* result) {
  (void)self;
  if (num_args != 4 || args[2].type_index != kTVMFFIArray) return -1;
  if (args[3].type_index != kTVMFFIInt) return -1;
  result->type_index = kTVMFFIInt;
  result->zero_padding = 0;
  result->v_int64 = args[3].v_int64 * 10 + args[1].v_int64;
  return 0;
}
"""


def test_vm_tir_function_is_found_in_the_library_and_gets_the_vm_cfg_and_constants_first():
    from tvm.codegen.c import compile_shared_library
    from tvm.runtime.vm import Executable, VMFuncInfo, VMFuncKind

    lib = tvm.runtime.load_module(compile_shared_library(_VMTIR_SOURCE, False))
    info = VMFuncInfo(VMFuncKind.VM_TIR_FUNC, "main", num_args=1, param_names=["n"])
    vm = relax.VirtualMachine(Executable([info], [], [], lib), tvm.cpu())
    assert vm["main"](4) == 41  # pooled (the default): 1
    assert (
        relax.VirtualMachine(Executable([info], [], [], lib), tvm.cpu(), "naive")["main"](4) == 40
    )
    with pytest.raises(TypeError, match=r"'main' takes 1 argument\(s\) \(n\), got 2"):
        vm["main"](1, 2)
