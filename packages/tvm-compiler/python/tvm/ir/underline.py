"""Upstream's script() layout options: path_to_underline (carets under the text of what a path
reaches), num_context_lines and print_line_numbers, applied to a printout made with markers."""

from __future__ import annotations

# The printers wrap the text of a marked object in OPEN/CLOSE, or start each line of a marked
# statement with LINE; no printed text contains these characters.
OPEN, CLOSE, LINE = "\x01", "\x02", "\x03"

# While one script() call prints with underlining: the ids of the objects to mark, the ids of
# every node on the paths, and the nodes being printed (innermost last).
_targets: set[int] = set()
_on_path: set[int] = set()
_stack: list = []


def active() -> bool:
    """Whether a printout is being made with underlining (printers then call `inline`)."""
    return bool(_targets)


_anywhere: set[int] = set()  # obj_to_underline's: every occurrence


def _wanted(obj) -> bool:
    # An object printed in several places (a variable) is underlined only where it is printed
    # inside a node on the path, as upstream underlines the path's own occurrence.
    return id(obj) in _targets and (
        not _stack or id(_stack[-1]) in _on_path or id(obj) in _anywhere
    )


def inline(obj, make) -> str:
    """make() (the text of obj, printed inline), wrapped in markers when obj is underlined."""
    wanted = _wanted(obj)
    _stack.append(obj)
    try:
        text = make()
    finally:
        _stack.pop()
    return OPEN + text + CLOSE if wanted else text


def lines(obj, make, out: list) -> None:
    """make() appending the lines of obj to out, marked whole when obj is underlined."""
    wanted, start = _wanted(obj), len(out)
    _stack.append(obj)
    try:
        make()
    finally:
        _stack.pop()
    if wanted:
        for i in range(start, len(out)):
            if out[i].strip():
                out[i] = LINE + out[i]


def marked_block(obj, text: str) -> str:
    """text (the lines printing obj) with every line marked when obj is underlined."""
    if not _wanted(obj):
        return text
    return "\n".join(LINE + line if line.strip() else line for line in text.split("\n"))


def objects_on_path(root, path) -> list:
    """The IR nodes an AccessPath passes through from root, root first (it stops where the
    path leaves what root holds, e.g. at an int field or a missing item)."""
    from tvm_ffi.access_path import AccessKind

    from .node import Node

    chain, value = [root], root
    for step in path.to_steps():
        kind, key = step.kind, step.key
        try:
            if kind == AccessKind.ATTR:
                value = getattr(value, key)
            elif kind in (AccessKind.ARRAY_ITEM, AccessKind.MAP_ITEM):
                value = value[key]
            else:
                break
        except (AttributeError, IndexError, KeyError, TypeError):
            break
        if isinstance(value, Node):
            chain.append(value)
    return chain


def print_underlined(root, paths, make, objects=()) -> str:
    """make() printed with the text of what each path reaches underlined: the deepest node on
    the path that the printout shows (upstream underlines the longest printed prefix); each of
    `objects` is underlined wherever it is printed."""
    from .node import Node

    if not paths:
        _targets.update(id(o) for o in objects)
        _anywhere.update(id(o) for o in objects)
        try:
            return make()
        finally:
            _targets.clear()
            _anywhere.clear()
    chains = [objects_on_path(root, p) for p in paths]
    depth = max(len(c) for c in chains)
    for level in range(depth - 1, -1, -1):
        ids = {id(c[level]) for c in chains if len(c) > level}
        whole = any(c[level] is root for c in chains if len(c) > level)
        _targets.clear()
        _targets.update(i for i in ids if i != id(root) or not isinstance(root, Node))
        _targets.update(id(o) for o in objects)
        _anywhere.update(id(o) for o in objects)
        _on_path.update(id(node) for c in chains for node in c)
        try:
            text = make()
        finally:
            _targets.clear()
            _on_path.clear()
            _anywhere.clear()
        if whole:
            return _mark_all(text)
        if OPEN in text or LINE in text:
            return text
    return make()


def _mark_all(text: str) -> str:
    # The root underlined: every line of it, not the import headers or blank lines.
    lines = text.split("\n")
    return "\n".join(
        LINE + line if line.strip() and not line.startswith("# from tvm.script") else line
        for line in lines
    )


def spans(text: str) -> tuple[list[str], list[list[tuple[int, int]]]]:
    """The lines of a marked text without markers, and each line's underlined column ranges."""
    lines, ranges = [], []
    for raw in text.split("\n"):
        whole = LINE in raw
        raw = raw.replace(LINE, "")
        line, cols, depth, start = [], [], 0, 0
        for ch in raw:
            if ch == OPEN:
                if depth == 0:
                    start = len(line)
                depth += 1
            elif ch == CLOSE:
                depth -= 1
                if depth == 0:
                    cols.append((start, len(line)))
            else:
                line.append(ch)
        line = "".join(line)
        if whole:
            cols = [(len(line) - len(line.lstrip(" ")), len(line))]
        lines.append(line)
        ranges.append(cols)
    return lines, ranges


def layout(lines, ranges, num_context_lines: int = -1, print_line_numbers: bool = False) -> str:
    """Lines with a caret line under each underlined one, numbered when asked, and only
    num_context_lines around the underlined ones when that is not -1 (upstream's form)."""
    width = len(str(len(lines)))
    shown = [True] * len(lines)
    underlined = [i for i, r in enumerate(ranges) if r]
    if num_context_lines >= 0 and underlined:
        shown = [
            any(abs(i - u) <= num_context_lines for u in underlined) for i in range(len(lines))
        ]
    out, i = [], 0
    while i < len(lines):
        if not shown[i]:
            j = i
            while j < len(lines) and not shown[j]:
                j += 1
            if j - i > 1:  # one hidden line takes no less room than saying so: it is shown
                out.append(f"(... {j - i} lines skipped ...)")
                i = j
                continue
        prefix = f"{i + 1:>{width}} " if print_line_numbers else ""
        out.append(prefix + lines[i])
        if ranges[i]:
            carets = [" "] * max(end for _, end in ranges[i])
            for start, end in ranges[i]:
                carets[start:end] = "^" * (end - start)
            out.append(" " * len(prefix) + "".join(carets).rstrip())
        i += 1
    return "\n".join(out)


def reindent(lines: list, ranges: list, spaces: int) -> None:
    """Make each level of indentation (4 spaces) `spaces` wide, moving the underlines with
    the text; lines inside a triple-quoted string (the metadata section) are left alone."""
    in_string = False
    for i, line in enumerate(lines):
        if not in_string:
            old = len(line) - len(line.lstrip(" "))
            new = old // 4 * spaces + old % 4
            if new != old:
                lines[i] = " " * new + line[old:]
                ranges[i] = [(a - old + new, b - old + new) for a, b in ranges[i]]
        if line.count('"""') % 2:
            in_string = not in_string
