"""tvm.contrib: utilities beside the core (temporary folders here; other wheels add modules)."""

__path__ = __import__("pkgutil").extend_path(__path__, __name__)
