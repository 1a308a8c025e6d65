"""Tic-tac-toe, solved by the core's searcher. Cells are ``a1`` to ``c3``; X moves first."""

from typing import final

from . import _game

__all__ = ["Position", "Engine", "Solver"]

@final
class Position(_game.Position):
    """A tic-tac-toe position, with the moves played on it."""

@final
class Engine(_game.Engine[Position]):
    """Tic-tac-toe's engine (the core's searcher)."""

@final
class Solver(_game.Solver[Position]):
    """Tic-tac-toe's exact solver."""
