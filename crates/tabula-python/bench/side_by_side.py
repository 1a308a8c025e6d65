"""Tabula from Python against what a Python user would pick instead, in one run.

1. Chess perft from the start: through the package, by python-chess's own move generator (the usual recursive
   perft over ``Board.legal_moves``, ``push`` and ``pop``), and by the ``tabula`` command.
2. A Connect Four position solved through the package (``tabula.connect4.Solver``), and by OpenSpiel's
   ``alpha_beta_search`` (Python alpha-beta over ``pyspiel`` states, without a table), where ``open_spiel``
   imports; and by ``tabula.alphabeta``, the same plain alpha-beta without a table, in Rust.
3. The cost of a game written in Python: ``tabula.minimax`` over the same tree as a Python game and as the Rust
   game, nodes per second both ways (and a plain Python minimax over the Python game, to show what the bridge
   itself costs); then the tutorial's gobang searched by ``tabula.Searcher`` with and without its table.

Run from the repository's root, in an environment where the package is installed (``pip install
./crates/tabula-python``), with a release build of the command (``cargo build --release -p tabula-cli``)::

    python crates/tabula-python/bench/side_by_side.py --tabula target/release/tabula

Each figure is the best of ``--repeat`` runs (one run for the slow peers: python-chess's perft, OpenSpiel).
"""

import argparse
import importlib.metadata
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

import tabula
from tabula.examples.connect4 import ConnectFour
from tabula.examples.gobang import Gobang
from tabula.examples.tictactoe import TicTacToe

# python-chess's perft, as the tests check Tabula's against it.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from references import python_chess_perft  # noqa: E402


def best_of(repeat, work):
    """The fastest of ``repeat`` runs of ``work()``: (seconds, what it returned)."""
    best = None
    for _ in range(repeat):
        start = time.perf_counter()
        out = work()
        elapsed = time.perf_counter() - start
        if best is None or elapsed < best[0]:
            best = (elapsed, out)
    return best


def version(distribution):
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def rate(nodes, seconds):
    return f"{nodes / seconds / 1e6:8.3f} M nodes/s"


def row(name, nodes, seconds, note=""):
    print(f"  {name:<34} {nodes:>12,} nodes {seconds:9.3f} s {rate(nodes, seconds)}  {note}")


def chess_perft(depth, tabula_command, repeat):
    print(f"1. Chess perft {depth} from the start position")
    seconds, nodes = best_of(repeat, lambda: tabula.chess.Position().perft(depth))
    row("tabula (the package)", nodes, seconds)
    package = seconds
    try:
        import chess
    except ImportError as error:
        print(f"  python-chess: not run ({error})")
    else:
        seconds, counted = best_of(1, lambda: python_chess_perft(chess.Board(), depth))
        assert counted == nodes, (counted, nodes)
        row(f"python-chess {chess.__version__}", counted, seconds, f"{seconds / package:7.1f}× the package's time")
    command = [tabula_command, "perft", "startpos", str(depth)]
    try:
        seconds, output = best_of(repeat, lambda: subprocess.run(command, capture_output=True, text=True, check=True))
    except (OSError, subprocess.CalledProcessError) as error:
        print(f"  {' '.join(command)}: not run ({error})")
    else:
        counted = int(re.search(r"nodes (\d+)", output.stdout).group(1))
        assert counted == nodes, (counted, nodes)
        inner = re.search(r"time ([\d.]+)s", output.stderr)
        note = f"(the process; it reports {inner.group(1)} s inside)" if inner else "(the process)"
        row(f"`tabula perft startpos {depth}`", counted, seconds, note)
    print()


def pons_to_words(value):
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def connect4_solve(moves, repeat):
    print(f"2. Connect Four solved: the position after {moves} ({len(moves)} discs, {42 - len(moves)} cells empty)")
    position = tabula.connect4.Position(moves)

    # Each run on a new solver, whose making (its table's allocation) is not timed.
    runs = []
    for _ in range(repeat):
        solver = tabula.connect4.Solver(hash_mib=64)
        runs.append(best_of(1, lambda: solver.solve(position)))
    seconds, solved = min(runs, key=lambda run: run[0])
    row("tabula.connect4.Solver", solved.nodes, seconds, f"value {solved.value} ({solved.words}), best {solved.best}")
    # OpenSpiel's algorithm, plain alpha-beta to the end without a table, in Rust (moves in the game's own order,
    # as OpenSpiel's are in its: the two trees differ).
    empty = 42 - len(moves)
    seconds_ab, (score, nodes) = best_of(1, lambda: tabula.alphabeta(position, empty))
    plies = tabula.plies_to_end(score)
    words = "draw" if score == 0 else f"{'win' if score > 0 else 'loss'} in {plies} plies"
    row(f"tabula.alphabeta (to depth {empty})", nodes, seconds_ab, f"{words}: plain alpha-beta, no table")
    try:
        import pyspiel
        from open_spiel.python.algorithms import minimax
    except ImportError as error:
        print(f"  OpenSpiel: not run ({error})")
        print()
        return
    game = pyspiel.load_game("connect_four")
    state = game.new_initial_state()
    for column in moves:
        state.apply_action(int(column) - 1)
    # Its nodes counted by wrapping the recursive function, which calls itself through the module.
    inner, counted = minimax._alpha_beta, [0]

    def counting(*args, **kwargs):
        counted[0] += 1
        return inner(*args, **kwargs)

    minimax._alpha_beta = counting
    try:
        start = time.perf_counter()
        value, action = minimax.alpha_beta_search(game, state)
        seconds_openspiel = time.perf_counter() - start
    finally:
        minimax._alpha_beta = inner
    # OpenSpiel's value is for the player to move at the root (its maximizing player): 1, 0 or -1.
    agree = {1: "win", 0: "draw", -1: "loss"}[round(value)] == pons_to_words(solved.value)
    row(
        f"open_spiel {version('open_spiel')} alpha_beta_search",
        counted[0],
        seconds_openspiel,
        f"value {value:+.0f}, best {action + 1}; agrees: {agree}",
    )
    print()


def plain_minimax(game, depth):
    """Minimax in plain Python over a Python game, as the tutorial writes it: (score, nodes)."""
    outcome = game.outcome()
    if outcome is not None:
        return {"win": tabula.WIN, "loss": -tabula.WIN, "draw": 0}[outcome], 1
    if depth == 0:
        return 0, 1
    best, nodes = -tabula.WIN - 1, 1
    for move in game.legal_moves():
        game.play(move)
        score, below = plain_minimax(game, depth - 1)
        game.undo(move)
        nodes += below
        best = max(best, -score)
    return best, nodes


def per_node_cost(repeat):
    print("3. A game written in Python against the same game in Rust: tabula.minimax, every node visited")
    for name, python_game, rust_game, depth in (
        ("tic-tac-toe", TicTacToe, tabula.tictactoe.Position, 9),
        ("Connect Four", ConnectFour, tabula.connect4.Position, 6),
    ):
        rust_seconds, (rust_score, rust_nodes) = best_of(repeat, lambda: tabula.minimax(rust_game(), depth))
        python_seconds, (score, nodes) = best_of(repeat, lambda: tabula.minimax(python_game(), depth))
        assert (score, nodes) == (rust_score, rust_nodes)
        plain_seconds, (_, plain_nodes) = best_of(1, lambda: plain_minimax(python_game(), depth))
        print(f"  {name}, depth {depth}:")
        row("the Rust game", rust_nodes, rust_seconds)
        row("the Python game", nodes, python_seconds, f"{python_seconds / rust_seconds:7.0f}× the time per node")
        row("plain Python minimax, no Tabula", plain_nodes, plain_seconds, "(the same Python game)")
    print()
    print("   The tutorial's gobang (15×15, after h8 i9 h9 h7 i8 g8), tabula.Searcher to depth 4")
    game = Gobang.from_moves("h8 i9 h9 h7 i8 g8")
    for table in (True, False):
        seconds, result = best_of(repeat, lambda: tabula.Searcher(table=table).search(game, depth=4))
        words = "with its table" if table else "without a table"
        note = f"score {result.score}, best {result.best_move}, table hits {result.table.hits:,}"
        row(f"Searcher {words}", result.nodes, seconds, note)
    print()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tabula", default="target/release/tabula", help="the tabula command (a release build)")
    parser.add_argument("--depth", type=int, default=5, help="chess perft depth")
    parser.add_argument(
        "--connect4", default="524211752413555652", help="the Connect Four position: the columns played, 1-7"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each fast measurement; the best is kept")
    args = parser.parse_args()
    cpu = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "?")
    print(f"Python {platform.python_version()} on {cpu}; tabula-games {version('tabula-games')}, "
          f"chess {version('chess')}, open_spiel {version('open_spiel')}")
    print()
    chess_perft(args.depth, args.tabula, args.repeat)
    connect4_solve(args.connect4, args.repeat)
    per_node_cost(args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())
