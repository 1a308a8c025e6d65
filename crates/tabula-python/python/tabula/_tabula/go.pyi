"""Go with area scoring and superko, and its Monte Carlo tree search (``Analysis.nodes`` counts playouts)."""

from typing import final

from . import _game

__all__ = ["Position", "Engine"]

@final
class Position(_game.Position):
    """A Go position (``size`` and ``komi`` choose the board and the komi), with the moves played on it."""

@final
class Engine(_game.Engine[Position]):
    """Go's engine: Monte Carlo tree search."""
