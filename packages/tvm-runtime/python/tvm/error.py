"""Error kinds of the stack, registered with the FFI so C++ raising a kind surfaces as its class."""

from __future__ import annotations

import tvm_ffi


@tvm_ffi.register_error
class InternalError(RuntimeError):
    """A bug inside the stack: an invariant did not hold."""


@tvm_ffi.register_error
class RPCError(RuntimeError):
    """A remote procedure call failed (connection, protocol or remote error)."""


@tvm_ffi.register_error
class RPCSessionTimeoutError(RPCError, TimeoutError):
    """An RPC session ran past its time limit."""


@tvm_ffi.register_error
class OpError(RuntimeError):
    """An operator was used wrongly."""


@tvm_ffi.register_error
class OpNotImplemented(OpError, NotImplementedError):
    """An operator has no implementation for this target or these inputs."""


@tvm_ffi.register_error
class OpAttributeRequired(OpError, AttributeError):
    """A required operator attribute is missing."""


@tvm_ffi.register_error
class OpAttributeInvalid(OpError, AttributeError):
    """An operator attribute has an invalid value."""


@tvm_ffi.register_error
class DiagnosticError(RuntimeError):
    """Errors in a user program; the message is the rendered diagnostic pointing at the source.

    Uncaught, it prints without the stack's internal frames (see tvm._excepthook);
    TVM_BACKTRACE=1 shows the full trace.
    """


@tvm_ffi.register_error
class ScheduleError(RuntimeError):
    """A schedule primitive cannot be applied to the program."""


__all__ = [
    "InternalError",
    "RPCError",
    "RPCSessionTimeoutError",
    "OpError",
    "OpNotImplemented",
    "OpAttributeRequired",
    "OpAttributeInvalid",
    "DiagnosticError",
    "ScheduleError",
]
