"""tvm.script.ir (`from tvm.script import ir as I`): modules, their attributes and global infos."""

from tvm.script.ir_builder.ir import lookup_vdevice, module_attrs, module_global_infos, vdevice

from .entry import ir_module

__all__ = ["ir_module", "lookup_vdevice", "module_attrs", "module_global_infos", "vdevice"]
