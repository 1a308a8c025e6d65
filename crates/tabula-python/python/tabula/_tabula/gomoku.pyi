"""Gomoku under freestyle, standard and renju rules (``rule``; ``size`` for the board), its engine (threats
first, then alpha-beta) and its threat-space search (VCF and VCT) alone."""

from typing import Literal, final

from . import _game

__all__ = ["Position", "Engine", "ThreatSolver"]

@final
class Position(_game.Position):
    """A Gomoku position, with the moves played on it."""

@final
class Engine(_game.Engine[Position]):
    """Gomoku's engine: threat-space search first, then alpha-beta."""

@final
class ThreatSolver:
    """Gomoku's threat-space search: a forced win by continuous fours (VCF) or by fours and threes (VCT), with
    a cache of its own. The GIL is released while it searches."""

    def __new__(cls, cache_mib: int = 16) -> ThreatSolver:
        """A solver with a cache of ``cache_mib`` MiB."""
    def solve(
        self, position: Position, kind: Literal["vcf", "vct"] = "vcf", *, depth: int | None = None, nodes: int = 1000000
    ) -> list[str] | None:
        """A forced win for the side to move, within ``depth`` attacking moves and ``nodes`` nodes: the line
        (attacker and defender alternating, ending in five), or ``None`` if none was found."""
    @property
    def nodes(self) -> int:
        """Nodes the last search took."""
    @property
    def aborted(self) -> bool:
        """Whether the last search ran out of nodes before it could decide (then ``None`` proves nothing)."""
