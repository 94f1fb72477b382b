"""Board pictures as plain functions, and PNG files from them.

>>> import phutball, phutball.svg
>>> pos = phutball.Position.from_points("K6", ["J7", "H8", "G10", "H11"])
>>> picture = phutball.svg.board(pos, moves=pos.jump_paths(), flip=True, size=400)
>>> picture.startswith("<svg")
True

The drawing is the Rust core's (``Position.svg``); PNG needs the optional
``cairosvg`` package (``pip install cairosvg``; it uses the Cairo library,
``libcairo2`` on Debian).
"""

from typing import Any, Optional, Union

from ._phutball import Game, JumpInProgress, Position

__all__ = ["board", "png", "to_png"]

_Drawable = Union[Position, JumpInProgress, Game]

INSTALL_CAIROSVG = (
    "PNG pictures need the optional cairosvg package: pip install cairosvg "
    "(it needs the Cairo library: libcairo2 on Debian/Ubuntu, cairo on Homebrew); "
    "or save the SVG text (Position.svg) and convert it with any SVG tool"
)


def board(state: _Drawable, **options: Any) -> str:
    """The SVG picture of ``state`` (a ``Position``, ``JumpInProgress`` or ``Game``): its ``svg(**options)``."""
    return state.svg(**options)


def to_png(svg: str, path: Optional[str] = None) -> bytes:
    """The SVG text ``svg`` as PNG bytes, also written to ``path`` if given; ImportError (saying how to install it) without cairosvg."""
    try:
        import cairosvg  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except (ImportError, OSError) as e:  # OSError: cairocffi found no Cairo library
        raise ImportError(INSTALL_CAIROSVG) from e
    data: bytes = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    if path is not None:
        with open(path, "wb") as f:
            f.write(data)
    return data


def png(state: _Drawable, path: Optional[str] = None, **options: Any) -> bytes:
    """The picture of ``state`` (``board(state, **options)``) as PNG bytes, also written to ``path`` if given."""
    return to_png(board(state, **options), path)
