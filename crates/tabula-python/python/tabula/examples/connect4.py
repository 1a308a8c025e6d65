"""Connect Four written in Python: 7 columns of 6, moves are column numbers 0 to 6.

Its rules are those of ``tabula.connect4``, so ``tabula.minimax`` visits the same tree on both; the difference
in time is what a game written in Python costs.

>>> import tabula
>>> from tabula.examples.connect4 import ConnectFour
>>> tabula.minimax(ConnectFour(), 4) == tabula.minimax(tabula.connect4.Position(), 4)
True
"""

import random

WIDTH, HEIGHT = 7, 6

_rng = random.Random(2026)
KEYS = [[[_rng.getrandbits(64) for _ in range(HEIGHT)] for _ in range(WIDTH)] for _ in range(2)]


class ConnectFour:
    def __init__(self):
        self.columns = [[] for _ in range(WIDTH)]  # each column's discs from the bottom: 0 first player, 1 second
        self.discs = 0
        self.hash = 0
        self.last = None

    def legal_moves(self):
        return [c for c in range(WIDTH) if len(self.columns[c]) < HEIGHT]

    def play(self, column):
        player = self.discs % 2
        self.hash ^= KEYS[player][column][len(self.columns[column])]
        self.columns[column].append(player)
        self.discs += 1

    def undo(self, column):
        player = self.columns[column].pop()
        self.hash ^= KEYS[player][column][len(self.columns[column])]
        self.discs -= 1

    def _disc(self, column, row):
        if 0 <= column < WIDTH and 0 <= row < len(self.columns[column]):
            return self.columns[column][row]
        return None

    def _four(self, player):
        for column in range(WIDTH):
            for row in range(len(self.columns[column])):
                if self.columns[column][row] != player:
                    continue
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    if all(self._disc(column + k * dc, row + k * dr) == player for k in range(1, 4)):
                        return True
        return False

    def outcome(self):
        if self.discs > 0 and self._four((self.discs - 1) % 2):
            return "loss"
        return "draw" if self.discs == WIDTH * HEIGHT else None

    def key(self):
        return self.hash
