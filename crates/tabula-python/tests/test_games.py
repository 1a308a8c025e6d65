"""The games through the package: perft and keys equal to the Rust crates' oracles, notation, errors with the
library's messages, the engines and solvers."""

import random

import pytest

import tabula
from conftest import read_epd

CHESS_PERFT = read_epd("crates/tabula-chess/tests/data/perftsuite.epd", 2_000_000)
CHESS960_PERFT = read_epd("crates/tabula-chess/tests/data/chess960.epd", 700_000)
XIANGQI_PERFT = read_epd("crates/tabula-xiangqi/tests/data/perft.epd", 4_000_000)

# The Polyglot reference keys (crates/tabula-chess/tests/keys.rs, from Polyglot's documentation).
POLYGLOT = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463B96181691FC9C),
    ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", 0x823C9B50FD114196),
    ("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2", 0x0756B94461C50FB0),
    ("rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2", 0x662FAFB965DB29D4),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", 0x22A48B5A8E47FF78),
    ("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3", 0x652A607CA3F242C1),
    ("rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4", 0x00FDD303C946BDD9),
    ("rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3", 0x3C8123EA7B067637),
    ("rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4", 0x5C3F9B829B279560),
]

GAMES = [
    (tabula.tictactoe, {}),
    (tabula.connect4, {}),
    (tabula.chess, {}),
    (tabula.gomoku, {"size": 9}),
    (tabula.go, {"size": 7}),
    (tabula.xiangqi, {}),
]


@pytest.mark.parametrize("fen,depth,count", CHESS_PERFT)
def test_chess_perft_equals_the_suite(fen, depth, count):
    assert tabula.chess.Position(fen).perft(depth) == count


@pytest.mark.parametrize("fen,depth,count", CHESS960_PERFT)
def test_chess960_perft_equals_the_suite(fen, depth, count):
    assert tabula.chess.Position(fen).perft(depth) == count


@pytest.mark.parametrize("fen,depth,count", XIANGQI_PERFT)
def test_xiangqi_perft_equals_the_suite(fen, depth, count):
    assert tabula.xiangqi.Position(fen).perft(depth) == count


def test_perft_through_a_table_and_divided_gives_the_same_counts():
    pos = tabula.chess.Position("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    assert pos.perft(3, hash_mib=4) == 97862
    divided = pos.divide(3)
    assert len(divided) == 48 and sum(n for _, n in divided) == 97862
    assert dict(divided)["e1g1"] == 2059


@pytest.mark.parametrize("fen,key", POLYGLOT)
def test_chess_keys_are_polyglots(fen, key):
    assert tabula.chess.Position(fen).key() == key


def test_chess_keys_by_playing_the_moves_are_polyglots():
    pos = tabula.chess.Position()
    for san, (_, key) in zip(["e4", "d5", "e5", "f5", "Ke2", "Kf7"], POLYGLOT[1:7]):
        pos.play(san)
        assert pos.key() == key, pos.fen()
    for _ in range(6):
        pos.undo()
    assert pos.key() == POLYGLOT[0][1]


def test_xiangqi_start_key_is_the_crates():
    # `tabula hash xiangqi startpos`, as the learners' chapter prints it.
    assert tabula.xiangqi.Position().key() == 0x0D79E8A342139BCC


@pytest.mark.parametrize("module,setup", GAMES, ids=lambda g: getattr(g, "__name__", ""))
def test_the_key_after_moves_and_undos_is_the_key_of_the_position_read_afresh(module, setup):
    rng = random.Random(7)
    for _ in range(5):
        pos = module.Position(**setup)
        keys = [pos.key()]
        for _ in range(30):
            moves = pos.legal_moves()
            if not moves:
                break
            pos.play(rng.choice(moves))
            keys.append(pos.key())
            # (Go's text is an SGF record, which gives the board's size itself.)
            again = module.Position(pos.text(), **({} if module is tabula.go else setup))
            assert again.key() == pos.key(), pos.text()
        while pos.moves:
            keys.pop()
            pos.undo()
            assert pos.key() == keys[-1]


def test_two_move_orders_reach_one_key():
    one, two = tabula.chess.Position(), tabula.chess.Position()
    for san in ["e4", "Nc6", "Nf3"]:
        one.play(san)
    for san in ["Nf3", "Nc6", "e4"]:
        two.play(san)
    assert one.key() == two.key() == 0xF2B5AF44846685A8


def test_moves_read_in_every_notation_and_come_back_in_coordinates():
    pos = tabula.chess.Position()
    assert pos.play("Nf3") == "g1f3"
    assert pos.play("d7d5") == "d7d5"
    assert pos.moves == ["g1f3", "d7d5"]
    assert pos.san("c2c4") == "c4" and pos.move_text("e2e4") == "e4"
    assert pos.fen() == "rnbqkbnr/ppp1pppp/8/3p4/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2"
    x = tabula.xiangqi.Position()
    assert x.parse_move("炮二平五") == "h2e2" and x.parse_move("C2=5") == "h2e2"
    assert x.wxf("h2e2") == "C2=5" and x.chinese("h2e2") == "炮二平五"
    x.play("h2e2")
    assert x.chinese("h9g7") == "马８进７"
    g = tabula.gomoku.Position(size=15, rule="renju")
    assert g.parse_move("7,7") == "h8" and g.legal_moves() == ["h8"]  # renju opens at the centre


def test_errors_are_exceptions_with_the_librarys_message():
    with pytest.raises(tabula.PositionError, match="bad position `xx`"):
        tabula.chess.Position("xx")
    with pytest.raises(tabula.MoveError, match="`e5` is not a legal move here"):
        tabula.chess.Position().play("e5")
    with pytest.raises(tabula.SetupError, match="chess has no size setting"):
        tabula.chess.Position(size=9)
    with pytest.raises(tabula.SetupError, match="bad rule `chess`"):
        tabula.gomoku.Position(rule="chess")
    with pytest.raises(tabula.MoveError, match="no move to take back"):
        tabula.connect4.Position().undo()
    assert issubclass(tabula.MoveError, tabula.Error) and issubclass(tabula.Error, ValueError)


def test_outcomes_and_results():
    mate = tabula.chess.Position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert mate.outcome() == "loss" and mate.is_over() and mate.legal_moves() == []
    assert mate.result() == "White is checkmated: Black wins."
    with pytest.raises(tabula.MoveError, match="the game is over"):
        mate.play("a3")
    full = tabula.tictactoe.Position("123546879")
    assert full.outcome() is not None
    assert tabula.connect4.Position().outcome() is None and tabula.connect4.Position().side_to_move() == "X"


def test_boards_and_cells():
    pos = tabula.connect4.Position("4453")
    width, height, marks, drop = pos.cells()
    assert (width, height, drop) == (7, 6, True) and marks.count("x") == 2 and marks.count("o") == 2
    assert pos.move_cells("4") == (None, 3 * 7 + 3)
    assert "車" in tabula.xiangqi.Position().board(unicode=True)
    assert str(tabula.chess.Position()).startswith("8  r n b q k b n r")
    assert repr(tabula.gomoku.Position("h8")) == "tabula.gomoku.Position('h8')"
    copy = pos.copy()
    copy.play("1")
    assert pos.moves == [] and copy.moves == ["1"]


def test_the_chess_engine_finds_a_mate_and_says_it_in_its_words():
    pos = tabula.chess.Position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    analysis = tabula.chess.Engine(hash_mib=8).analyse(pos, depth=4)
    assert analysis.best == "a1a8" and analysis.score == "mate in 1" and analysis.line == "Ra8#"
    assert analysis.value == tabula.WIN - 1 and tabula.plies_to_end(analysis.value) == 1
    assert analysis.table.probes > 0 and analysis.depth >= 1


def test_engines_report_each_iteration():
    seen = []
    pos = tabula.xiangqi.Position()
    final = tabula.xiangqi.Engine(hash_mib=8).analyse(pos, depth=5, on_iteration=seen.append)
    assert [a.depth for a in seen][-1] == 5 and final.depth == 5 and final.best in pos.legal_moves()
    assert final.pv[0] == final.best


def test_gomoku_blocks_a_four_and_its_threat_search_finds_the_win():
    board = tabula.gomoku.Position("h8 g8 i8 a1 j8 a3 k8", rule="standard")
    assert tabula.gomoku.Engine(hash_mib=4).analyse(board, depth=3).best == "l8"
    three = tabula.gomoku.Position("h8 a1 i8 o1 j8 a15")
    threats = tabula.gomoku.ThreatSolver()
    line = threats.solve(three, "vct")
    assert line[0] in ("g8", "k8") and len(line) % 2 == 1
    assert threats.solve(tabula.gomoku.Position("h8 a1"), "vcf") is None
    with pytest.raises(tabula.Error, match="vcf or vct"):
        threats.solve(three, "vcx")


def test_connect4_solver_gives_pons_values():
    solver = tabula.connect4.Solver(hash_mib=16)
    solved = solver.solve(tabula.connect4.Position("4455"))
    assert solved.value == 18  # the first player wins with her fourth stone: 22 - 4
    end = tabula.connect4.Position("427767763612342422427365534134136761")
    assert solver.solve(end).words == "win in 2 moves"
    moves = dict(solver.solve_moves(end))
    assert max(s.value for s in moves.values()) == 2
    assert solver.solve(end, weak=True).value == 1


def test_tictactoe_is_a_draw_by_its_solver_and_by_minimax():
    assert tabula.tictactoe.Solver().solve(tabula.tictactoe.Position()).value == 0
    assert tabula.minimax(tabula.tictactoe.Position(), 9) == (0, 549946)


def test_go_plays_and_its_engine_answers_within_a_playout_budget():
    pos = tabula.go.Position(size=7, komi=7.5)
    pos.play("d4")
    pos.play("pass")
    analysis = tabula.go.Engine(hash_mib=4).analyse(pos, nodes=300)
    assert analysis.unit == "playouts" and analysis.best in pos.legal_moves() and analysis.value is None
