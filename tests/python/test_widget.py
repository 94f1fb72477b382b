"""phutball.widget.Board without a browser: clicks (as the JavaScript sends
them, points of the picture) place men and make jumps by the core's rules,
the picture's geometry is the core's, undo, the engine's replies and hints,
and a clear ImportError without anywidget. The browser test is
test_widget_browser.py."""

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

import phutball

from phutball.widget import Board  # run.sh installs anywidget: without it this fails

SEEDS = phutball.Position.from_points("K6", ["J7", "H8", "G10", "H11"])
SVG_NS = "{http://www.w3.org/2000/svg}"


def drawn_at(svg, cls):
    """{point: (cx, cy)} of the circles of class ``cls`` in a picture."""
    root = ET.fromstring(svg)
    return {
        c.get("data-point"): (float(c.get("cx")), float(c.get("cy")))
        for c in root.iter(f"{SVG_NS}circle")
        if c.get("class") == cls
    }


def click(board, point):
    """Sends the click the browser would send for ``point``: near its centre in the picture."""
    x, y = board.point_centre(point)
    board._on_message(board, {"type": "click", "x": x + 3.0, "y": y - 4.0}, [])


@pytest.mark.parametrize("flip", [False, True])
def test_the_picture_geometry_is_the_cores(flip):
    board = Board(SEEDS, flip=flip)
    points = {**drawn_at(board.svg, "man"), **drawn_at(board.svg, "ball")}
    assert len(points) == 5
    for point, (x, y) in points.items():
        assert board.point_at(x, y) == point
        assert board.point_at(x + 10, y - 10) == point  # within half a cell
        assert board.point_centre(point) == pytest.approx((x, y), abs=0.05)
    assert board.point_at(-100.0, -100.0) is None


@pytest.mark.parametrize("flip", [False, True])
def test_the_geometry_is_the_positions_own_on_any_board(flip):
    # A small board: the widget has no cell size, margin or letters of its own.
    pos = phutball.Position("7/7/7/2#4/3@3/7/7/7/7 X")
    board = Board(pos, flip=flip)
    points = {**drawn_at(board.svg, "man"), **drawn_at(board.svg, "ball")}
    assert sorted(points) == ["C6", "D5"]
    for point, (x, y) in points.items():
        assert pos.svg_point_centre(point, flip=flip) == pytest.approx((x, y), abs=0.05)
        assert board.point_centre(point) == pos.svg_point_centre(point, flip=flip)
        assert pos.svg_point_at(x - 9.0, y + 9.0, flip=flip) == point
        assert board.point_at(x, y) == point
    assert pos.svg_point_at(1e6, 0.0, flip=flip) is None
    with pytest.raises(phutball.IllegalMoveError):
        pos.svg_point_centre("H5", flip=flip)  # column H is off a 7-column board
    with pytest.raises(phutball.ParseError):
        pos.svg_point_centre("I5")


def test_clicks_place_a_man_and_make_a_jump():
    board = Board(SEEDS)
    seen = []
    board.observe(lambda change: seen.append(change["new"]), names="position")
    click(board, "K6")  # the ball: start a jump
    assert board.jumping
    assert '<rect class="highlight" data-point="G9"' in board.svg  # the one landing point
    click(board, "G9")
    # The jump so far: one arrow a landing, the men it removed crossed out.
    assert len(re.findall(r'class="last-move"', board.svg)) == 1
    assert sorted(re.findall(r'class="jumped" data-point="(\w+)"', board.svg)) == ["H8", "J7"]
    click(board, "A19")  # not a landing point: said, and nothing changes
    assert "not a landing point" in board.message
    click(board, "G11")
    assert board.status == "Ohs jumping: K6-G9-G11"
    assert len(re.findall(r'class="last-move"', board.svg)) == 2
    assert sorted(re.findall(r'class="jumped" data-point="(\w+)"', board.svg)) == ["G10", "H8", "J7"]
    click(board, "G11")  # the ball again: the move ends
    assert [str(m) for m in board.game.moves] == ["K6-G9-G11"]
    assert board.position == SEEDS.play("K6-G9-G11")
    assert seen == [board.position]
    click(board, "B2")  # a vacant point: Eks places a man
    assert board.position == SEEDS.play("K6-G9-G11").play("B2")
    click(board, "B2")  # a man: said, nothing played
    assert "holds a man" in board.message
    assert len(board.game) == 2


def test_end_jump_undo_and_flip():
    board = Board(SEEDS)
    board._on_message(board, {"type": "end_jump"}, [])  # no jump yet: nothing
    assert len(board.game) == 0
    board.click("K6")
    board.click("G9")
    board._on_message(board, {"type": "end_jump"}, [])
    assert [str(m) for m in board.game.moves] == ["K6-G9"]
    board._on_message(board, {"type": "undo"}, [])
    assert board.position == SEEDS and len(board.game) == 0
    board.click("K6")
    board.click("G9")
    board.undo()  # takes back the jump being made
    assert not board.jumping and len(board.game) == 0
    before = board.svg
    board.flip = True
    assert board.svg != before
    click(board, "K6")
    assert board.jumping


def test_play_raises_on_an_illegal_move_and_show_jumps_draws_them():
    board = Board(SEEDS)
    with pytest.raises(phutball.IllegalMoveError):
        board.play("K6-G9-J9-G7")
    board.show_jumps = True
    assert len(re.findall(r'<g class="move"', board.svg)) == SEEDS.count_jump_paths()
    board.play("K6-G9-G11-J11")
    assert board.status == "Eks to move"


def test_the_engine_replies_and_hints():
    engine = phutball.Engine(depth=2)
    board = Board(engine=engine, engine_plays="X")
    board.click("H12")
    assert len(board.game) == 2 and board.position.to_move == "O"
    best = board.hint()
    assert best is not None and board.position.is_legal(best)
    assert str(best) in board.message and "depth 2" in board.message
    board.undo()  # the engine's reply and the move before it
    assert len(board.game) == 0
    # Playing Ohs, it moves first.
    assert len(Board(engine=engine, engine_plays="O").game) == 1
    with pytest.raises(ValueError, match="engine_plays"):
        Board(engine=engine, engine_plays="Z")


def test_without_anywidget_the_import_says_how_to_install_it():
    code = "import sys; sys.modules['anywidget'] = None\ntry:\n    import phutball.widget\nexcept ImportError as e:\n    print(e)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert 'pip install "phutball[notebook]"' in out
