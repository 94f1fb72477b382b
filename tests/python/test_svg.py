"""The notebook SVG: well-formed XML with the board, men, ball and last move."""

import xml.etree.ElementTree as ET

import phutball

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def by_class(root, name):
    return [e for e in root.iter() if e.get("class") == name]


def test_position_svg_parses_and_shows_everything():
    pos = phutball.Position.from_points("K6", ["J7", "H8", "G10", "H11"])
    root = parse(pos._repr_svg_())
    assert len(by_class(root, "man")) == 4
    assert len(by_class(root, "ball")) == 1
    assert len(by_class(root, "goal-line")) == 2
    assert len(by_class(root, "off-board")) == 2
    texts = [e.text for e in root.iter(NS + "text")]
    assert "A" in texts and "P" in texts and "I" not in texts
    assert "20" in texts and "0" in texts
    assert any("Ohs" in t and "to move" in t for t in texts)


def test_last_move_arrows_and_game_svg():
    pos = phutball.Position.from_points("K6", ["J7", "H8", "G10", "H11"])
    root = parse(pos.play("K6-G9-G11-J11").svg(last_move="K6-G9-G11-J11"))
    assert len(by_class(root, "last-move")) == 3
    game = phutball.Game(pos)
    game.push("K6-G9-G11")
    root = parse(game._repr_svg_())
    assert len(by_class(root, "last-move")) == 2
    assert len(by_class(root, "man")) == 1
    game.push("A1")
    assert len(by_class(parse(game._repr_svg_()), "last-move")) == 1


def test_finished_position_says_who_won():
    pos = phutball.Position.from_points("N18", ["O19"]).play("N18-P20")
    texts = [e.text for e in parse(pos._repr_svg_()).iter(NS + "text")]
    assert any("Game over" in t and "Ohs" in t for t in texts)


# ---- The options: moves, removed men, highlight, flip, size; errors ----

import pytest  # noqa: E402

import phutball.svg  # noqa: E402


def worked():
    return phutball.Position.from_points("K6", ["J7", "H8", "G10", "H11"])


def points_of(root, name):
    return sorted(e.get("data-point") for e in by_class(root, name))


def centres(root):
    """The drawn centre of each man and the ball, by point."""
    return {e.get("data-point"): (float(e.get("cx")), float(e.get("cy"))) for e in by_class(root, "man") + by_class(root, "ball")}


def half_turn(point, cols=15, rows=19):
    letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
    col, row = letters.index(point[0]), int(point[1:])
    return f"{letters[cols - 1 - col]}{rows + 1 - row}"


def test_every_jump_path_is_drawn_as_one_arrow_group():
    pos = worked()
    paths = pos.jump_paths()
    root = parse(pos.svg(moves=paths))
    groups = by_class(root, "move")
    assert len(groups) == len(paths) == 3
    assert [g.get("data-move") for g in groups] == [str(m) for m in paths]
    for group, path in zip(groups, paths):
        assert len(group.findall(NS + "line")) == len(path.path) - 1


def test_moves_as_notation_one_or_many():
    pos = worked()
    assert len(by_class(parse(pos.svg(moves="K6-G9")), "move")) == 1
    assert len(by_class(parse(pos.svg(moves=phutball.Move("H9"))), "move")) == 1
    assert len(by_class(parse(pos.svg(moves=("H9", "A1", "K6-G9"))), "move")) == 3
    assert by_class(parse(pos.svg()), "move") == []


@pytest.mark.parametrize("moves", [["K6-G9"], ["K6-G9-G11", "K6-G9"], ["K6-G9-G11-J11", "H9"]])
def test_the_men_the_jumps_remove_are_marked(moves):
    pos = worked()
    removed = set()
    for m in moves:
        removed |= set(pos.men) - set(pos.play(m).men)
    assert points_of(parse(pos.svg(moves=moves)), "removed") == sorted(removed)


def test_flip_draws_each_point_at_its_half_turn():
    pos = worked()
    plain = centres(parse(pos.svg()))
    flipped = centres(parse(pos.svg(flip=True)))
    turned = phutball.Position.from_points(half_turn("K6"), [half_turn(p) for p in ["J7", "H8", "G10", "H11"]])
    turned_plain = centres(parse(turned.svg()))
    assert len(flipped) == 5
    for point, at in flipped.items():
        assert turned_plain[half_turn(point)] == at
        assert plain[point] != at


def test_highlight_count():
    pos = worked()
    assert points_of(parse(pos.svg(highlight=["H10", "A1", "P20"])), "highlight") == ["A1", "H10", "P20"]
    assert points_of(parse(pos.svg(highlight="H10")), "highlight") == ["H10"]


def test_size_sets_the_width_and_keeps_the_proportions():
    pos = worked()
    natural = parse(pos.svg())
    _, _, box_width, box_height = map(float, natural.get("viewBox").split())
    ratio = box_height / box_width
    for px in [120, 400, 999]:
        root = parse(pos.svg(size=px))
        assert root.get("width") == str(px)
        assert abs(float(root.get("height")) - px * ratio) <= 0.5
        assert root.get("viewBox") == natural.get("viewBox")
    for bad in [0, -5, 2**40]:
        with pytest.raises(ValueError, match="size must be"):
            pos.svg(size=bad)
    with pytest.raises(TypeError):
        pos.svg(size="big")


@pytest.mark.parametrize(
    "moves, words",
    [
        ("A1-Z9", "must start at the ball on K6"),
        ("K6-Z9", "Z9 is not a point"),
        ("K6-K8", "K7 holds no man"),
        (["H9", "J7"], "a man is already there"),
    ],
)
def test_moves_not_legal_here_raise(moves, words):
    with pytest.raises(phutball.IllegalMoveError, match=words) as info:
        worked().svg(moves=moves)
    assert isinstance(info.value, ValueError)


def test_bad_points_and_notation_raise():
    pos = worked()
    with pytest.raises(phutball.IllegalMoveError, match="Z9 is not a point"):
        pos.svg(last_move="A1-Z9")
    with pytest.raises(phutball.IllegalMoveError, match="Q3"):
        pos.svg(highlight=["Q3"])
    with pytest.raises(phutball.ParseError):
        pos.svg(moves=["K6-"])
    with pytest.raises(TypeError):
        pos.svg(moves=[3])


def test_game_and_jump_in_progress_take_the_options():
    pos = worked()
    game = phutball.Game(pos)
    game.push("H9")
    root = parse(game.svg(moves="K6-G9", highlight="H9", flip=True, size=300))
    assert len(by_class(root, "last-move")) == 1
    assert len(by_class(root, "move")) == 1
    assert root.get("width") == "300"
    jump = pos.apply_jump("G9")
    root = parse(jump.svg(moves="G9-G11-J11"))
    assert points_of(root, "removed") == ["G10", "H11"]
    with pytest.raises(phutball.IllegalMoveError, match="jump move is under way"):
        jump.svg(moves="A5")


def test_a_jump_in_progress_draws_its_path_so_far():
    jump = worked().apply_jump("G9").apply_jump("G11")
    root = parse(jump.svg())
    assert points_of(root, "jumped") == sorted(jump.removed) == ["G10", "H8", "J7"]
    assert not by_class(root, "last-move")
    root = parse(jump.svg(path="K6-G9-G11", size=300))
    assert len(by_class(root, "last-move")) == 2  # one arrow a landing
    assert points_of(root, "jumped") == ["G10", "H8", "J7"]
    with pytest.raises(phutball.IllegalMoveError, match="Z9"):
        jump.svg(path="K6-G9-Z9")
    with pytest.raises(phutball.ParseError):
        jump.svg(path="K6-")


def test_board_is_the_method_as_a_function():
    assert phutball.svg is __import__("sys").modules["phutball.svg"]  # imported with the package
    pos = worked()
    assert phutball.svg.board(pos, moves=pos.jump_paths(), flip=True) == pos.svg(moves=pos.jump_paths(), flip=True)
    game = phutball.Game(pos)
    assert phutball.svg.board(game) == game._repr_svg_()


def test_png_without_cairosvg_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "cairosvg", None)
    with pytest.raises(ImportError, match="pip install cairosvg"):
        worked().png()
    with pytest.raises(ImportError, match="pip install cairosvg"):
        phutball.svg.to_png(worked().svg())


def test_png_with_cairosvg(tmp_path):
    out = tmp_path / "board.png"
    try:
        data = phutball.svg.png(worked(), path=str(out), size=200, moves=worked().jump_paths())
    except ImportError as e:  # cairosvg is optional (run.sh installs it when it can)
        pytest.skip(str(e))
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert out.read_bytes() == data
    # The PNG's width is the size asked for (the IHDR chunk's first field).
    assert int.from_bytes(data[16:20], "big") == 200
    assert worked().png(size=150)[16:20] == (150).to_bytes(4, "big")
