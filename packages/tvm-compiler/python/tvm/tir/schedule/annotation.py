"""annotate / unannotate: key-value hints on a block or a loop, kept in the IR for later passes."""

from __future__ import annotations

from .. import expr as E
from .tree import replace_at


def _target(sch, rv, primitive):
    from .schedule import BlockRV, LoopRV

    if isinstance(rv, BlockRV):
        path = sch._block_path(rv, primitive)
        return path, path[-1].block
    if isinstance(rv, LoopRV):
        path = sch._loop_path(rv, primitive)
        return path, path[-1]
    raise TypeError(
        f"{primitive}: argument 'block_or_loop' must be a BlockRV or LoopRV, got "
        f"{type(rv).__name__}"
    )


def _check_value(primitive, value):
    ok = (str, int, float, bool, E.PrimExpr)
    if isinstance(value, (list, tuple)):
        if all(isinstance(v, ok) for v in value):
            return list(value)
    elif isinstance(value, dict):
        if all(isinstance(k, str) and isinstance(v, ok) for k, v in value.items()):
            return dict(value)
    elif isinstance(value, ok):
        return value
    raise TypeError(
        f"{primitive}: argument 'ann_val' must be a str, int, float, bool, PrimExpr, "
        f"or a list/dict of them, got {type(value).__name__}"
    )


def _set_annotations(sch, rv, primitive, update):
    path, node = _target(sch, rv, primitive)
    annotations = update(dict(node.annotations))
    new = node.with_fields(annotations=annotations)
    if path[-1] is node:  # a loop
        sch._set_body(replace_at(path, new))
    else:  # a block: its realize is the path's end
        sch._set_body(replace_at(path, path[-1].with_fields(block=new)))


def annotate(sch, rv, ann_key, ann_val) -> None:
    if not isinstance(ann_key, str) or not ann_key:
        raise TypeError(f"annotate: argument 'ann_key' must be a non-empty str, got {ann_key!r}")
    value = _check_value("annotate", ann_val)
    _set_annotations(sch, rv, "annotate", lambda anns: {**anns, ann_key: value})


def unannotate(sch, rv, ann_key) -> None:
    def drop(anns):
        if ann_key not in anns:
            raise sch._error(
                "unannotate", f"there is no annotation {ann_key!r}; annotations: {sorted(anns)}"
            )
        return {k: v for k, v in anns.items() if k != ann_key}

    _set_annotations(sch, rv, "unannotate", drop)
