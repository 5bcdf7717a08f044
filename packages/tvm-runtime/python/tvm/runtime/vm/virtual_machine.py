"""VirtualMachine: loads an Executable onto devices and runs its functions."""

from __future__ import annotations

import time

import tvm_ffi

from ..device import Device
from ..time_evaluator import make_time_evaluator
from .arguments import convert_arg, tensor_types
from .builtins import BUILTINS, REGISTERED
from .bytecode import VMFuncKind
from .codegen import generate_runner
from .executable import Executable
from .interpreter import decode_function, make_runner
from .native import native_symbol
from .profiler import ProfileReport
from .remote import connect_remote, is_remote_module

_MEMORY_CFGS = ("naive", "pooled")
_DEFAULT_MEMORY_CFG = "pooled"  # upstream's default


# Builtins that must both be native or both Python: a storage is the other's argument.
_PAIRED = ("vm.builtin.alloc_storage", "vm.builtin.alloc_tensor")


def _replaced(name: str) -> bool:
    """Whether BUILTINS[name] (or its pair) is no longer what registered it: then that Python
    function runs, not the library's native builtin (a test counting allocations, say)."""
    names = _PAIRED if name in _PAIRED else (name,)
    return any(BUILTINS.get(n) is not REGISTERED.get(n) for n in names)


def _as_executable(rt_mod) -> Executable:
    if isinstance(rt_mod, Executable):
        return rt_mod
    if isinstance(rt_mod, tvm_ffi.Module):
        return Executable.from_module(rt_mod)
    raise TypeError(
        "VirtualMachine: argument 'rt_mod' must be an Executable or a Module loaded from an "
        f"exported executable, got {type(rt_mod).__name__}"
    )


def _missing(name: str):
    def missing(*_args):
        raise AttributeError(
            f"VirtualMachine: function {name!r} is neither in the executable's library nor a "
            "registered global function"
        )

    missing.__name__ = name
    return missing


class VirtualMachine:
    """Runs an Executable: ``vm["main"](*args)``, or set_input / invoke_stateful / get_outputs.

    rt_mod: an Executable, or the Module tvm.runtime.load_module returns for an exported one.
    device: a Device or a list of them (the first runs the kernels; a CPU host is appended
    when missing, as upstream). memory_cfg: "naive" or "pooled" (or a dict per device)."""

    NAIVE_ALLOCATOR = 1
    POOLED_ALLOCATOR = 2
    # True: run the portable block loop instead of the generated Python (tests run both).
    _exec_loop = False

    def __init__(self, rt_mod, device, memory_cfg=None, profile=False):
        self._remote = None
        if is_remote_module(rt_mod):
            # The VM runs on the serving side; this one forwards calls to its functions.
            self.executable, self.module = None, rt_mod
            self.devices = self._setup_device(device, memory_cfg)
            self._remote = connect_remote(rt_mod, self.devices, memory_cfg)
            return
        self.executable = _as_executable(rt_mod)
        self.module = self.executable.lib
        self.devices = self._setup_device(device, memory_cfg)
        self.memory_cfg = self._memory_cfg_of(memory_cfg)
        self._inputs: dict = {}
        self._outputs: dict = {}
        self._callables = self._link()
        self._profile_calls = None

    # ---- setup ----------------------------------------------------------------------------

    def _setup_device(self, dev, memory_cfg):
        devs = list(dev) if isinstance(dev, (list, tuple)) else [dev]
        if not devs:
            raise ValueError("VirtualMachine: argument 'device' must name at least one device")
        for d in devs:
            if not isinstance(d, Device):
                raise TypeError(
                    f"VirtualMachine: argument 'device' must be a Device or a list of them, "
                    f"got {type(d).__name__}"
                )
        if all(int(d.device_type) != 1 for d in devs):
            from ..device import cpu

            devs.append(cpu(0))
        if isinstance(memory_cfg, dict):
            for key in memory_cfg:
                if not isinstance(key, Device):  # a "cpu" key was never looked up: ignored
                    raise TypeError(
                        "VirtualMachine: argument 'memory_cfg' as a dict maps Devices to "
                        f"allocator names, got a key of type {type(key).__name__}: {key!r}"
                    )
        cfgs = memory_cfg.values() if isinstance(memory_cfg, dict) else [memory_cfg]
        for cfg in cfgs:
            if cfg is not None and cfg not in _MEMORY_CFGS:
                raise ValueError(
                    f"VirtualMachine: argument 'memory_cfg' must be one of {_MEMORY_CFGS}, "
                    f"got {cfg!r}"
                )
        return devs

    def _memory_cfg_of(self, memory_cfg) -> str:
        """The allocator of the device the VM allocates on (the first): "naive" or "pooled"."""
        if isinstance(memory_cfg, dict):
            memory_cfg = memory_cfg.get(self.devices[0], _DEFAULT_MEMORY_CFG)
        return memory_cfg or _DEFAULT_MEMORY_CFG

    def _native_ok(self) -> bool:
        # The native builtins allocate host memory: they stand in only when every device is
        # the CPU (other devices allocate through the Python builtins and their runtime).
        return all(int(d.device_type) == 1 for d in self.devices)

    def _lookup_packed(self, name: str):
        lib = self.executable.lib
        symbol = native_symbol(name, self.memory_cfg) if lib is not None else None
        if symbol is not None and self._native_ok() and not _replaced(name):
            fn = lib.get_function(symbol, allow_missing=True)
            if fn is not None:
                return fn
        if lib is not None:
            fn = lib.get_function(name, allow_missing=True)
            if fn is not None:
                return fn
        fn = BUILTINS.get(name)
        if fn is not None:
            return fn
        fn = tvm_ffi.get_global_func(name, allow_missing=True)
        return fn if fn is not None else _missing(name)

    def _link(self, wrap=None) -> list:
        """One callable per function table entry; VM functions become frame runners."""
        ex = self.executable
        callables: list = [None] * len(ex.functions)
        names = [f.name for f in ex.functions]
        # Calls to the built-in null_value (not one put in its place) need no call at all.
        nulls = frozenset(
            i
            for i, f in enumerate(ex.functions)
            if f.kind == VMFuncKind.PACKED_FUNC
            and f.name == "vm.builtin.null_value"
            and not _replaced(f.name)
        )
        runners: dict = {}
        for index, info in enumerate(ex.functions):
            if info.kind == VMFuncKind.PACKED_FUNC:
                callables[index] = self._lookup_packed(info.name)
            elif info.kind == VMFuncKind.VM_TIR_FUNC:
                callables[index] = self._tir_function(info)
            else:
                callables[index] = self._vm_function(info, runners)
        for info in ex.functions:
            if info.kind == VMFuncKind.VM_FUNC:
                layout, blocks = decode_function(
                    info, ex.instructions, ex.constants, callables, self, wrap, names, nulls
                )
                make = make_runner if self._exec_loop else generate_runner
                runners[info.name] = make(layout, blocks, info.num_args, info.name)
        return callables

    def _vm_function(self, info, runners):
        name, nargs = info.name, info.num_args
        params = info.param_names
        cell = []

        def vm_function(*args):
            if len(args) != nargs:
                raise TypeError(self._arity_message(name, nargs, params, len(args)))
            if not cell:
                cell.append(runners[name])
            return cell[0](args)

        vm_function.__name__ = name
        return vm_function

    def _tir_function(self, info):
        lib = self.executable.lib
        fn = lib.get_function("__vmtir__" + info.name, allow_missing=True) if lib else None
        if fn is None:
            return _missing("__vmtir__" + info.name)
        if not self._native_ok():
            raise NotImplementedError(
                f"VirtualMachine: the compiled VM function {info.name!r} runs on CPU devices "
                f"only, got {self.devices}; build with exec_mode='bytecode'"
            )
        nargs = info.num_args
        name = info.name
        # What a compiled function takes before its parameters (relax.vm_compiled).
        pooled = int(self.memory_cfg == "pooled")
        consts = tvm_ffi.Array(self.executable.constants)

        def vm_tir_function(*args):
            if len(args) != nargs:
                raise TypeError(self._arity_message(name, nargs, info.param_names, len(args)))
            return fn(self, pooled, consts, *args)

        return vm_tir_function

    @staticmethod
    def _saved_arity_message(saved_name, got) -> str:
        return (
            f"VirtualMachine: the saved function {saved_name!r} takes no arguments "
            f"(save_function bound them), got {got}"
        )

    @staticmethod
    def _arity_message(name, nargs, params, got) -> str:
        names = f" ({', '.join(params)})" if params else ""
        return f"VirtualMachine: function {name!r} takes {nargs} argument(s){names}, got {got}"

    # ---- calling --------------------------------------------------------------------------

    def _entry(self, func_name: str) -> int:
        if self._remote is not None:
            raise NotImplementedError(
                "VirtualMachine: a VM over an RPC module runs functions with vm[name](*args) "
                "only (set_input, invoke_stateful, time_evaluator and profile run locally)"
            )
        if not isinstance(func_name, str):
            raise TypeError(
                f"VirtualMachine: a function name must be a str, got {type(func_name).__name__}"
            )
        index = self.executable.func_map.get(func_name)
        if index is None or self.executable.functions[index].kind == VMFuncKind.PACKED_FUNC:
            known = [f.name for f in self.executable.functions if f.kind != VMFuncKind.PACKED_FUNC]
            raise AttributeError(
                f"VirtualMachine: the executable has no function {func_name!r} (it has {known})"
            )
        return index

    def _convert_args(self, func_name: str, args, kwargs) -> tuple:
        index = self._entry(func_name)
        info = self.executable.functions[index]
        params = info.param_names
        if kwargs:
            args = list(args)
            for name in params[len(args) :]:
                if name in kwargs:
                    args.append(kwargs.pop(name))
                else:
                    break
            if kwargs:
                raise TypeError(
                    f"VirtualMachine: function {func_name!r} got unexpected keyword argument(s) "
                    f"{sorted(kwargs)} (its parameters are {params})"
                )
        if info.num_args >= 0 and len(args) != info.num_args:
            raise TypeError(self._arity_message(func_name, info.num_args, params, len(args)))
        return tuple(
            convert_arg(a, func_name, params[i] if i < len(params) else f"#{i}")
            for i, a in enumerate(args)
        )

    def __getitem__(self, func_name: str):
        if self._remote is not None:
            return self._remote(func_name)
        saved = getattr(self, "_saved", {})
        if func_name in saved:  # a closure save_function made, as upstream's module holds it
            return saved[func_name]
        index = self._entry(func_name)
        fn = self._callables[index]
        nargs = self.executable.functions[index].num_args
        plain = tensor_types()

        def call(*args, **kwargs):
            if not kwargs and len(args) == nargs and plain.issuperset(map(type, args)):
                return fn(*args)  # tensors only, as many as it takes: nothing to convert
            return fn(*self._convert_args(func_name, args, kwargs))

        call.__name__ = func_name
        return call

    def invoke(self, func_name: str, *args, **kwargs):
        """Call a function by name (same as vm[func_name](*args))."""
        return self[func_name](*args, **kwargs)

    def invoke_closure(self, closure, *args):
        """Call a closure a VM function returned."""
        if not callable(closure):
            raise TypeError(
                "VirtualMachine.invoke_closure: argument 'closure' must be a closure a VM "
                f"function returned, got {type(closure).__name__}"
            )
        return closure(*[convert_arg(a, "closure", f"#{i}") for i, a in enumerate(args)])

    def set_input(self, func_name: str, *args, **kwargs) -> None:
        """Keep arguments for a later invoke_stateful(func_name)."""
        self._inputs[func_name] = self._convert_args(func_name, args, kwargs)

    def invoke_stateful(self, func_name: str) -> None:
        """Run func_name on the arguments set_input kept; get_outputs reads the result."""
        index = self._entry(func_name)
        if func_name not in self._inputs:
            raise ValueError(
                f"VirtualMachine.invoke_stateful: no inputs were set for {func_name!r}; call "
                "set_input first"
            )
        self._outputs[func_name] = self._callables[index](*self._inputs[func_name])

    def get_outputs(self, func_name: str):
        """The result of the last invoke_stateful(func_name)."""
        if func_name not in self._outputs:
            raise ValueError(
                f"VirtualMachine.get_outputs: {func_name!r} has not been run with invoke_stateful"
            )
        return self._outputs[func_name]

    def save_function(
        self, func_name: str, saved_name: str, *args, include_return: bool = True, **kwargs
    ) -> None:
        """Make vm[saved_name]() call func_name with these arguments (for timing)."""
        if not isinstance(saved_name, str):
            raise TypeError(
                "VirtualMachine.save_function: argument 'saved_name' must be a str, got "
                f"{type(saved_name).__name__}"
            )
        index = self._entry(func_name)
        fn = self._callables[index]
        saved = self._convert_args(func_name, args, kwargs)

        def saved_call(*extra, **extra_kwargs):
            if extra or extra_kwargs:
                raise TypeError(
                    self._saved_arity_message(saved_name, len(extra) + len(extra_kwargs))
                )
            result = fn(*saved)
            return result if include_return else None

        saved_call.__name__ = saved_name

        self._saved = getattr(self, "_saved", {})
        self._saved[saved_name] = saved_call

    def get_function(self, name: str):
        saved = getattr(self, "_saved", {})
        return saved[name] if name in saved else self[name]

    def time_evaluator(
        self,
        func_name: str,
        dev: Device,
        number: int = 10,
        repeat: int = 1,
        min_repeat_ms: int = 0,
        cooldown_interval_ms: int = 0,
        repeats_to_cooldown: int = 1,
        f_preproc: str = "",
    ):
        """A callable timing func_name: called with arguments it runs vm[func_name](*args);
        called with none after set_input it runs invoke_stateful. Returns a ProfileResult."""
        saved = getattr(self, "_saved", {})
        if func_name in saved:
            target = saved[func_name]
        else:
            index = self._entry(func_name)
            fn = self._callables[index]

            def target(*args):
                if not args and func_name in self._inputs:
                    return fn(*self._inputs[func_name])
                return fn(*args)

        evaluator = make_time_evaluator(
            target, dev, number, repeat, min_repeat_ms, cooldown_interval_ms, repeats_to_cooldown
        )

        def timed(*args, **kwargs):
            if func_name in saved:
                if args or kwargs:
                    raise TypeError(self._saved_arity_message(func_name, len(args) + len(kwargs)))
                return evaluator()
            converted = self._convert_args(func_name, args, kwargs) if (args or kwargs) else ()
            return evaluator(*converted)

        return timed

    def profile(self, func_name: str, *args, **kwargs) -> ProfileReport:
        """Run func_name once, timing every call it makes; a report per callee."""
        report = ProfileReport()
        names = [f.name for f in self.executable.functions]

        def wrap(fn, func_idx):
            name = names[func_idx]

            def timed(*call_args):
                start = time.perf_counter()
                try:
                    return fn(*call_args)
                finally:
                    report.add(name, time.perf_counter() - start)

            return timed

        callables = self._link(wrap)
        converted = self._convert_args(func_name, args, kwargs)
        start = time.perf_counter()
        callables[self._entry(func_name)](*converted)
        report.total = time.perf_counter() - start
        return report
