"""Trains a small policy on a tiny board with numpy and prints its exact
accuracy (phutball.rl.exact_accuracy) as it learns.

The policy is a one-hidden-layer network over the planes (masked softmax
over the actions), trained by REINFORCE in self-play: each batch of games
starts from positions drawn from the board's tablebase (the positions the
accuracy is measured on, drawn with other seeds), each action's return is
the game's result for the side that took it (+1 a goal, -1 the
opponent's, 0 at the move limit), discounted by the actions left, less the
batch's mean. The accuracy is of the greedy policy (its most likely legal
action), on the same fixed sample of positions every time.

    python examples/python/train_tiny.py                      # 3x7, 3 minutes of CPU
    python examples/python/train_tiny.py --board 3x4 --iterations 2 --positions 40   # seconds

Each line: CPU seconds, games played, and the accuracy with its win, draw
and loss rows (kept/total).
"""

from __future__ import annotations

import os

# The matrices are tiny: a second BLAS thread only adds CPU time, and the
# curve is read against CPU time. Set before numpy is imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

import phutball  # noqa: E402
from phutball import rl  # noqa: E402


class Net:
    """A tanh layer and a linear head: logits of every action, masked."""

    def __init__(self, inputs: int, hidden: int, actions: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.w1 = rng.normal(0, 1 / np.sqrt(inputs), (inputs, hidden)).astype(np.float32)
        self.b1 = np.zeros(hidden, np.float32)
        self.w2 = np.zeros((hidden, actions), np.float32)
        self.b2 = np.zeros(actions, np.float32)

    def probs(self, x: np.ndarray, mask: np.ndarray):
        """The hidden layer and the masked softmax of every row of ``x``."""
        h = np.tanh(x @ self.w1 + self.b1)
        logits = np.where(mask, h @ self.w2 + self.b2, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return h, p / p.sum(axis=1, keepdims=True)

    def greedy(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The policy measured: the most likely legal action."""
        _, p = self.probs(obs.reshape(len(obs), -1), mask)
        return np.argmax(np.where(mask, p, -1.0), axis=1)

    def update(self, x, mask, actions, advantages, lr: float) -> None:
        """One REINFORCE step: ascend advantage * log p(action)."""
        h, p = self.probs(x, mask)
        grad = -p
        grad[np.arange(len(actions)), actions] += 1.0
        grad *= advantages[:, None] / len(actions)
        dh = (grad @ self.w2.T) * (1 - h * h)
        self.w2 += lr * h.T @ grad
        self.b2 += lr * grad.sum(axis=0)
        self.w1 += lr * x.T @ dh
        self.b1 += lr * dh.sum(axis=0)


def play_batch(net, table, rng, games: int, move_limit: int, gamma: float):
    """Self-play from ``games`` positions of the table; the arrays of every action taken and their returns."""
    picks = rng.integers(0, table.stats()["positions"], games)
    episodes = [phutball.Episode(table.position(int(i)), move_limit=move_limit) for i in picks]
    steps = [[] for _ in episodes]  # per game: (obs, mask, action, mover)
    while True:
        live = [i for i, e in enumerate(episodes) if not e.is_over]
        if not live:
            break
        states = [episodes[i].state for i in live]
        x = np.stack([s.planes().ravel() for s in states])
        mask = np.stack([s.legal_action_mask() for s in states])
        _, p = net.probs(x, mask)
        # Sample each row: the first action whose cumulative probability
        # passes a uniform draw, scaled to the row's total (its rounding) so
        # that one always does, and only where the probability rises (legal).
        cumulative = p.cumsum(axis=1)
        actions = (cumulative > rng.random((len(live), 1)) * cumulative[:, -1:]).argmax(axis=1)
        for row, i in enumerate(live):
            steps[i].append((x[row], mask[row], actions[row], episodes[i].to_move))
            episodes[i].step(int(actions[row]))
    xs, masks, acts, returns = [], [], [], []
    for episode, taken in zip(episodes, steps):
        state = episode.state
        winner = (state.position if isinstance(state, phutball.JumpInProgress) else state).winner
        for back, (x, mask, action, mover) in enumerate(reversed(taken)):
            result = 0.0 if winner is None else (1.0 if winner == mover else -1.0)
            xs.append(x), masks.append(mask), acts.append(action), returns.append(result * gamma**back)
    return np.stack(xs), np.stack(masks), np.array(acts), np.array(returns, np.float32)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="3x7")
    parser.add_argument("--minutes", type=float, default=3.0, help="CPU minutes of training (default 3)")
    parser.add_argument("--iterations", type=int, default=None, help="stop after this many batches instead")
    parser.add_argument("--games", type=int, default=128, help="games a batch")
    parser.add_argument("--positions", type=int, default=1000, help="positions the accuracy is measured on")
    parser.add_argument("--evals", type=int, default=10, help="accuracy lines over the run")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--lr", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    cols, rows = (int(n) for n in args.board.split("x"))
    table = rl.tablebase(args.board, timeout=600)
    action_count = table.position(0).action_count
    net = Net(5 * (rows + 2) * cols, args.hidden, action_count, args.seed)
    rng = np.random.default_rng(args.seed + 1)
    print(f"board {args.board}: {table.stats()['positions']} positions; accuracy on {args.positions} of them")

    reported = [-1]

    def report(games: int) -> None:
        if reported[0] == games:
            return
        reported[0] = games
        result = rl.exact_accuracy(net.greedy, args.board, positions=args.positions, seed=args.seed)
        rows_text = " ".join(f"{k} {kept}/{total}" for k, (kept, total) in result.by_value.items())
        print(f"cpu {time.process_time() - start:7.1f} s  games {games:7d}  accuracy {result.accuracy:.3f}  {rows_text}", flush=True)

    start = time.process_time()
    budget = args.minutes * 60
    every = budget / args.evals if args.iterations is None else max(1, args.iterations // args.evals)
    games = iteration = 0
    next_report = 0.0
    while True:
        clock = time.process_time() - start
        if (clock >= next_report) if args.iterations is None else (iteration % every == 0):
            report(games)
            next_report += every
        if (clock >= budget) if args.iterations is None else (iteration >= args.iterations):
            break
        x, mask, actions, returns = play_batch(net, table, rng, args.games, move_limit=30, gamma=0.95)
        net.update(x, mask, actions, returns - returns.mean(), args.lr)
        games += args.games
        iteration += 1
    report(games)


if __name__ == "__main__":
    main()
