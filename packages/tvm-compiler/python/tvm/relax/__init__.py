"""tvm.relax (the VM part until the Relax IR lands): ExecBuilder, VirtualMachine, Executable."""

from tvm.runtime.vm import Executable, VirtualMachine

from .exec_builder import ExecBuilder

__all__ = ["ExecBuilder", "Executable", "VirtualMachine"]
