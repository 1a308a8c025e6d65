"""Games written in Python for Tabula's core: the gobang of the tutorial (``gobang``), and tic-tac-toe and
Connect Four written as plainly as a lesson writes them (``tictactoe``, ``connect4``), whose trees are those of
``tabula.tictactoe`` and ``tabula.connect4``, so that the cost of a game written in Python can be measured
against the same game in Rust."""
