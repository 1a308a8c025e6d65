"""What Tabula is checked and timed against, written as the peers' users write it: the tests compare Tabula with
it, and ``bench/side_by_side.py`` times it."""


def python_chess_perft(board, depth):
    """python-chess's perft as its users write it (the leaves counted at depth 1 without playing them)."""
    if depth == 1:
        return board.legal_moves.count()
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total
