"""Tic-tac-toe written in Python: cells 0 to 8 (0 1 2 is the top row), X moves first.

Its rules are those of ``tabula.tictactoe``, so ``tabula.minimax`` visits the same tree on both (549,946 nodes
from the empty board): the difference in time is what a game written in Python costs.

>>> import tabula
>>> from tabula.examples.tictactoe import TicTacToe
>>> tabula.minimax(TicTacToe(), 9)
(0, 549946)
"""

import random

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]

# A Zobrist key per mark on each cell, from a fixed seed: the same keys every run.
_rng = random.Random(2026)
KEYS = [[_rng.getrandbits(64) for _ in range(9)] for _ in range(2)]


class TicTacToe:
    def __init__(self):
        self.cells = [None] * 9  # 0 for X, 1 for O
        self.stones = 0
        self.hash = 0

    def legal_moves(self):
        return [cell for cell in range(9) if self.cells[cell] is None]

    def play(self, cell):
        mark = self.stones % 2
        self.cells[cell] = mark
        self.stones += 1
        self.hash ^= KEYS[mark][cell]

    def undo(self, cell):
        mark = self.cells[cell]
        self.cells[cell] = None
        self.stones -= 1
        self.hash ^= KEYS[mark][cell]

    def outcome(self):
        # Only the player who just moved can have a line: the side to move has lost.
        last = (self.stones - 1) % 2
        for a, b, c in LINES:
            if self.cells[a] == last and self.cells[b] == last and self.cells[c] == last:
                return "loss"
        return "draw" if self.stones == 9 else None

    def key(self):
        return self.hash
