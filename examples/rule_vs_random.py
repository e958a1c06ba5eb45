"""The rule-of-thumb bot against random masked actions, both through a PettingZoo environment.

    .venv/bin/python examples/rule_vs_random.py                    # Trambahn, 200 games
    .venv/bin/python examples/rule_vs_random.py --game 1840 --games 10

The rule bot sits in alternating seats; it decides from its own view (``env.unwrapped.view``)
and its choice goes back into the environment as a catalogue index.  The random player
samples ``action_space(agent).sample(action_mask)``.  Prints the rule bot's win rate (a
shared first place counts as half a win).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from tramways.bots import make_bot  # noqa: E402
from tramways.envs import g1840_v0, trambahn_v0  # noqa: E402
from tramways.games import get_game  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=["trambahn", "1840"], default="trambahn")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=2, help="1840 only")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.game == "trambahn":
        env = trambahn_v0.env()
    else:
        env = g1840_v0.env(players=args.players)
    rule = make_bot("rule", get_game(args.game))
    rng = random.Random(args.seed)
    wins = 0.0
    for game in range(args.games):
        env.reset(seed=args.seed + game)
        for k, agent in enumerate(env.possible_agents):
            env.action_space(agent).seed(args.seed + 1000 * game + k)
        rule_agent = env.possible_agents[game % len(env.possible_agents)]
        final = {}
        for agent in env.agent_iter():
            obs, reward, termination, truncation, info = env.last()
            if termination or truncation:
                final[agent] = (reward, info)
                action = None
            elif agent == rule_agent:
                legal = env.unwrapped.legal_actions()  # index -> engine action
                choice = rule.choose(env.unwrapped.view(agent), list(legal.values()), rng)
                action = env.unwrapped.catalogue.index_of(choice)
            else:
                action = env.action_space(agent).sample(obs["action_mask"])
            env.step(action)
        reward, info = final[rule_agent]
        if info.get("rank") == 1:
            shared = sum(1 for _, i in final.values() if i.get("rank") == 1)
            wins += 1 / shared
    print(f"{args.game}: rule beats random in {wins / args.games:.1%} of {args.games} games "
          f"(rule in seat {'/'.join(str(i + 1) for i in range(len(env.possible_agents)))}"
          " in turn)")


if __name__ == "__main__":
    main()
