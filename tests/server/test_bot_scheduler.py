"""The bot scheduler (``tramways.server.bots``): one decision at a time per game, games served
in turn, people's games first with a thread kept for them, and games of bots only never on
more than ``workers - 1`` threads.  The steps here are stand-ins that record what ran."""

from __future__ import annotations

import threading
import time

import pytest

from tramways.server.bots import BotScheduler, Tier

WAIT = 30.0


class Recorder:
    """A stand-in ``step``: each game needs ``left[game]`` more decisions (``None``: forever)
    of ``seconds`` each; records the order of the steps and how many ran at once."""

    def __init__(self, left: dict[str, int | None], tiers: dict[str, Tier],
                 seconds: float = 0.0) -> None:
        self.left = dict(left)
        self.tiers = tiers
        self.seconds = seconds
        self.order: list[str] = []
        self.lock = threading.Lock()
        self.running: dict[str, int] = {}
        self.most_at_once_per_game = 0
        self.bots_at_once = 0
        self.most_bots_at_once = 0
        self.done = threading.Event()
        self.stop = threading.Event()

    def __call__(self, game_id: str) -> Tier | None:
        tier = self.tiers[game_id]
        with self.lock:
            self.order.append(game_id)
            self.running[game_id] = self.running.get(game_id, 0) + 1
            self.most_at_once_per_game = max(self.most_at_once_per_game, self.running[game_id])
            if tier is Tier.BOTS:
                self.bots_at_once += 1
                self.most_bots_at_once = max(self.most_bots_at_once, self.bots_at_once)
        if self.seconds:
            self.stop.wait(self.seconds)
        with self.lock:
            self.running[game_id] -= 1
            if tier is Tier.BOTS:
                self.bots_at_once -= 1
            left = self.left[game_id]
            if left is not None:
                left = self.left[game_id] = left - 1
            if self.stop.is_set() or left == 0:
                return None
            return tier


def test_games_are_served_in_turn_one_decision_each():
    left: dict[str, int | None] = {"a": 3, "b": 3, "c": 3}
    step = Recorder(left, dict.fromkeys(left, Tier.PEOPLE))
    s = BotScheduler(step, workers=1)
    try:
        with s._cond:  # queue all three before the worker takes one
            for g in "abc":
                s.kick(g, Tier.PEOPLE)
        assert s.wait_idle(WAIT)
        assert step.order == list("abcabcabc")
    finally:
        s.close()


def test_a_game_is_never_decided_twice_at_once():
    step = Recorder({"a": 20}, {"a": Tier.PEOPLE}, seconds=0.002)
    s = BotScheduler(step, workers=4)
    try:
        for _ in range(200):  # kicks while its decision runs queue it again, once
            s.kick("a", Tier.PEOPLE)
        assert s.wait_idle(WAIT)
        assert step.most_at_once_per_game == 1
        assert step.order.count("a") == 20
    finally:
        s.close()


@pytest.mark.parametrize("workers, bot_threads", [(1, 1), (2, 1), (3, 2), (4, 3)])
def test_games_of_bots_only_keep_one_thread_free_for_people(workers, bot_threads):
    games = [f"b{i}" for i in range(10)]
    step = Recorder(dict.fromkeys(games, 4), dict.fromkeys(games, Tier.BOTS), seconds=0.005)
    s = BotScheduler(step, workers=workers)
    try:
        assert s.bot_threads == bot_threads
        for g in games:
            s.kick(g, Tier.BOTS)
        assert s.wait_idle(WAIT)
        assert step.most_bots_at_once == bot_threads
        assert len(step.order) == 40
    finally:
        s.close()


def test_a_peoples_game_goes_before_twenty_endless_bot_games():
    """The starvation case: 20 games of bots only that never end hold the scheduler; a
    person's game is decided next, before any bot game that was queued ahead of it."""
    games = [f"b{i}" for i in range(20)]
    tiers = {**dict.fromkeys(games, Tier.BOTS), "person": Tier.PEOPLE}
    step = Recorder({**dict.fromkeys(games, None), "person": 1}, tiers, seconds=0.01)
    s = BotScheduler(step, workers=2)
    try:
        for g in games:
            s.kick(g, Tier.BOTS)
        while len(step.order) < 30:  # the bot games run, one thread at a time
            time.sleep(0.005)
        with step.lock:
            before = len(step.order)
        s.kick("person", Tier.PEOPLE)
        end = time.monotonic() + WAIT
        while "person" not in step.order and time.monotonic() < end:
            time.sleep(0.001)
        assert "person" in step.order
        # the kept thread took it at once: at most the one running bot decision came between
        assert step.order.index("person") - before <= 1
        assert s.queued(Tier.BOTS) == 19  # and the bot games are still served, in turn
    finally:
        step.stop.set()
        s.close()


def test_a_person_sitting_down_moves_a_queued_game_to_the_peoples_queue():
    games = ["b1", "b2", "x"]
    step = Recorder(dict.fromkeys(games, 1), dict.fromkeys(games, Tier.BOTS), seconds=0.0)
    s = BotScheduler(step, workers=1)
    try:
        with s._cond:
            for g in games:
                s.kick(g, Tier.BOTS)
            s.kick("x", Tier.PEOPLE)
        assert s.wait_idle(WAIT)
        assert step.order == ["x", "b1", "b2"]
    finally:
        s.close()


def test_a_failing_step_is_logged_and_the_game_is_not_queued_again(caplog):
    calls: list[str] = []

    def step(game_id: str) -> Tier | None:
        calls.append(game_id)
        if len(calls) == 1:
            raise RuntimeError("boom")
        return None

    s = BotScheduler(step, workers=1)
    try:
        s.kick("g", Tier.PEOPLE)
        assert s.wait_idle(WAIT)
        assert calls == ["g"]
        assert "bots of game g stopped" in caplog.text
        s.kick("g", Tier.PEOPLE)  # a later kick starts it afresh
        assert s.wait_idle(WAIT)
        assert calls == ["g", "g"]
    finally:
        s.close()


def test_a_closed_scheduler_takes_no_work():
    calls: list[str] = []
    s = BotScheduler(lambda g: calls.append(g) and None, workers=2)
    s.close()
    s.kick("g", Tier.PEOPLE)
    assert s.idle()
    time.sleep(0.05)
    assert calls == []


def test_a_scheduler_needs_a_worker():
    with pytest.raises(ValueError):
        BotScheduler(lambda g: None, workers=0)
