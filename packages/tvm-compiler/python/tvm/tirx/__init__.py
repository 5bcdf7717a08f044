"""tvm.tirx: upstream's newer name for tvm.tir; the same modules (see tvm._module_alias)."""

from tvm._module_alias import alias_package

alias_package(__name__, "tvm.tir")
