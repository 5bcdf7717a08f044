"""tvm: the runtime namespace; the compiler and rpc wheels add subpackages to it."""

__path__ = __import__("pkgutil").extend_path(__path__, __name__)

__version__ = "0.2.0"

# Check the installed tvm-ffi against our range before touching it.
from ._version_guard import require as _require  # noqa: E402

_require("tvm-ffi", needed_by="tvm-runtime")  # the range in pyproject.toml

from . import base, error  # noqa: E402  (error kinds registered before any FFI call)
from ._openmp_env import apply_defaults as _openmp_defaults  # noqa: E402

_openmp_defaults()  # before any kernel library loads libgomp

base._load_core_libs()

# The global function registry under upstream's top-level names (register_func is the older one).
from tvm_ffi import get_global_func, register_global_func  # noqa: E402

from . import runtime  # noqa: E402
from ._excepthook import install as _install_excepthook  # noqa: E402
from .runtime import DataType, Device, cpu, cuda, device  # noqa: E402

register_func = register_global_func

_install_excepthook()

# Last: backends may `import tvm` and use everything above.
from . import backend  # noqa: E402

backend.autoload()

__all__ = [
    "Device",
    "backend",
    "base",
    "cpu",
    "cuda",
    "device",
    "error",
    "get_global_func",
    "register_func",
    "register_global_func",
    "runtime",
]

# Names the tvm-compiler wheel provides at the top of the namespace, loaded on first use
# so that `import tvm; tvm.compile(...)` works without importing the compiler eagerly.
_COMPILER_NAMES = {"compile": "tvm.driver", "build": "tvm.driver", "IRModule": "tvm.ir"}
# Subpackages the other wheels add to the namespace, for the error that names what to install
# when one is missing. Any installed subpackage resolves, listed here or not.
_WHEEL_OF_SUBPACKAGE = {
    **dict.fromkeys(
        [
            "arith",
            "codegen",
            "dlight",
            "driver",
            "instrument",
            "ir",
            "relax",
            "s_tir",
            "script",
            "target",
            "te",
            "testing",
            "tir",
            "tirx",
            "topi",
            "transform",
        ],
        "tvm-compiler",
    ),
    "rpc": "tvm-rpc",
}


def __getattr__(name):
    import importlib
    import importlib.util

    module_name = _COMPILER_NAMES.get(name)
    if module_name is None and name.isidentifier() and not name.startswith("_"):
        # `tvm.tir`, `tvm.rpc`, ...: a subpackage of an installed wheel, imported on first
        # use so that `import tvm` itself stays light. Importing it sets the attribute, so
        # this runs once per name.
        if importlib.util.find_spec(f"{__name__}.{name}") is not None:
            return importlib.import_module(f"{__name__}.{name}")
        wheel = _WHEEL_OF_SUBPACKAGE.get(name)
        if wheel is not None:
            raise _missing_wheel(name, wheel)
    if module_name is None:
        raise AttributeError(f"module 'tvm' has no attribute {name!r}")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as err:
        if err.name != module_name:
            raise
        raise _missing_wheel(name, "tvm-compiler") from None
    return getattr(module, name)


def _missing_wheel(name, wheel):
    # Our wheels are on no index: the fix is the install line of docs/layers.md.
    return AttributeError(
        f"module 'tvm' has no attribute {name!r}: tvm.{name} is provided by the {wheel} "
        f"wheel, which is not installed (from a tvm-stack checkout, after `nox -s wheels`: "
        f"pip install --find-links dist {wheel})"
    )
