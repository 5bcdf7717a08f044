"""FuseOps' grouping of a dataflow block: its bindings as a graph annotated with op patterns,
the post-dominator tree, and upstream's three-phase partitioner (anchors take their
elementwise epilogues, then injective ops fuse, then injective ops fuse into tuples)."""

from __future__ import annotations

from .tir_op_pattern import OpPatternKind as K


class Node:
    """A value of the block: a binding, or a leaf (a parameter, a constant, an outer var)."""

    def __init__(self, index, key, binding, pattern):
        self.index = index
        self.key = key  # the relax Var it defines (or the leaf expression)
        self.binding = binding  # None for leaves
        self.pattern = pattern
        self.outputs: list = []  # (consumer node, the consumer's pattern)
        self.extern_ref = False  # read outside the block (or the block's output)


class Group:
    """A union-find set of nodes that will become one primitive function."""

    def __init__(self, node):
        self.parent = None
        self.pattern = node.pattern
        self.anchor = node if node.pattern == K.kOutEWiseFusable else None
        self.num_nodes = 1

    def root(self):
        group = self
        while group.parent is not None:
            group = group.parent
        return group


def combine(lhs, rhs):
    """The pattern of a path through two kinds: the more general one."""
    return max(lhs, rhs)


class _DomNode:
    def __init__(self, node, parent, depth, pattern):
        self.node = node
        self.parent = parent
        self.depth = depth
        self.pattern = pattern


def post_dominators(nodes) -> list:
    """Each node's immediate post-dominator (nodes in topological order)."""
    tree: list = [None] * len(nodes)

    def lca(lhs, rhs, pattern):
        while lhs is not rhs:
            if lhs is None or rhs is None:
                return None, pattern
            if lhs.depth < rhs.depth:
                pattern = combine(pattern, rhs.pattern)
                rhs = rhs.parent
            elif rhs.depth < lhs.depth:
                pattern = combine(pattern, lhs.pattern)
                lhs = lhs.parent
            else:
                pattern = combine(combine(pattern, lhs.pattern), rhs.pattern)
                lhs, rhs = lhs.parent, rhs.parent
        return lhs, pattern

    for node in reversed(nodes):
        if node.extern_ref or not node.outputs:
            tree[node.index] = _DomNode(node, None, 1, K.kOpaque)
            continue
        pattern = K.kElemWise
        parent = None
        for i, (consumer, edge) in enumerate(node.outputs):
            other = tree[consumer.index]
            if i == 0:
                parent = other
            else:
                parent, pattern = lca(parent, other, pattern)
            pattern = combine(pattern, edge)
        depth = parent.depth + 1 if parent is not None else 1
        tree[node.index] = _DomNode(node, parent, depth, pattern)
    return tree


class Partitioner:
    """Upstream's GraphPartitioner over one block's nodes."""

    def __init__(self, nodes, opt_level: int, max_fuse_depth: int = 256):
        self.nodes = nodes
        self.opt_level = opt_level
        self.max_fuse_depth = max_fuse_depth
        self.groups = [Group(n) for n in nodes]

    def partition(self) -> list:
        if self.opt_level == 0:
            return self.groups
        tree = post_dominators(self.nodes)
        for phase in range(3):
            self._run(tree, phase)
        return self.groups

    # -- paths ----------------------------------------------------------------------------
    def _check_path(self, src, sink, fcond) -> bool:
        visited: set = set()

        def walk(node):
            if node.index in visited:
                return True
            visited.add(node.index)
            if not fcond(self.groups[node.index].root().pattern, node is sink):
                return False
            if node is sink:
                return True
            return all(walk(c) for c, _ in node.outputs)

        return all(walk(c) for c, _ in src.outputs)

    def _merge(self, child, parent) -> None:
        child, parent = child.root(), parent.root()
        if child is parent:
            return
        parent.num_nodes += child.num_nodes
        child.parent = parent
        if child.anchor is not None:
            parent.anchor = child.anchor
            parent.pattern = combine(child.pattern, parent.pattern)

    def _commit(self, src, sink) -> None:
        target = self.groups[sink.index]
        visited: set = set()

        def walk(node):
            if node.index in visited:
                return
            visited.add(node.index)
            self._merge(self.groups[node.index], target)
            if node is not sink:
                for c, _ in node.outputs:
                    walk(c)

        walk(src)

    def _count_with(self, src, sink) -> int:
        """Nodes in the group src would join if fused into sink's."""
        visited: set = set()
        roots: set = set()

        def walk(node):
            if node.index in visited:
                return
            visited.add(node.index)
            roots.add(self.groups[node.index].root())
            if node is not sink:
                for c, _ in node.outputs:
                    walk(c)

        walk(src)
        return sum(g.num_nodes for g in roots)

    # -- the phases -------------------------------------------------------------------------
    def _run(self, tree, phase) -> None:
        for node in self.nodes:
            dom = tree[node.index]
            group = self.groups[node.index]
            if group.pattern == K.kOpaque or dom.parent is None:
                continue
            sink = dom.parent.node
            if self._count_with(node, sink) > self.max_fuse_depth:
                continue
            parent_group = self.groups[sink.index]
            if phase == 2:
                if group.pattern > K.kInjective:
                    continue
                root = parent_group.root()
                if root.pattern == K.kTuple:
                    continue
                if parent_group.pattern == K.kTuple and root.pattern <= K.kInjective:
                    if self._check_path(node, sink, lambda k, _: k <= K.kInjective):
                        self._commit(node, sink)
                continue
            if group.root() is parent_group.root():
                continue
            if parent_group.pattern == K.kTuple:
                continue
            if group.pattern == K.kOutEWiseFusable:
                if phase != 0 or dom.pattern != K.kElemWise:
                    continue
                if self._check_path(node, sink, lambda k, _: k <= K.kBroadcast):
                    self._commit(node, sink)
            elif group.pattern <= K.kBroadcast:
                if not (dom.pattern <= K.kInjective or dom.pattern == K.kCommReduce):
                    continue

                def fcond(kind, is_sink):
                    if not is_sink:
                        return kind <= K.kInjective
                    return kind <= K.kOutEWiseFusable

                if self._check_path(node, sink, fcond):
                    self._commit(node, sink)
            elif group.pattern in (K.kInjective, K.kTuple):
                if phase != 1:
                    continue
                if self._check_path(node, sink, lambda k, _: k <= K.kInjective):
                    self._commit(node, sink)
