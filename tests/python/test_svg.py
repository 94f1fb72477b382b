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
