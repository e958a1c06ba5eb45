"""What both environments share: the AEC life cycle over a game of the engine.

:class:`TramwaysEnv` drives a :class:`tramways.core.game.GameState` through PettingZoo's AEC
API.  A subclass names the game and provides its :class:`Catalogue` and an ``encode(view,
seat)`` that turns the agent's own ``view(seat)`` into the observation array: the environment
never shows an agent anything else.

Turn order is the engine's: ``agent_selection`` is the seat in ``current_players()`` (the same
agent may act several times in a row).  The mask is that seat's ``legal_actions(seat)``
mapped through the catalogue (an action is played with ``apply(action, seat)``, so the engine
checks the agent's authority too), so it includes what the rules allow "at any time" (1840:
returning privates, scrapping trams) whenever it is that agent's turn; the environment does not
interrupt another agent's turn for them.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from tramways.core.actions import Action
from tramways.core.errors import IllegalAction
from tramways.core.game import Game, GameState, Outcome, settings_for_new_game
from tramways.core.record import GameRecord
from tramways.envs.ordered import Ordered
from tramways.games import get_game

Indexers = dict[type, Callable[[Any], "int | None"]]
"""Per action class: action -> its catalogue index (``None``: none), see :class:`Catalogue`."""

_POSITIONS = itertools.count(1)
"""Position keys (:attr:`TramwaysEnv.position`), never reused by any environment."""

_SEEN_LIMIT = 2_000
"""Actions whose index a catalogue remembers (cleared when full)."""


class MaskedDiscrete(spaces.Discrete):
    """``Discrete(n)`` whose masked ``sample(mask)`` reads the mask in fewer passes.

    Gymnasium's ``Discrete.sample(mask)`` compares, combines and searches the whole mask six
    times over (``mask == 1``, ``mask == 0``, ``logical_or``, ``all``, ``any``, ``where``):
    about 25 µs a step on 1840's 49,178 actions.  This one checks the values with one ``max``
    over the mask seen as unsigned bytes (a negative value reads as 128 or more) and finds
    the ones with a single ``np.flatnonzero`` over the mask seen as booleans (numpy's search
    over ``int8`` is many times slower than over ``bool``), then draws the number gymnasium's
    ``np_random.choice`` over the same index array draws (``choice`` picks ``integers(0,
    size)``; calling it directly skips about 10 µs of ``choice``'s checks): the same seed
    gives the same actions (tested against gymnasium's).  An invalid mask gets gymnasium's
    own assertions.

    The environment that built a mask tells its space where the ones are (:meth:`expect`);
    sampling that very array then only checks them: the count of non-zero values is theirs
    and each of them is 1 (one counting pass instead of the two passes above: 1840, sampled
    right after the mask was built, 18.6 -> 11.7 µs a sample at load 15).  A mask changed
    since, or any other array, is read as above.
    """

    _expected: tuple[np.ndarray, np.ndarray] | None = None

    def expect(self, mask: np.ndarray, ones: np.ndarray) -> None:
        """``mask`` (an array handed out) has its ones at ``ones`` (ascending), as built."""
        self._expected = (mask, ones)

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        if mask is None or probability is not None or not isinstance(mask, np.ndarray) \
                or mask.dtype != np.int8 or mask.shape != (self.n,):
            return super().sample(mask, probability)
        ones = self._expected_ones(mask)
        if ones is None:
            if mask.view(np.uint8).max() > 1:  # one pass: a negative int8 reads >= 128
                return super().sample(mask, probability)
            ones = np.flatnonzero(mask.view(np.bool_))  # 0 / 1 only: a valid bool array
        if not ones.size:
            return self.start
        return self.start + self.dtype.type(ones[self.np_random.integers(0, ones.size)])

    def _expected_ones(self, mask: np.ndarray) -> np.ndarray | None:
        """The ones :meth:`expect` named for ``mask``, if it still holds exactly them: as
        many non-zero values as ones, and a 1 at each (so no other non-zero value)."""
        expected = self._expected
        if expected is None or expected[0] is not mask:
            return None
        ones = expected[1]
        if np.count_nonzero(mask.view(np.bool_)) != ones.size \
                or mask[ones].tobytes() != b"\x01" * ones.size:
            return None
        return ones


class Catalogue:
    """A fixed, documented list of actions: index ``i`` <-> key ``keys[i]``.

    ``key_of(action)`` turns an engine action into its key (``None``: the action has no
    index; ``None``: actions are their own keys); ``notation(i)`` is a readable name for index
    ``i``.  ``aliases`` are further keys of existing indices (Trambahn: the same action of the
    other seat).  ``indexers`` (optional, built from the index map) gives, per action class,
    a function from an action straight to its index (``None``: none), the same as
    :meth:`index_of` without building the key: :meth:`legal_map` uses it for those classes.
    """

    def __init__(self, keys: Sequence[Hashable],
                 key_of: Callable[[Action], Hashable | None] | None,
                 names: Sequence[str], aliases: dict[Hashable, int] | None = None,
                 indexers: Callable[[dict[Hashable, int]], Indexers] | None = None) -> None:
        self.keys = list(keys)
        self.names = list(names)
        self.index: dict[Hashable, int] = {k: i for i, k in enumerate(self.keys)}
        if len(self.index) != len(self.keys) or len(self.names) != len(self.keys):
            raise ValueError("catalogue keys must be unique and named")
        self.index.update(aliases or {})
        self.key_of = key_of
        self.indexers: Indexers = {} if indexers is None else indexers(self.index)
        self._seen: dict[int, tuple[Action, int | None]] = {}
        """id(action) -> (action, its index) for actions met before: engines that build equal
        actions once and share them (1840) list the same objects again and again.  The entry
        holds the action, so its id cannot be another object's while the entry lives."""

    def __len__(self) -> int:
        return len(self.keys)

    def index_of(self, action: Action) -> int | None:
        """The index of ``action``, or ``None`` if the catalogue has none for it."""
        direct = self.indexers.get(type(action))
        if direct is not None:
            return direct(action)
        key = action if self.key_of is None else self.key_of(action)
        return None if key is None else self.index.get(key)

    def notation(self, i: int) -> str:
        return self.names[i]

    def legal_map(self, actions: Sequence[Action]) -> dict[int, Action]:
        """Index -> action for a list of legal actions (actions without an index are left
        out; two actions with one index are a catalogue bug and raise)."""
        out: dict[int, Action] = {}
        dropped = self.map_into(actions, out)
        if len(out) + dropped < len(actions):
            self.shared_index(actions)
        return out

    def map_into(self, actions: Sequence[Action], out: dict[int, Any]) -> int:
        """Put index -> action into ``out`` for each of ``actions`` with an index; returns
        how many have none."""
        index = self.index
        dropped = 0
        if self.key_of is None and not self.indexers:  # the actions are the keys
            for a in actions:
                i = index.get(a)
                if i is None:
                    dropped += 1
                else:
                    out[i] = a
        else:  # an action met before by its entry, others by :meth:`index_of`
            known, direct = self._seen, self.indexers
            for a in actions:
                entry = known.get(id(a))
                if entry is not None and entry[0] is a:
                    i = entry[1]
                else:  # straight to the index where the class has an indexer
                    found = direct.get(type(a))
                    i = found(a) if found is not None else self.index_of(a)
                    if len(known) >= _SEEN_LIMIT:
                        known.clear()
                    known[id(a)] = (a, i)
                if i is None:
                    dropped += 1
                else:
                    out[i] = a
        return dropped

    def shared_index(self, actions: Sequence[Action]) -> None:
        """Raise for the first two of ``actions`` that share an index (a catalogue bug)."""
        seen: dict[int, Action] = {}
        for a in actions:
            i = self.index_of(a)
            if i is not None and i in seen:
                raise RuntimeError(f"catalogue: {a!r} and {seen[i]!r} share index {i}")
            if i is not None:
                seen[i] = a


def place_rewards(ranks: Sequence[int]) -> list[float]:
    """Rewards from final places (1 = best; equal ranks share a place).

    Places are worth 1, ..., -1 linearly from first to last; players sharing places get the
    mean of those places' values.  Two players: +1 / -1, a draw 0 / 0.  Sums to 0.
    """
    n = len(ranks)
    if n == 1:
        return [0.0]
    value = [1.0 - 2.0 * k / (n - 1) for k in range(n)]
    out = []
    for r in ranks:
        shared = sum(1 for q in ranks if q == r)
        first = r - 1
        out.append(sum(value[first:first + shared]) / shared)
    return out


class TramwaysEnv(AECEnv):
    """An AEC environment over one of the engine's games (see the module docstring).

    Subclasses set ``game_name``, ``catalogue``, ``obs_size`` and implement ``encode`` and
    ``final_infos``.  Settings are the game's record settings (``players``, ...); besides
    them ``max_steps`` truncates a game after that many actions (``None``: never; the
    default is the game's ``default_max_steps``).
    """

    game_name: ClassVar[str]
    catalogue: ClassVar[Catalogue]
    obs_size: int
    obs_low: ClassVar[float] = 0.0
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "rgb_array"],
        "name": "tramways",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    default_max_steps: ClassVar[int | None] = None

    def __init__(self, render_mode: str | None = None, max_steps: int | None = -1,
                 **settings: Any) -> None:
        super().__init__()
        if max_steps == -1:
            max_steps = self.default_max_steps
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.max_steps = max_steps
        self.game: Game = get_game(self.game_name)
        self.settings = settings_for_new_game(self.game, dict(settings))  # R-VERSION-1
        n = int(self.settings["players"])
        self.possible_agents = [f"player_{i + 1}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        n_actions = len(self.catalogue)
        self.action_spaces = {a: MaskedDiscrete(n_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(low=self.obs_low, high=np.inf, shape=(self.obs_size,),
                                          dtype=np.float32),
                "action_mask": spaces.Box(low=0, high=1, shape=(n_actions,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self._no_mask = np.zeros(n_actions, dtype=np.int8)
        self._rng = random.Random()
        self.state: GameState | None = None
        self.game_seed = 0
        self.actions: list[Action] = []
        self._legal_now: Mapping[int, Action] | None = None
        self._mask_now: np.ndarray | None = None
        self.position = 0
        """A key of the engine position: a new one at every reset and every action played
        (what is kept per position, e.g. observation tables shared by the seats, is kept by
        it; a position changed by hand, not through the environment, keeps its key)."""

    # --- the game -------------------------------------------------------------------------
    def encode(self, view: Any, seat: int) -> np.ndarray:
        """The observation array from ``view`` (``state.view(seat)``) only."""
        raise NotImplementedError

    def final_infos(self, result: Outcome) -> list[dict[str, Any]]:
        """Per seat: its figures in the final result (and ``rank``, its place: 1 = best)."""
        raise NotImplementedError

    # --- PettingZoo -----------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game.  ``seed`` is the game's record seed (``tramways new --seed``); without
        one the next seed comes from the environment's generator (seeded by the last seed)."""
        if seed is not None:
            self._rng = random.Random(seed)
            game_seed = int(seed)
        else:
            game_seed = self._rng.randrange(2**53)
        self.game_seed = game_seed
        setup = self.game.setup(self.settings, game_seed)
        self.setup = setup
        self.state = self.game.new_state(self.settings, setup, game_seed)
        self.position = next(_POSITIONS)
        self.actions = []
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._refresh()

    def _refresh(self) -> None:
        """Whose turn it is; the legal actions and the mask are listed when first asked for
        (:attr:`_legal`, :attr:`_mask`), once per position: a loop that only steps lists them
        once, one that also observes builds the mask once."""
        state = self.state
        assert state is not None
        seat = state.current_players()[0]
        self.agent_selection = self.possible_agents[seat]
        self._legal_now = None
        self._mask_now = None

    @property
    def _legal(self) -> Mapping[int, Action]:
        """Index -> engine action for the agent to move (listed on first use)."""
        legal = self._legal_now
        if legal is None:
            state = self.state
            assert state is not None
            legal = self._legal_now = self._list_legal(self._seat[self.agent_selection])
        return legal

    @_legal.setter
    def _legal(self, legal: Mapping[int, Action]) -> None:
        self._legal_now = legal

    def _list_legal(self, seat: int) -> Mapping[int, Action]:
        """Index -> engine action for ``seat`` now (a game may list it more cheaply)."""
        assert self.state is not None
        return self.catalogue.legal_map(self.state.legal_actions(seat))

    @property
    def _mask(self) -> np.ndarray:
        """The mask of :attr:`_legal` (built on first use and kept)."""
        mask = self._mask_now
        if mask is None:
            mask = self._mask_now = self._new_mask()
        return mask

    @_mask.setter
    def _mask(self, mask: np.ndarray) -> None:
        self._mask_now = mask

    def _new_mask(self) -> np.ndarray:
        """A new mask array of :attr:`_legal` (the indices written from one ``int`` array);
        the agent's space is told where its ones are (:meth:`MaskedDiscrete.expect`)."""
        legal = self._legal
        mask = np.zeros(len(self.catalogue), dtype=np.int8)
        ones = np.fromiter(legal, dtype=np.intp, count=len(legal))
        mask[ones] = 1
        space = self.action_spaces.get(self.agent_selection)
        if isinstance(space, MaskedDiscrete):
            ones.sort()
            space.expect(mask, ones)
        return mask

    def action_mask(self, agent: str) -> np.ndarray:
        """The agent's action mask (all zeros unless it is the agent's turn).  The same
        array as ``observe(agent)["action_mask"]``, without building the observation.  A new
        array each time: one kept (:attr:`_mask`, set by the factored environments) is
        copied, else one is built (no copy of a kept one: a loop asks once a position)."""
        if agent != self.agent_selection or self.terminations.get(agent, True) \
                or self.truncations.get(agent, True):
            return self._no_mask.copy()
        mask = self._mask_now
        return self._new_mask() if mask is None else mask.copy()

    def legal_actions(self) -> dict[int, Action]:
        """Index -> engine action, for the agent to move."""
        return dict(self._legal)

    def legal_engine_actions(self) -> list[Action]:
        """The engine's legal actions of the agent to move that the environment can play
        (what a bot chooses from; ``step_engine`` plays one)."""
        return list(self._legal.values())

    def legal_indices(self) -> list[int]:
        """The indices of the agent to move's legal actions (the mask's ones, cheaply)."""
        return list(self._legal)

    def view(self, agent: str) -> Any:
        """The agent's own view (``state.view(seat)``), what its observation is built from;
        bots of :mod:`tramways.bots` choose from it."""
        assert self.state is not None
        return self.state.view(self._seat[agent])

    def observation_array(self, seat: int) -> np.ndarray:
        """The observation array of ``seat``: ``encode(view(seat), seat)`` (a game without
        hidden information may compute the same array more cheaply)."""
        assert self.state is not None
        return self.encode(self.state.view(seat), seat)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {"observation": self.observation_array(self._seat[agent]),
                "action_mask": self.action_mask(agent)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None
        chosen = self._legal.get(int(action))
        if chosen is None:
            text = self.catalogue.notation(int(action)) if 0 <= int(action) < len(
                self.catalogue) else "out of range"
            raise IllegalAction("action mask",
                                f"action {int(action)} ({text}) is not legal for {agent} now")
        self._play(agent, chosen)

    def step_engine(self, action: Action) -> None:
        """Play a legal engine ``action`` for the agent to move (a bot's choice): the same as
        ``step`` with its index.  ``IllegalAction`` if it is not one of the legal actions."""
        for i, a in self._legal.items():
            if a == action:
                self.step(i)
                return
        raise IllegalAction("action mask", f"{action!r} is not legal for {self.agent_selection}")

    def _played(self, action: Action, seat: int) -> None:
        """Hook: ``action`` of ``seat`` has just been applied (memories follow the game here)."""

    def _step_rewards(self) -> dict[str, float] | None:
        """Hook: per-agent rewards of the step just played, besides the final places
        (``None``: none; shaped rewards)."""
        return None

    def _play(self, agent: str, chosen: Action) -> None:
        """Apply a legal action of ``agent`` and settle rewards, terminations and the mask."""
        state = self.state
        assert state is not None
        state.apply(chosen, self._seat[agent])  # an IllegalAction leaves everything as it was
        self.position = next(_POSITIONS)
        self.actions.append(chosen)
        self._played(chosen, self._seat[agent])
        self._cumulative_rewards[agent] = 0.0
        rewards = self.rewards
        for a in rewards:
            rewards[a] = 0.0
        shaped = self._step_rewards()
        if shaped:
            for a, r in shaped.items():
                rewards[a] += r
        over = state.is_over()
        if over:
            infos = self.final_infos(state.outcome())
            ranks = [info["rank"] for info in infos]
            for a, r, info in zip(self.possible_agents, place_rewards(ranks), infos, strict=True):
                self.rewards[a] += r
                self.infos[a] = info
                self.terminations[a] = True
        elif self.max_steps is not None and len(self.actions) >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
            self._refresh()
        else:
            self._refresh()
        if shaped or over:  # otherwise every reward of this step is 0.0: nothing to add
            self._accumulate_rewards()

    def record(self) -> GameRecord:
        """The game so far as a record (``tramways show`` / ``replay`` read it)."""
        return GameRecord(
            game=self.game.name, version=self.game.version, settings=self.settings,
            seed=self.game_seed, setup=self.setup,
            actions=[self.game.format_action(a) for a in self.actions], meta={})

    def render(self) -> Any:
        if self.render_mode is None:
            return None
        assert self.state is not None
        if self.render_mode == "ansi":
            return self.game.text_view(self.state.view(None))
        return self.render_rgb()

    def render_rgb(self) -> np.ndarray:
        raise NotImplementedError

    def close(self) -> None:
        pass


def wrap(env: TramwaysEnv) -> Any:
    """The public ``env()``: PettingZoo's order-enforcing wrapper (illegal actions raise), with
    a direct path for the per-step calls (:class:`tramways.envs.ordered.Ordered`)."""
    return Ordered(env)
