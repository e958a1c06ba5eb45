"""The block-cut tree bound of the route search (:mod:`.search`): a simple path never comes
back to a biconnected block it left, so it collects at most the stops of the blocks along one
path of the block-cut tree, plus one leaf at each end (IX.2: no stop twice)."""

from __future__ import annotations


class BlockTree:
    """The block-cut tree of the remaining graph and the most a simple path can collect along
    one of its paths (:meth:`~tramways.g1840.routes.search._Search.block_bound`)."""

    def __init__(self, blocks: list[set[int]], val: dict[int, int], leaf: dict[int, int]
                 ) -> None:
        self.blocks = blocks
        self.val = val
        self.leaf = leaf
        self.of: dict[int, list[int]] = {}
        for i, block in enumerate(blocks):
            for v in block:
                self.of.setdefault(v, []).append(i)
        self.memo: dict[tuple[int, int], int] = {}

    def down_vertex(self, w: int, came: int) -> int:
        """The most collected below ``w``, coming from block ``came``."""
        best = self.leaf[w]
        for j in self.of.get(w, ()):
            if j != came:
                got = self.down_block(j, w)
                if got > best:
                    best = got
        return best

    def down_block(self, j: int, parent: int) -> int:
        """The most collected in block ``j`` and below it, entered at ``parent``."""
        key = (j, parent)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        total = 0
        more = 0
        for w in self.blocks[j]:
            if w == parent:
                continue
            total += self.val[w]
            got = self.down_vertex(w, j)
            if got > more:
                more = got
        self.memo[key] = total + more
        return total + more

    def best(self, ends: tuple[int, ...], twice: bool) -> int:
        """The bound for one open end (``twice``: both arms still leave it) or two."""
        blocks, val = self.blocks, self.val
        if len(ends) == 1 and not twice:
            return self.down_vertex(ends[0], -1)
        if len(ends) == 1:
            # both arms still to grow from the marker: into two different blocks (or one of
            # them to a leaf), or both into the same block
            m = ends[0]
            mine = self.of.get(m, [])
            cross = sorted([self.leaf[m]] + [self.down_block(j, m) for j in mine], reverse=True)
            best = sum(cross[:2])
            for j in mine:
                inner = sorted((self.down_vertex(w, j) for w in blocks[j] if w != m),
                               reverse=True)
                same = sum(val[w] for w in blocks[j] if w != m) + sum(inner[:2])
                if same > best:
                    best = same
            return best
        a, b = ends
        root = next(j for j in self.of[a] if b in blocks[j])
        total = 0
        options = []
        for w in blocks[root]:
            total += val[w]
            options.append(self.down_vertex(w, root))
        options.sort(reverse=True)
        return total + sum(options[:2])


def blocks(root: int, adj: dict[int, list[int]]) -> list[set[int]]:
    """The biconnected blocks (vertex sets) of the component of ``root`` (Tarjan)."""
    disc = {root: 0}
    low = {root: 0}
    counter = 1
    edges: list[tuple[int, int]] = []
    out: list[set[int]] = []
    stack = [(root, -1, iter(adj[root]))]
    while stack:
        v, parent, it = stack[-1]
        pushed = False
        for w in it:
            if w == parent:
                continue
            if w not in disc:
                disc[w] = low[w] = counter
                counter += 1
                edges.append((v, w))
                stack.append((w, v, iter(adj[w])))
                pushed = True
                break
            if disc[w] < disc[v]:
                if disc[w] < low[v]:
                    low[v] = disc[w]
                edges.append((v, w))
        if pushed:
            continue
        stack.pop()
        if stack:
            u = stack[-1][0]
            if low[v] < low[u]:
                low[u] = low[v]
            if low[v] >= disc[u]:
                block: set[int] = set()
                while True:
                    a, b = edges.pop()
                    block.add(a)
                    block.add(b)
                    if (a, b) == (u, v):
                        break
                out.append(block)
    return out
