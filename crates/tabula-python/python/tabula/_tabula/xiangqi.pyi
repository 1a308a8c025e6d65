"""Xiangqi with the Asian repetition rules, and its engine. Positions in FEN, moves in ICCS, WXF or Chinese."""

from typing import final

from . import _game

__all__ = ["Position", "Engine"]

@final
class Position(_game.Position):
    """A xiangqi position, with the moves played on it."""

    def fen(self) -> str:
        """The position in FEN."""
    def wxf(self, move: str) -> str:
        """The move in WXF notation (``C2=5``)."""
    def chinese(self, move: str) -> str:
        """The move in Chinese notation (``炮二平五``)."""
    def is_check(self) -> bool:
        """Whether the side to move is in check."""

@final
class Engine(_game.Engine[Position]):
    """The xiangqi engine."""
