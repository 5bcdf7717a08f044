"""IRModule: the unit passes transform, holding functions by GlobalVar plus module attributes."""

from __future__ import annotations

import types

from .expr import RelaxExpr
from .node import Node


class GlobalVar(RelaxExpr):
    """The name of a function in an IRModule; an expression, so that calls can name it."""

    _fields = ("name_hint",)
    _compare_by = "name_hint"

    def __init__(self, name_hint: str):
        if not isinstance(name_hint, str) or not name_hint:
            raise ValueError(f"GlobalVar: name_hint must be a non-empty str, got {name_hint!r}")
        self._set(name_hint=name_hint)

    def __repr__(self):
        return f"@{self.name_hint}"


class BaseFunc(Node):
    """Base of every function kind an IRModule holds; carries a dict of attributes."""

    # Structural equality and hashing map the variables a function defines within it alone.
    _scopes_variables = True

    def with_attr(self, attr_key_or_dict, attr_value=None) -> BaseFunc:
        """A copy with one attribute set (`with_attr("k", v)`) or several (`with_attr({...})`);
        self when nothing changes."""
        updates = _attr_updates(f"{type(self).__name__}.with_attr", attr_key_or_dict, attr_value)
        if all(key in self.attrs and self.attrs[key] is value for key, value in updates.items()):
            return self
        return self.with_fields(attrs={**self.attrs, **updates})

    def script(self, name: str | None = None, **options) -> str:
        """The function in TVMScript, named name (else its global_symbol, else "main");
        options are upstream's (tir_prefix=, show_meta=, ...)."""
        from .printer import node_to_str, render

        return render(
            self,
            options,
            type(self).__name__,
            lambda: node_to_str(
                self,
                name=name or self.attrs.get("global_symbol", "main"),
                show_meta=bool(options.get("show_meta", False)),
            ),
        )

    def show(self, black_format: bool = False) -> None:
        """Print this function's script."""
        from .printer import show_text

        show_text(self.script(), black_format)

    def without_attr(self, key: str) -> BaseFunc:
        if key not in self.attrs:
            return self
        return self.with_fields(attrs={k: v for k, v in self.attrs.items() if k != key})


class IRModule(Node):
    """Functions by GlobalVar (kept in insertion order) and module attributes."""

    _fields = ("functions", "attrs", "global_infos")
    _def_fields = ("functions",)

    def __init__(self, functions=None, attrs=None, global_infos=None):
        table: dict[GlobalVar, BaseFunc] = {}
        names: dict[str, GlobalVar] = {}
        for key, func in (functions or {}).items():
            gv = GlobalVar(key) if isinstance(key, str) else key
            if not isinstance(gv, GlobalVar):
                raise TypeError(
                    f"IRModule: function keys must be str or GlobalVar, got {type(key).__name__}"
                )
            if not isinstance(func, BaseFunc):
                raise TypeError(
                    f"IRModule: function {gv.name_hint!r} must be a function node, "
                    f"got {type(func).__name__}"
                )
            if gv.name_hint in names:
                raise ValueError(f"IRModule: two functions are named {gv.name_hint!r}")
            names[gv.name_hint] = gv
            table[gv] = func
        attrs = dict(attrs or {})
        for key in attrs:
            if not isinstance(key, str):
                raise TypeError(f"IRModule: attribute keys must be str, got {key!r}")
        self._set(
            functions=table,
            attrs=attrs,
            global_infos=_global_infos(global_infos, "IRModule"),
            _names=names,
        )

    @staticmethod
    def from_expr(func: BaseFunc, name: str = "main") -> IRModule:
        return IRModule({name: func})

    # -- lookup ----------------------------------------------------------------------------
    def get_global_var(self, name: str) -> GlobalVar:
        gv = self._names.get(name)
        if gv is None:
            raise ValueError(
                f"IRModule.get_global_var: no function named {name!r}; "
                f"the module has {sorted(self._names)}"
            )
        return gv

    def get_global_vars(self) -> list[GlobalVar]:
        return list(self.functions)

    def _resolve(self, key) -> GlobalVar:
        if isinstance(key, str):
            return self.get_global_var(key)
        if isinstance(key, GlobalVar):
            gv = self._names.get(key.name_hint)
            if gv is None:
                raise ValueError(f"IRModule: no function named {key.name_hint!r}")
            return gv
        raise TypeError(f"IRModule: expected a str or GlobalVar key, got {type(key).__name__}")

    def __getitem__(self, key) -> BaseFunc:
        return self.functions[self._resolve(key)]

    def __contains__(self, key) -> bool:
        name = key.name_hint if isinstance(key, GlobalVar) else key
        return name in self._names

    def __len__(self) -> int:
        return len(self.functions)

    def items(self):
        return types.MappingProxyType(self.functions).items()

    def functions_items(self) -> list:
        """(GlobalVar, function) pairs sorted by name, as upstream lists them."""
        return sorted(self.functions.items(), key=lambda item: item[0].name_hint)

    def get_attr(self, attr_key: str):
        """The module attribute attr_key, or None when it is not set."""
        return self.attrs.get(attr_key)

    # -- in-place edits (upstream's IRModule is mutable; passes never edit their input) --------
    def __setitem__(self, key, func: BaseFunc) -> None:
        """Bind key (str or GlobalVar) to func in this module, replacing what it named."""
        gv = self._key_to_bind("IRModule.__setitem__", key)
        if not isinstance(func, BaseFunc):
            raise TypeError(
                f"IRModule.__setitem__: the value must be a function (a BaseFunc such as "
                f"relax.Function or tir.PrimFunc), got {type(func).__name__}"
            )
        self.functions[gv] = func
        self._names[gv.name_hint] = gv

    def __delitem__(self, key) -> None:
        """Remove the function key (str or GlobalVar) names."""
        gv = self._resolve(key)
        del self.functions[gv]
        del self._names[gv.name_hint]

    def update_func(self, var, func: BaseFunc) -> None:
        """Bind the global var to func in this module (added when it is new)."""
        self[var] = func

    def update(self, other) -> None:
        """Add every function of other (an IRModule or a dict of them), replacing same names."""
        if isinstance(other, dict):
            other = IRModule(other)
        if not isinstance(other, IRModule):
            raise TypeError(
                f"IRModule.update: other must be an IRModule or a dict of functions, "
                f"got {type(other).__name__}"
            )
        for gv, func in other.functions.items():
            self[gv] = func

    def update_global_info(self, name: str, global_info: list) -> None:
        """Set global_infos[name] to global_info (a list of GlobalInfo) in this module."""
        if not isinstance(name, str):
            raise TypeError(f"IRModule.update_global_info: name must be a str, got {name!r}")
        infos = _global_infos({name: global_info}, "IRModule.update_global_info")
        object.__setattr__(self, "global_infos", {**self.global_infos, **infos})

    def clone(self) -> IRModule:
        """A new module with the same functions, attributes and global infos; editing one
        leaves the other alone."""
        return IRModule(dict(self.functions), self.attrs, self.global_infos)

    def _key_to_bind(self, where: str, key) -> GlobalVar:
        if isinstance(key, str):
            return self._names.get(key) or GlobalVar(key)
        if isinstance(key, GlobalVar):
            existing = self._names.get(key.name_hint)
            if existing is not None and existing is not key:
                # One name, one GlobalVar: calls elsewhere in the module refer to the existing one.
                return existing
            return key
        raise TypeError(f"{where}: the key must be a str or GlobalVar, got {type(key).__name__}")

    # -- derived modules -------------------------------------------------------------------
    def with_function(self, key, func: BaseFunc) -> IRModule:
        """A module with key (str or GlobalVar) bound to func; self when it is already bound."""
        name = key.name_hint if isinstance(key, GlobalVar) else key
        gv = self._names.get(name)
        if gv is not None and self.functions[gv] is func:
            return self
        funcs = dict(self.functions)
        funcs[gv if gv is not None else (key if isinstance(key, GlobalVar) else GlobalVar(key))] = (
            func
        )
        return IRModule(funcs, self.attrs, self.global_infos)

    def without_function(self, key) -> IRModule:
        gv = self._resolve(key)
        kept = {k: v for k, v in self.functions.items() if k is not gv}
        return IRModule(kept, self.attrs, self.global_infos)

    def with_attrs(self, attr_map) -> IRModule:
        """A module with every attribute of attr_map (a dict) set."""
        if not isinstance(attr_map, dict):
            raise TypeError(
                f"IRModule.with_attrs: attr_map must be a dict, got {type(attr_map).__name__}"
            )
        return self.with_attr(attr_map)

    def without_attr(self, attr_key: str) -> IRModule:
        """A module without the attribute attr_key; self when it is not set."""
        if attr_key not in self.attrs:
            return self
        kept = {k: v for k, v in self.attrs.items() if k != attr_key}
        return IRModule(self.functions, kept, self.global_infos)

    def with_attr(self, attr_key_or_dict, attr_value=None) -> IRModule:
        """A module with one attribute set (`with_attr("k", v)`) or several (`with_attr({...})`)."""
        updates = _attr_updates("IRModule.with_attr", attr_key_or_dict, attr_value)
        if all(key in self.attrs and self.attrs[key] is value for key, value in updates.items()):
            return self
        return IRModule(self.functions, {**self.attrs, **updates}, self.global_infos)

    def show(self, black_format: bool = False) -> None:
        """Print the module's script."""
        from .printer import show_text

        show_text(self.script(), black_format)

    def _with_functions(self, functions: dict) -> IRModule:
        """Another function table under this module's attrs and global_infos: what a pass that
        rebuilds the module returns, so that nothing but the functions changes."""
        return IRModule(functions, self.attrs, self.global_infos)

    def _with_replaced_functions(self, changed: dict) -> IRModule:
        return self._with_functions({gv: changed.get(gv, f) for gv, f in self.functions.items()})

    def _replace_functions_in_place(self, changed: dict) -> None:
        # Only the pass machinery calls this, and only on a module nobody else holds.
        for gv, func in changed.items():
            self.functions[gv] = func

    def script(self, **options) -> str:
        """The module in TVMScript (`@I.ir_module class Module:`), as upstream prints it."""
        from .printer import _find, module_script, render

        show_meta = bool(options.get("show_meta", False))
        whole_module_printer = _find(self)  # an IR family printing whole modules
        if whole_module_printer is not None:
            return render(
                self, options, "IRModule", lambda: whole_module_printer(self, show_meta=show_meta)
            )
        return render(self, options, "IRModule", lambda: module_script(self, show_meta=show_meta))

    def __repr__(self):
        return self.script()


def _global_infos(infos, where: str) -> dict:
    """infos as global_infos: str keys, each a tuple of GlobalInfo."""
    from .global_info import GlobalInfo

    out = {}
    for key, items in dict(infos or {}).items():
        if not isinstance(key, str):
            raise TypeError(f"{where}: global_infos keys must be str, got {key!r}")
        if not isinstance(items, (list, tuple)):
            raise TypeError(f"{where}: global_infos[{key!r}] must be a list, got {items!r}")
        for item in items:
            if not isinstance(item, GlobalInfo):
                raise TypeError(
                    f"{where}: global_infos[{key!r}] holds GlobalInfo objects "
                    f"(such as I.vdevice(...)), got {type(item).__name__}"
                )
        out[key] = tuple(items)
    return out


def _attr_updates(where: str, attr_key_or_dict, attr_value) -> dict:
    if isinstance(attr_key_or_dict, dict):
        if attr_value is not None:
            raise TypeError(f"{where}: pass either a dict of attributes or a key and a value")
        updates = dict(attr_key_or_dict)
    else:
        updates = {attr_key_or_dict: attr_value}
    for key in updates:
        if not isinstance(key, str):
            raise TypeError(f"{where}: attribute keys must be str, got {key!r}")
    return updates
