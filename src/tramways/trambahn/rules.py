"""The rules of a turn: what may be done now, and what an action does.

A turn is the five steps of the rulebook (Course of Play) in order: 1-2 passengers, any
stations, income, tram purchases, end (discard tram-less columns, draw up to 6, refill the
display).  Each step is made of small actions (:mod:`tramways.trambahn.actions`); doing an
action of a later step closes the earlier steps.  ``apply_action`` checks everything first
and changes the state only when the action is legal.
"""

from __future__ import annotations

from tramways.core import Action, IllegalAction, derive_rng
from tramways.trambahn.actions import Buy, EndTurn, Income, Passenger, Resign, Station
from tramways.trambahn.cards import (
    CARD_COLOUR,
    CARD_FACE,
    COLOUR_NAMES,
    COLOURS,
    CONDUCTOR,
    DISPLAY_SIZE,
    EXTRA_TOUR_SIZE,
    HAND_SIZE,
    REGULAR_SCORINGS,
    ROW_SIZE,
    TRAMS,
    face_colour,
    face_value,
    tram_value,
)
from tramways.trambahn.position import Column, TrambahnPosition
from tramways.trambahn.view_types import ScoringView, TrambahnResult

_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}


def legal_actions(state: TrambahnPosition, player: int | None = None) -> list[Action]:
    """Every legal action of the player to move (each distinct card face once), in the order
    of the steps: passengers, stations, income, trams, the end of the turn."""
    if state.over or (player is not None and player != state.turn):
        return []
    p = state.turn
    faces = list(dict.fromkeys(CARD_FACE[c] for c in state.hands[p]))
    acts = _legal_passengers(state, p, faces)
    if state.passengers == 0:
        return acts
    if state.step <= 2:
        acts.extend(_legal_stations(state.columns[p], p, faces))
    if state.step <= 3:
        acts.extend(Income(p, f) for f in faces)
    acts.extend(_legal_buys(state, p))
    acts.append(EndTurn(p))
    return acts


def _legal_passengers(state: TrambahnPosition, p: int, faces: list[str]) -> list[Action]:
    """Step 1: up to 2 passengers, each to its colour's row (a conductor to any row)."""
    acts: list[Action] = []
    if state.step == 1 and state.passengers < 2:
        for f in faces:
            if f == CONDUCTOR:
                acts.extend(Passenger(p, f, r) for r in COLOURS)
            else:
                acts.append(Passenger(p, f, f[-1]))
    return acts


def _legal_stations(cols: list[Column], p: int, faces: list[str]) -> list[Action]:
    """Step 2: a station on each column it ascends, else a new column; a conductor beside any
    column without a 10 (T-R-1)."""
    acts: list[Action] = []
    for f in faces:
        if f == CONDUCTOR:
            acts.extend(Station(p, f, i) for i, col in enumerate(cols) if not col.complete)
            continue
        colour = _COLOUR_INDEX[f[-1]]
        value = int(f[:-1])
        fits = [i for i, col in enumerate(cols) if col.colour == colour and col.top < value]
        if fits:
            acts.extend(Station(p, f, i) for i in fits)
        else:
            acts.append(Station(p, f, None))
    return acts


def _legal_buys(state: TrambahnPosition, p: int) -> list[Action]:
    """Step 4: each tram on display the money pile pays for, onto each column without one."""
    free = [i for i, col in enumerate(state.columns[p]) if col.tram is None]
    if not state.display or not free:
        return []
    cash = len(state.money[p])
    return [Buy(p, kind, i) for kind in dict.fromkeys(state.display)
            if TRAMS[kind][1] <= cash for i in free]


def apply_action(state: TrambahnPosition, action: Action, seat: int | None = None) -> list[str]:
    """Check and apply one action played by ``seat``; return log lines.  ``IllegalAction``
    changes nothing.  A player's actions are played by that player only ("Course of Play":
    you take your turn); ``seat=None`` is the player the action names."""
    if seat is not None and seat != action.player:
        raise IllegalAction("Course of Play",
                            f"seat {seat + 1} may not play P{action.player + 1}'s action")
    if state.over:
        raise IllegalAction("Game End", "the game is over")
    if isinstance(action, Resign):
        return _resign(state, action)
    if action.player != state.turn:
        raise IllegalAction("Course of Play", f"it is P{state.turn + 1}'s turn")
    if isinstance(action, Passenger):
        return _passenger(state, action)
    if isinstance(action, Station):
        return _station(state, action)
    if isinstance(action, Income):
        return _income(state, action)
    if isinstance(action, Buy):
        return _buy(state, action)
    if isinstance(action, EndTurn):
        return _end_turn(state, action)
    raise IllegalAction("Course of Play", f"not a Trambahn action: {action!r}")


# -- checks ------------------------------------------------------------------------------------


def _card_in_hand(state: TrambahnPosition, face: str) -> int:
    for c in state.hands[state.turn]:
        if CARD_FACE[c] == face:
            return c
    raise IllegalAction("Course of Play", f"no {face} in P{state.turn + 1}'s hand")


def _after_passengers(state: TrambahnPosition, what: str) -> None:
    if state.passengers == 0:
        raise IllegalAction("1", f"play 1 or 2 passengers before {what}")


def _check_step(state: TrambahnPosition, step: int, what: str) -> None:
    if state.step > step:
        raise IllegalAction(
            "Course of Play", f"{what} is step {step}; this turn is already at step {state.step}"
        )


# -- step 1: passengers ----------------------------------------------------------------------


def _passenger(state: TrambahnPosition, a: Passenger) -> list[str]:
    """Step 1: 1 or 2 passengers; the 4th of a row scores that colour at once (T-R-2)."""
    if state.step > 1 or state.passengers >= 2:
        raise IllegalAction("1", "at most 2 passengers, before any other step")
    if a.row not in _COLOUR_INDEX:
        raise IllegalAction("1", f"no row {a.row!r} (rows: b, r, g, y)")
    if a.card != CONDUCTOR and a.card[-1] != a.row:
        raise IllegalAction("1", f"{a.card} can only join the {a.card[-1]} row")
    card = _card_in_hand(state, a.card)
    p = state.turn
    state.hands[p].remove(card)
    row_index = _COLOUR_INDEX[a.row]
    row = state.rows[row_index]
    row.append(card)
    state.passengers += 1
    log = [f"P{p + 1} places {a.card} as a passenger in the {COLOUR_NAMES[a.row]} row ({len(row)}/{ROW_SIZE})"]
    if len(row) == ROW_SIZE:
        log.extend(regular_scoring(state, row_index))
    return log


def regular_scoring(state: TrambahnPosition, colour: int) -> list[str]:
    """Scoring: every column of the colour of both players, points x tram value (T-R-2).

    The row's passengers are discarded; the 10th regular scoring ends the game (T-R-4).
    """
    state.regular += 1
    per_player = [[col.score for col in cols if col.colour == colour] for cols in state.columns]
    points = [sum(x) for x in per_player]
    for p in (0, 1):
        state.scores[p] += points[p]
    state.history.append(ScoringView(
        kind="regular",
        number=state.regular,
        colour=COLOURS[colour],
        turn=state.turn_number,
        columns=tuple(tuple(x) for x in per_player),
        points=tuple(points),
    ))
    state.discard.extend(state.rows[colour])
    state.rows[colour] = []
    log = [
        f"Scoring {state.regular} ({COLOUR_NAMES[COLOURS[colour]]}): "
        f"P1 {_sum_text(per_player[0])}, P2 {_sum_text(per_player[1])}"
    ]
    if state.regular >= REGULAR_SCORINGS:
        _finish(state, "tenth scoring")
        log.append(_final_line(state))
    return log


def _sum_text(parts: list[int]) -> str:
    if len(parts) <= 1:
        return str(sum(parts))
    return f"{'+'.join(map(str, parts))}={sum(parts)}"


# -- step 2: stations ------------------------------------------------------------------------


def _station(state: TrambahnPosition, a: Station) -> list[str]:
    """Step 2: columns ascend strictly; new columns only when no column fits (T-R-1)."""
    _after_passengers(state, "stations")
    _check_step(state, 2, "placing stations")
    p = state.turn
    cols = state.columns[p]
    if a.card == CONDUCTOR:
        if a.column is None:
            raise IllegalAction("T-R-1", "a conductor never starts a column")
        if not 0 <= a.column < len(cols):
            raise IllegalAction("2", f"P{p + 1} has no column {a.column + 1}")
        if cols[a.column].complete:
            raise IllegalAction("T-R-1", f"column {a.column + 1} is complete (it has a 10)")
    else:
        colour, value = face_colour(a.card), face_value(a.card)
        fits = [i for i, col in enumerate(cols) if col.colour == colour and col.top < value]
        if a.column is None:
            if fits:
                raise IllegalAction(
                    "T-R-1", f"{a.card} fits column {fits[0] + 1}: it cannot start a new one"
                )
        elif not 0 <= a.column < len(cols):
            raise IllegalAction("2", f"P{p + 1} has no column {a.column + 1}")
        elif a.column not in fits:
            col = cols[a.column]
            if col.colour != colour:
                raise IllegalAction("2", f"column {a.column + 1} is not {COLOURS[colour]}")
            raise IllegalAction(
                "T-R-1", f"column {a.column + 1} ends at {col.top}; {a.card} must be higher"
            )
    card = _card_in_hand(state, a.card)
    state.step = 2
    state.hands[p].remove(card)
    if a.column is None:
        cols.append(Column(CARD_COLOUR[card], [card]))
        index = len(cols) - 1
        log = [f"P{p + 1} starts column {index + 1} with {a.card}"]
    else:
        index = a.column
        col = cols[index]
        col.add(card)
        log = [f"P{p + 1} adds {a.card} to column {index + 1}"]
    col = cols[index]
    if col.size == EXTRA_TOUR_SIZE and not col.toured:
        log.extend(extra_tour(state, p, index))
    return log


def extra_tour(state: TrambahnPosition, player: int, index: int) -> list[str]:
    """Extra Tour: the column's 8th card scores it once, x0 without a tram (T-R-3)."""
    col = state.columns[player][index]
    col.toured = True
    points = col.score
    state.scores[player] += points
    state.history.append(ScoringView(
        kind="extra",
        player=player,
        colour=COLOURS[col.colour],
        turn=state.turn_number,
        column=index,
        points=tuple(points if q == player else 0 for q in (0, 1)),
    ))
    return [
        f"Extra Tour: P{player + 1} column {index + 1} scores {col.points} x "
        f"{tram_value(col.tram)} = {points}"
    ]


# -- step 3: income --------------------------------------------------------------------------


def _income(state: TrambahnPosition, a: Income) -> list[str]:
    """Step 3: any hand card may go face down onto the money pile."""
    _after_passengers(state, "income")
    _check_step(state, 3, "income")
    card = _card_in_hand(state, a.card)
    p = state.turn
    state.step = 3
    state.hands[p].remove(card)
    state.money[p].append(card)
    return [f"P{p + 1} adds a card to the money pile ({len(state.money[p])})"]


# -- step 4: trams ---------------------------------------------------------------------------


def _buy(state: TrambahnPosition, a: Buy) -> list[str]:
    """Step 4: buy from the display with money cards, assign at once (T-FACT-1).

    The cards paid are the top ones of the money pile: their faces are hidden from everybody,
    so which ones go is immaterial to the players (and deterministic for replay).
    """
    _after_passengers(state, "buying trams")
    _check_step(state, 4, "buying trams")
    p = state.turn
    if a.kind not in state.display:
        raise IllegalAction("4", f"no {a.kind} tram on display ({', '.join(state.display)})")
    cost = TRAMS[a.kind][1]
    if len(state.money[p]) < cost:
        raise IllegalAction("4", f"a {a.kind} tram costs {cost}; P{p + 1} has {len(state.money[p])}")
    cols = state.columns[p]
    if not 0 <= a.column < len(cols):
        raise IllegalAction("4", f"P{p + 1} has no column {a.column + 1} to assign it to")
    if cols[a.column].tram is not None:
        raise IllegalAction("4", f"column {a.column + 1} already has a tram")
    state.step = 4
    money = state.money[p]
    paid = money[len(money) - cost :]
    del money[len(money) - cost :]
    state.discard.extend(paid)
    state.display.remove(a.kind)
    cols[a.column].tram = a.kind
    return [f"P{p + 1} buys a {a.kind} tram for {cost} and assigns it to column {a.column + 1}"]


# -- step 5: end of turn ---------------------------------------------------------------------


def _end_turn(state: TrambahnPosition, a: EndTurn) -> list[str]:
    """Step 5: tram-less columns go to the money pile (T-R-6), draw up to 6, refill."""
    _after_passengers(state, "ending the turn")
    p = state.turn
    log: list[str] = []
    kept: list[Column] = []
    for col in state.columns[p]:
        if col.tram is None:
            state.money[p].extend(col.stations)
            state.money[p].extend(col.conductors)
            log.append(f"P{p + 1} moves a tram-less {COLOUR_NAMES[COLOURS[col.colour]]} column to money")
        else:
            kept.append(col)
    state.columns[p] = kept
    hand = state.hands[p]
    while len(hand) < HAND_SIZE:
        if not state.deck:
            log.extend(_reshuffle(state))
            if state.over:
                return log
        hand.append(state.deck.pop())
        if not state.deck:
            log.extend(_reshuffle(state))
            if state.over:
                return log
    while len(state.display) < DISPLAY_SIZE and state.stack:
        state.display.append(state.stack.pop(0))
    log.append(f"P{p + 1} ends turn {state.turn_number}")
    state.turn = 1 - p
    state.turn_number += 1
    state.step = 1
    state.passengers = 0
    return log


def _reshuffle(state: TrambahnPosition) -> list[str]:
    """The draw pile is empty: both discard half their money at random, reshuffle (T-R-5).

    The random outcomes come from ``derive_rng(seed, "reshuffle", k)`` (k = 1, 2, ...), so a
    replay of the record reproduces them.  Both piles empty: the game ends as it stands.
    """
    state.reshuffles += 1
    rng = derive_rng(state.seed, "reshuffle", state.reshuffles)
    log = []
    for p in (0, 1):
        money = state.money[p]
        n = len(money) // 2
        chosen = set(rng.sample(range(len(money)), n))
        state.discard.extend(money[i] for i in sorted(chosen))
        state.money[p] = [c for i, c in enumerate(money) if i not in chosen]
        log.append(f"P{p + 1} discards {n} of {len(money)} money cards")
    deck = state.discard
    rng.shuffle(deck)
    state.deck = deck
    state.discard = []
    log.append(f"Reshuffle {state.reshuffles}: {len(deck)} cards form the new draw pile")
    if not deck:
        _finish(state, "cards exhausted")
        log.append(_final_line(state))
    return log


# -- game end --------------------------------------------------------------------------------


def _finish(state: TrambahnPosition, reason: str) -> None:
    state.over = True
    state.end_reason = reason


RESIGNATION = "resignation"
"""The end reason of a game ended by a resignation (docs/async.md)."""


def _resign(state: TrambahnPosition, a: Resign) -> list[str]:
    """The player resigns, in either player's turn, and the game ends at once: the other
    player wins whatever the score (docs/async.md, the site's ``on_resign: "end"``).  Nothing
    hidden is turned up: the view of the end is the view of any end."""
    _finish(state, RESIGNATION)
    state.resigned = a.player
    return [f"{state.names[a.player]} resigns: the game ends", _final_line(state)]


def winner(state: TrambahnPosition) -> int | None:
    """Most points; tie: the larger money pile; still tied: a draw (Game End; T-R-4).  After
    a resignation the other player (docs/async.md)."""
    if state.resigned is not None:
        return 1 - state.resigned
    key = [(state.scores[p], len(state.money[p])) for p in (0, 1)]
    if key[0] == key[1]:
        return None
    return 0 if key[0] > key[1] else 1


def result(state: TrambahnPosition) -> TrambahnResult:
    """Final scores (regular + Extra Tours), money piles and the winner (seat or None)."""
    extra = [sum(h.points[p] for h in state.history if h.kind == "extra") for p in (0, 1)]
    return TrambahnResult(
        scores=tuple(state.scores),
        regular=tuple(state.scores[p] - extra[p] for p in (0, 1)),
        extra_tours=tuple(extra),
        money=tuple(len(m) for m in state.money),
        winner=winner(state) if state.over else None,
        regular_scorings=state.regular,
        reason=state.end_reason,
        resigned=state.resigned,
    )


def _final_line(state: TrambahnPosition) -> str:
    w = winner(state)
    who = "a draw" if w is None else f"P{w + 1} wins"
    return (
        f"Game over ({state.end_reason}): P1 {state.scores[0]}, P2 {state.scores[1]} - {who}"
    )


