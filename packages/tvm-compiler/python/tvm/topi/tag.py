"""Operator pattern tags (upstream's topi.tag): names a schedule reads off an op's tag."""

ELEMWISE = "elemwise"
BROADCAST = "broadcast"
INJECTIVE = "injective"
COMM_REDUCE = "comm_reduce"
COMM_REDUCE_IDX = "comm_reduce_idx"


def is_broadcast(tag):
    """Whether tag marks an elementwise or broadcast op (or one of their variants)."""
    if tag in (ELEMWISE, BROADCAST):
        return True
    return tag.startswith(ELEMWISE) or tag.startswith(BROADCAST)


def is_injective(tag):
    """Whether tag marks an injective op (elementwise and broadcast ones are)."""
    if tag in (ELEMWISE, BROADCAST, INJECTIVE):
        return True
    return tag.startswith((ELEMWISE, BROADCAST, INJECTIVE))
