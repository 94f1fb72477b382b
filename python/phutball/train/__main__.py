"""``python -m phutball.train DATASET... --out FILE [options]``: trains the
engine's value network on self-play datasets (``phutball.train.train``)."""

from __future__ import annotations

import argparse
import sys
from typing import List, Optional


def main(argv: Optional[List[str]] = None) -> int:
    """Runs the command; returns its exit status (0 trained, 1 an error, 2
    bad arguments, 3 stopped by ``--timeout``, 130 Ctrl-C)."""
    parser = argparse.ArgumentParser(prog="python -m phutball.train", description=(
        "Trains the engine's value network on self-play datasets (phutball.distributed.selfplay(training=True)) "
        "and writes its weights file (docs/network.md)."))
    parser.add_argument("datasets", nargs="+", help="dataset directories or s3:// URIs")
    parser.add_argument("--out", required=True, help="the weights file to write (.phbnet)")
    parser.add_argument("--board", help="the board size, e.g. 15x19, when the datasets hold several")
    parser.add_argument("--hidden", type=int, default=64, help="hidden units (default 64)")
    parser.add_argument("--epochs", type=int, default=20, help="epochs (default 20)")
    parser.add_argument("--batch-size", type=int, default=1024, help="positions a step (default 1024)")
    parser.add_argument("--learning-rate", type=float, default=1e-3, help="Adam's learning rate (default 0.001)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the split, the start and the order (default 0)")
    parser.add_argument("--validation", type=float, default=0.1, help="the fraction of games held out (default 0.1)")
    parser.add_argument("--score-weight", type=float, default=0.5, help="the search score's share of the target, the game result's the rest (default 0.5)")
    parser.add_argument("--scale", type=float, default=200.0, help="hundredths of a row per unit of the logistic (default 200)")
    parser.add_argument("--checkpoint", help="a file to save the state to after every epoch, and resume from")
    parser.add_argument("--timeout", type=float, help="seconds before stopping (the last finished epoch stays in --checkpoint)")
    parser.add_argument("--description", default="", help="a note kept in the weights file")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    try:
        from . import train
    except ImportError as e:
        print(f"python -m phutball.train: {e}", file=sys.stderr)
        return 1
    try:
        summary = train(args.datasets, args.out, board=args.board, hidden=args.hidden, epochs=args.epochs,
                        batch_size=args.batch_size, learning_rate=args.learning_rate, seed=args.seed,
                        validation=args.validation, score_weight=args.score_weight, scale=args.scale,
                        checkpoint=args.checkpoint, timeout=args.timeout, progress=not args.quiet,
                        description=args.description)
    except KeyboardInterrupt:
        print("python -m phutball.train: interrupted" + (f"; the finished epochs are in {args.checkpoint}" if args.checkpoint else ""), file=sys.stderr)
        return 130
    except ValueError as e:
        print(f"python -m phutball.train: {e}", file=sys.stderr)
        return 1
    if not summary.finished:
        print(f"python -m phutball.train: stopped by --timeout after {summary.epochs} epochs"
              + (f"; the same command goes on from {args.checkpoint}" if args.checkpoint else ""), file=sys.stderr)
        return 3
    losses = summary.validation_losses or summary.training_losses
    print(f"{summary.out}: {summary.board[0]}x{summary.board[1]}, epoch {summary.best_epoch} of {summary.epochs}, "
          f"loss {losses[summary.best_epoch - 1]:.5f}, {summary.training_positions} training positions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
