"""A walk through the worked examples of docs/rules.md with the phutball package.

Run it after `pip install .` (or `maturin develop`) from the repository root:

    python examples/python/walkthrough.py [--svg DIR]

With --svg, the pictures a notebook would show are written to DIR as SVG files.
"""

import argparse
from pathlib import Path

import numpy as np

import phutball


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--svg", type=Path, help="write the board pictures to this directory")
    args = parser.parse_args()

    # The seeds' jump: ball K6, men J7 H8 G10 H11, Ohs to move.
    pos = phutball.Position.from_points("K6", ["J7", "H8", "G10", "H11"])
    print(pos.diagram())
    print("position string:", pos)
    print("jump moves:", [str(m) for m in pos.jump_paths()])

    # The longest jump removes all four men and leaves the ball on J11.
    game = phutball.Game(pos)
    game.push("K6-G9-G11-J11")
    print("after K6-G9-G11-J11:", game.position.ball, "men left:", game.position.men)

    # Jumping H8 twice is illegal; the error says why.
    try:
        pos.play("K6-G9-J9-G7")
    except phutball.IllegalMoveError as e:
        print("K6-G9-J9-G7 is illegal:", e)

    # The start position has 284 legal moves, all placements.
    start = phutball.Position()
    print("legal moves from the start:", start.count_legal_moves())

    # Scoring over the goal line, and an own goal.
    corner = phutball.Position.from_points("N18", ["O19"])
    print("Ohs can score with", corner.scoring_move(), "->", corner.play("N18-P20").winner, "wins")
    own = phutball.Position.from_points("H3", ["H2"])
    print("H3-H1 by Ohs is an own goal:", own.play("H3-H1").winner, "wins")

    # Step-by-step play with the fixed action space (reinforcement learning).
    mask = start.legal_action_mask()
    print(f"{start.action_count} actions, {int(mask.sum())} legal at the start")
    step = pos
    for action in pos.move_to_actions("K6-G9-G11-J11"):
        print("  ", step.describe_action(action))
        step = step.apply_action(action)
    assert step == pos.play("K6-G9-G11-J11")
    planes = pos.planes()
    print("planes:", planes.shape, "men at (row, col):", [tuple(int(v) for v in x) for x in np.argwhere(planes[0])])

    if args.svg:
        args.svg.mkdir(parents=True, exist_ok=True)
        (args.svg / "seeds.svg").write_text(pos._repr_svg_())
        (args.svg / "jump-paths.svg").write_text(pos.svg(moves=pos.jump_paths()))
        (args.svg / "after-jump.svg").write_text(game._repr_svg_())
        print("pictures written to", args.svg)


if __name__ == "__main__":
    main()
