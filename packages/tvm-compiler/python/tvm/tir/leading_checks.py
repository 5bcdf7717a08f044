"""The run-time checks (AssertStmts) a PrimFunc starts with, first in its root block, where
TVMScript's implicit root puts a function's statements (an assert around the root block would
print as a second, explicit root)."""

from __future__ import annotations

from .stmt import AssertStmt, BlockRealize


def leading_checks(func):
    """([(condition, message)] the body starts with, in or before the root block; func
    without them)."""
    checks, body = [], func.body
    while isinstance(body, AssertStmt):
        checks.append((body.condition, body.message))
        body = body.body
    if isinstance(body, BlockRealize):
        inner = body.block.body
        while isinstance(inner, AssertStmt):
            checks.append((inner.condition, inner.message))
            inner = inner.body
        body = body.with_fields(block=body.block.with_fields(body=inner))
    return checks, func.with_body(body)


def with_leading_checks(func, checks):
    """func with checks ([(condition, message)], in order) first in its root block (or first
    in its body when it has none)."""
    body = func.body
    realize = body if isinstance(body, BlockRealize) else None
    inner = realize.block.body if realize is not None else body
    for condition, message in reversed(checks):
        inner = AssertStmt(condition, message, inner)
    if realize is not None:
        inner = realize.with_fields(block=realize.block.with_fields(body=inner))
    return func.with_body(inner)
