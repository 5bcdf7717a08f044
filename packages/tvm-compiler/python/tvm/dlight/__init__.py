"""tvm.dlight: upstream's older name for tvm.s_tir.dlight, the same modules (tvm._module_alias)."""

from tvm._module_alias import alias_package

alias_package(__name__, "tvm.s_tir.dlight")
