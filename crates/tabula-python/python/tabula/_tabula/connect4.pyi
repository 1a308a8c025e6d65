"""Connect Four 7×6, its engine and its perfect solver (values in Pascal Pons's convention). Moves are the
columns ``1`` to ``7``."""

from typing import final

from . import _game

__all__ = ["Position", "Engine", "Solver"]

@final
class Position(_game.Position):
    """A Connect Four position, with the moves played on it."""

@final
class Engine(_game.Engine[Position]):
    """Connect Four's engine."""

@final
class Solver(_game.Solver[Position]):
    """Connect Four's perfect solver: values in Pons's convention (positive for a win of the side to move, the
    more stones it has left the larger)."""
