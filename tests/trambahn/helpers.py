"""Build Trambahn positions by hand for rule tests."""

from __future__ import annotations

from tramways.trambahn.cards import COLOURS, DISPLAY_SIZE, IDS_BY_FACE, TRAM_STACK
from tramways.trambahn.engine import TrambahnState
from tramways.trambahn.position import Column


class Pools:
    """Hands out card ids by face, each id once."""

    def __init__(self) -> None:
        self.pools = {f: list(ids) for f, ids in IDS_BY_FACE.items()}

    def take(self, face: str) -> int:
        return self.pools[face].pop()

    def many(self, faces: str | list[str]) -> list[int]:
        if isinstance(faces, str):
            faces = faces.split()
        return [self.take(f) for f in faces]

    def rest(self) -> list[int]:
        out = [c for ids in self.pools.values() for c in ids]
        for ids in self.pools.values():
            ids.clear()
        return out


def column(pools: Pools, stations: str, tram: str | None = None, conductors: int = 0,
           toured: bool = False) -> Column:
    ids = pools.many(stations)
    colour = COLOURS.index(stations.split()[0][-1])
    return Column(colour, ids, pools.many(["C"] * conductors), tram, toured)


def position(
    hands: tuple[str, str] = ("", ""),
    money: tuple[int, int] = (0, 0),
    rows: dict[str, str] | None = None,
    columns: tuple[list[tuple], list[tuple]] = ([], []),
    deck: int | None = None,
    discard: int = 0,
    display: list[str] | None = None,
    stack: list[str] | None = None,
    regular: int = 0,
    turn: int = 0,
    seed: int = 7,
) -> TrambahnState:
    """A position; columns are tuples of :func:`column` arguments; spare cards form the deck.

    ``deck`` limits the size of the draw pile (the other spare cards then form the discard
    pile); otherwise ``discard`` spare cards form the discard pile and the rest the draw pile.
    """
    pools = Pools()
    hand_ids = [pools.many(h) for h in hands]
    row_ids = [pools.many((rows or {}).get(c, "")) for c in COLOURS]
    col_objs = [[column(pools, *spec) for spec in cols] for cols in columns]
    spare = pools.rest()
    money_ids = [spare[: money[0]], spare[money[0] : money[0] + money[1]]]
    spare = spare[money[0] + money[1] :]
    if deck is None:
        deck_ids, discard_ids = spare[discard:], spare[:discard]
    else:
        deck_ids, discard_ids = spare[:deck], spare[deck:]
    if stack is None:
        stack = list(TRAM_STACK[DISPLAY_SIZE:])
    if display is None:
        display = list(TRAM_STACK[:DISPLAY_SIZE])
    # tramway cards on columns come out of the stack
    for cols in col_objs:
        for col in cols:
            if col.tram is not None and col.tram in stack:
                stack.remove(col.tram)
    state = TrambahnState(
        seed=seed,
        names=("Ann", "Bob"),
        deck=deck_ids,
        discard=discard_ids,
        hands=hand_ids,
        money=money_ids,
        rows=row_ids,
        columns=col_objs,
        stack=stack,
        display=display,
        turn=turn,
        regular=regular,
    )
    return state
