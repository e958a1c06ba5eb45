"""Masked PPO on Trambahn against the project's bots (PyTorch, the ``[train]`` extra).

    pip install -e '.[rl,train]'
    .venv/bin/python examples/train_ppo_trambahn.py --minutes 10            # 10 CPU minutes
    .venv/bin/python examples/train_ppo_trambahn.py --minutes 10 --clock wall --device cuda

The learner plays ``trambahn_v1`` (information-state observation, column slots) through
``tramways.envs.vs_bots``: ``--envs`` games at once, three quarters of them against the rule bot and
the rest against the random bot (``--rule-share``), each with a random seat.  The shaped reward
(``score_reward``, the score difference) is on.  The policy is an actor-critic MLP whose
logits outside the action mask are set to -inf, trained by PPO (clipped objective, GAE).
``--minutes`` count the process's CPU time by default (``--clock wall``: the wall clock).
``--imitation-minutes`` (default 3) adds, for that long at the start, a cross-entropy term
towards the rule bot's choice at the learner's own decisions (the rule bot is asked what it
would play there): a warm start that PPO then improves on; 0 turns it off (plain PPO).

At the end it plays ``--eval-games`` games against the random and the rule bot with the
greedy policy (alternating seats, seeds the training never used) and prints one JSON object:
win rates (a draw is half a win), learner steps per second of the training loop, the
updates done.  ``--save PATH`` keeps the weights.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

try:
    import torch
    from torch import nn
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("this example needs PyTorch: pip install -e '.[rl,train]'")

from tramways.bots import make_bot  # noqa: E402
from tramways.envs import vs_bots  # noqa: E402
from tramways.games import get_game  # noqa: E402


class ActorCritic(nn.Module):
    """An MLP trunk, a policy head over the 1,050 actions and a value head."""

    def __init__(self, obs_size: int, n_actions: int, hidden: int = 256) -> None:
        super().__init__()
        self.trunk = nn.Sequential(nn.Linear(obs_size, hidden), nn.Tanh(),
                                   nn.Linear(hidden, hidden), nn.Tanh())
        self.policy = nn.Linear(hidden, n_actions)
        self.value = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.policy.weight, 0.01)
        nn.init.zeros_(self.policy.bias)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.trunk(obs)
        logits = self.policy(h).masked_fill(~mask, -1e9)
        return logits, self.value(h).squeeze(-1)


def evaluate(net: ActorCritic, opponent: str, games: int, seed: int, device: str) -> float:
    """Greedy play against ``opponent``, alternating seats: wins (+ half the draws) / games."""
    score = 0.0
    for g in range(games):
        env = vs_bots("trambahn", opponents=opponent, seat=g % 2)
        obs, info = env.reset(seed=seed + g)
        while True:
            with torch.no_grad():
                o = torch.as_tensor(obs["observation"], device=device).unsqueeze(0)
                m = torch.as_tensor(obs["action_mask"], device=device).bool().unsqueeze(0)
                logits, _ = net(o, m)
            obs, reward, terminated, truncated, info = env.step(int(logits.argmax()))
            if terminated or truncated:
                score += 1.0 if reward > 0 else 0.5 if reward == 0 else 0.0
                break
    return score / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="training time")
    parser.add_argument("--clock", choices=["cpu", "wall"], default="cpu",
                        help="what --minutes count: this process's CPU time (the default: "
                             "fair on a shared machine) or the wall clock")
    parser.add_argument("--device", default="cpu", help="cpu or cuda")
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--rollout", type=int, default=128, help="steps per game per update")
    parser.add_argument("--rule-share", type=float, default=0.75,
                        help="share of the games played against the rule bot (rest: random)")
    parser.add_argument("--imitation-minutes", type=float, default=3.0)
    parser.add_argument("--score-reward", type=float, default=0.01)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatch", type=int, default=512)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--eval-games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    parser.add_argument("--save", type=Path)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    device = args.device
    n_rule = round(args.envs * args.rule_share)
    envs = [vs_bots("trambahn", opponents="rule" if i < n_rule else "random",
                    score_reward=args.score_reward) for i in range(args.envs)]
    teacher = make_bot("rule", get_game("trambahn"))
    teacher_rng = random.Random(args.seed + 1)
    obs_size = envs[0].observation_space["observation"].shape[0]
    n_actions = int(envs[0].action_space.n)
    net = ActorCritic(obs_size, n_actions).to(device)
    optimiser = torch.optim.Adam(net.parameters(), lr=args.lr, eps=1e-5)

    seed = 10_000 * args.seed
    current = []
    for env in envs:
        seed += 1
        current.append(env.reset(seed=seed)[0])

    n, t_len = args.envs, args.rollout
    buf_obs = np.zeros((t_len, n, obs_size), dtype=np.float32)
    buf_mask = np.zeros((t_len, n, n_actions), dtype=bool)
    buf_act = np.zeros((t_len, n), dtype=np.int64)
    buf_logp = np.zeros((t_len, n), dtype=np.float32)
    buf_val = np.zeros((t_len, n), dtype=np.float32)
    buf_rew = np.zeros((t_len, n), dtype=np.float32)
    buf_done = np.zeros((t_len, n), dtype=np.float32)
    buf_teach = np.full((t_len, n), -1, dtype=np.int64)

    start = time.monotonic()
    cpu_start = time.process_time()
    clock = time.process_time if args.clock == "cpu" else time.monotonic
    clock_start = clock()
    deadline = clock_start + 60 * args.minutes
    steps = updates = games = 0
    recent: list[float] = []
    while clock() < deadline:
        imitate = clock() - clock_start < 60 * args.imitation_minutes
        for t in range(t_len):
            o = np.stack([c["observation"] for c in current])
            m = np.stack([c["action_mask"] for c in current]).astype(bool)
            with torch.no_grad():
                logits, value = net(torch.as_tensor(o, device=device),
                                    torch.as_tensor(m, device=device))
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()
                logp = dist.log_prob(action)
            buf_obs[t], buf_mask[t] = o, m
            buf_act[t] = action.cpu().numpy()
            buf_logp[t] = logp.cpu().numpy()
            buf_val[t] = value.cpu().numpy()
            for i, env in enumerate(envs):
                if imitate:
                    inner = env.env
                    legal = inner.legal_actions()
                    choice = teacher.choose(inner.view(env.agent), list(legal.values()),
                                            teacher_rng)
                    buf_teach[t, i] = next(k for k, a in legal.items() if a == choice)
                else:
                    buf_teach[t, i] = -1
                nxt, reward, terminated, truncated, info = env.step(int(buf_act[t, i]))
                buf_rew[t, i] = reward
                done = terminated or truncated
                buf_done[t, i] = float(done)
                if done:
                    games += 1
                    recent.append(1.0 if info.get("rank") == 1 else 0.0)
                    seed += 1
                    nxt = env.reset(seed=seed)[0]
                current[i] = nxt
            steps += n
        with torch.no_grad():
            o = np.stack([c["observation"] for c in current])
            m = np.stack([c["action_mask"] for c in current]).astype(bool)
            _, last_value = net(torch.as_tensor(o, device=device), torch.as_tensor(m, device=device))
        last = last_value.cpu().numpy()
        adv = np.zeros((t_len, n), dtype=np.float32)
        gae = np.zeros(n, dtype=np.float32)
        for t in reversed(range(t_len)):
            nonterminal = 1.0 - buf_done[t]
            next_value = last if t == t_len - 1 else buf_val[t + 1]
            delta = buf_rew[t] + args.gamma * next_value * nonterminal - buf_val[t]
            gae = delta + args.gamma * args.lam * nonterminal * gae
            adv[t] = gae
        ret = adv + buf_val

        b_obs = torch.as_tensor(buf_obs.reshape(-1, obs_size), device=device)
        b_mask = torch.as_tensor(buf_mask.reshape(-1, n_actions), device=device)
        b_act = torch.as_tensor(buf_act.reshape(-1), device=device)
        b_logp = torch.as_tensor(buf_logp.reshape(-1), device=device)
        b_adv = torch.as_tensor(adv.reshape(-1), device=device)
        b_ret = torch.as_tensor(ret.reshape(-1), device=device)
        b_teach = torch.as_tensor(buf_teach.reshape(-1), device=device)
        total = b_obs.shape[0]
        for _ in range(args.epochs):
            order = torch.randperm(total, device=device)
            for lo in range(0, total, args.minibatch):
                idx = order[lo:lo + args.minibatch]
                logits, value = net(b_obs[idx], b_mask[idx])
                dist = torch.distributions.Categorical(logits=logits)
                logp = dist.log_prob(b_act[idx])
                ratio = (logp - b_logp[idx]).exp()
                a = b_adv[idx]
                a = (a - a.mean()) / (a.std() + 1e-8)
                policy_loss = -torch.min(ratio * a,
                                         ratio.clamp(1 - args.clip, 1 + args.clip) * a).mean()
                value_loss = 0.5 * (value - b_ret[idx]).pow(2).mean()
                loss = policy_loss + 0.5 * value_loss - args.entropy * dist.entropy().mean()
                teach = b_teach[idx]
                if imitate and bool((teach >= 0).any()):
                    sel = teach >= 0
                    loss = loss + nn.functional.cross_entropy(logits[sel], teach[sel])
                optimiser.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                optimiser.step()
        updates += 1
        if updates % 10 == 0:
            rate = sum(recent[-200:]) / max(1, len(recent[-200:]))
            print(f"{time.monotonic() - start:6.0f}s steps {steps} games {games} "
                  f"recent wins {rate:.2f}{' (imitating)' if imitate else ''}",
                  file=sys.stderr, flush=True)
    train_seconds = time.monotonic() - start
    cpu_seconds = time.process_time() - cpu_start
    net.eval()
    result = {
        "clock": args.clock,
        "minutes": round(train_seconds / 60, 2),
        "cpu_minutes": round(cpu_seconds / 60, 2),
        "learner_steps": steps,
        "steps_per_second": round(steps / train_seconds),
        "steps_per_cpu_second": round(steps / cpu_seconds),
        "updates": updates,
        "games": games,
        "imitation_minutes": args.imitation_minutes,
        "win_rate_vs_random": evaluate(net, "random", args.eval_games, 900_000, device),
        "win_rate_vs_rule": evaluate(net, "rule", args.eval_games, 900_000, device),
        "eval_games": args.eval_games,
    }
    if args.save:
        torch.save(net.state_dict(), args.save)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
