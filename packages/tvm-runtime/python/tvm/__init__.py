"""tvm: the runtime namespace; the compiler and rpc wheels add subpackages to it."""
__path__ = __import__("pkgutil").extend_path(__path__, __name__)

__version__ = "0.2.0"

# Check the installed tvm-ffi against our range before touching it.
from ._version_guard import require as _require  # noqa: E402

_require("tvm-ffi", ">=0.3,<0.4", needed_by="tvm-runtime")

from . import base, error  # noqa: E402  (error kinds registered before any FFI call)

base._load_core_libs()

from . import runtime  # noqa: E402
from ._excepthook import install as _install_excepthook  # noqa: E402
from .runtime import Device, cpu, cuda, device  # noqa: E402

_install_excepthook()

# Last: backends may `import tvm` and use everything above.
from . import backend  # noqa: E402

backend.autoload()

__all__ = ["Device", "backend", "base", "cpu", "cuda", "device", "error", "runtime"]
