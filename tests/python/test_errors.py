"""One shape for errors: every class in docs/python.md's table ("Which
exception for which error") is raised for an example input, bad input is a
``ValueError``, class names end in ``Error``, and the old names are gone."""

import builtins
import re
import struct
import zlib
from pathlib import Path

import pytest

import phutball

DOCS = Path(__file__).resolve().parents[2] / "docs" / "python.md"
HEADING = "### Which exception for which error"
START = str(phutball.Position())
FINISHED = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 O H0"

# An input that raises each class, by the class's name in the docs' table.
EXAMPLES = {
    "phutball.ParseError": lambda: phutball.Move("I5"),
    # A well-formed string, an impossible position: rules that do not fit the board.
    "phutball.InvalidPositionError": lambda: phutball.Position(START, rules=phutball.Rules(start="Z26")),
    "phutball.IllegalMoveError": lambda: phutball.Position().play("H10"),
    # No call of the package gives up on the outcome bound alone: the memory
    # limit's MemoryLimitError is the TooManyOutcomesError it raises.
    "phutball.TooManyOutcomesError": lambda: phutball.Position().legal_moves(memory_limit=1),
    "phutball.MemoryLimitError": lambda: phutball.Position().legal_moves(memory_limit=1),
    "phutball.SearchTimeoutError": lambda: phutball.Position().count_legal_moves(timeout=0),
    # Raised from a signal handler during the search: tested in a child
    # process by test_bounded.py::test_ctrl_c_raises_keyboard_interrupt_promptly.
    "KeyboardInterrupt": None,
    # The engine asked to move in a finished game (the ball on Ohs's goal strip).
    "ValueError": lambda: phutball.Engine(depth=1).best_move(FINISHED),
    # An engine whose network has no network of the position's board size
    # (a network of the standard board only, all its weights zero).
    "phutball.NetworkError": lambda: phutball.Engine(depth=1, eval=standard_network()).best_move("start:9x9"),
}


def standard_network():
    """A network of the standard board, one hidden unit, its weights zero (docs/network.md)."""
    floats = (2 * 15 * 19 + 3) + 3
    body = b"phbnet\n\0" + struct.pack("<III", 1, 0, 1) + struct.pack("<BBH", 15, 19, 1) + bytes(4 * floats)
    return phutball.Network.from_bytes(body + struct.pack("<I", zlib.crc32(body)))


def documented_classes():
    """The second column of the docs' table: the class names."""
    section = DOCS.read_text().split(HEADING, 1)[1]
    rows = re.findall(r"^\| `[^`]+` \| (.+) \|$", section.split("\n\n## ", 1)[0], re.M)
    return sorted({row.strip("`") for row in rows if row.startswith("`")})


def python_class(name):
    """``phutball.ParseError`` or a builtin such as ``ValueError``."""
    module, _, attr = name.rpartition(".")
    return getattr(phutball if module == "phutball" else builtins, attr)


def test_the_docs_table_names_the_classes_these_tests_raise():
    assert documented_classes() == sorted(EXAMPLES)


@pytest.mark.parametrize("name", [n for n, example in EXAMPLES.items() if example is not None])
def test_each_documented_class_is_raised_for_an_example_input(name):
    with pytest.raises(python_class(name)):
        EXAMPLES[name]()


def test_bad_input_is_a_value_error_and_a_limit_is_not():
    for cls in (phutball.ParseError, phutball.InvalidPositionError, phutball.IllegalMoveError, phutball.NetworkError):
        assert issubclass(cls, ValueError)
    # The input was fine; the caller's limit was too small for it.
    assert issubclass(phutball.TooManyOutcomesError, RuntimeError)
    assert not issubclass(phutball.TooManyOutcomesError, ValueError)
    assert issubclass(phutball.MemoryLimitError, (phutball.TooManyOutcomesError, MemoryError))
    assert issubclass(phutball.SearchTimeoutError, TimeoutError)


def test_every_exception_class_name_ends_in_error():
    classes = [v for v in vars(phutball).values() if isinstance(v, type) and issubclass(v, BaseException)]
    assert len(classes) == 9
    for cls in classes:
        assert cls.__name__.endswith("Error"), cls
        assert cls.__module__ == "phutball" and getattr(phutball, cls.__name__) is cls


def test_the_old_name_search_timeout_is_gone():
    # Removed before any release: only SearchTimeoutError names the class.
    with pytest.raises(AttributeError, match="SearchTimeout"):
        phutball.SearchTimeout  # noqa: B018
    with pytest.raises(phutball.SearchTimeoutError):
        phutball.Position().count_legal_moves(timeout=0)
    with pytest.raises(AttributeError):
        phutball.NoSuchName  # noqa: B018


def test_bad_rules_raise_the_same_class_however_they_are_attached():
    far = phutball.Rules(start="Z26")
    for attach in (
        lambda: phutball.Position(START, rules=far),
        lambda: phutball.Position.from_points("H10", [], rules=far),
        lambda: phutball.Position.start(rules=far),
    ):
        with pytest.raises(phutball.InvalidPositionError, match="start point Z26 is outside the 15x19 board"):
            attach()
    # Text that is not a side or a point is a ParseError, before any board is known.
    with pytest.raises(phutball.ParseError):
        phutball.Rules(first_player="Q")
    with pytest.raises(phutball.ParseError):
        phutball.Rules(start="I5")
    # Inside a game record the record is the input: a ParseError naming the line.
    with pytest.raises(phutball.ParseError, match="line 2: start point Z26"):
        phutball.Game.from_record(f"start {START}\nrules start-point=Z26\n")
