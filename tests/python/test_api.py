"""The module's values and conventions: WDL, Value, MoveValue, the variant of a FEN, the handle's life."""

import pickle

import pytest

import dtb


def test_wdl_reads_as_the_json_words_and_the_c_numbers():
    assert [str(w) for w in (dtb.WDL.WIN, dtb.WDL.DRAW, dtb.WDL.LOSS)] == ["win", "draw", "loss"]
    assert [int(w) for w in (dtb.WDL.WIN, dtb.WDL.DRAW, dtb.WDL.LOSS)] == [1, 0, -1]
    assert repr(dtb.WDL.DRAW) == "WDL.DRAW" and f"{dtb.WDL.LOSS}" == "loss"
    assert dtb.WDL.WIN > dtb.WDL.DRAW > dtb.WDL.LOSS


def test_values_are_small_comparable_objects(tb):
    v = tb.probe_dtw("W:WKa1,Kc3:BKh8")
    assert v == dtb.Value(dtb.WDL.WIN, 3) and v.wdl is dtb.WDL.WIN and v.dtw == 3
    assert v != dtb.Value(dtb.WDL.WIN, 5)
    assert repr(v) == "Value(wdl=WDL.WIN, dtw=3)"
    assert len({v, dtb.Value(dtb.WDL.WIN, 3)}) == 1
    assert pickle.loads(pickle.dumps(v)) == v
    with pytest.raises(AttributeError):
        v.dtw = 5  # frozen
    assert repr(tb.moves("W:WKa1,Kc3:BKh8")[0]) == "MoveValue(move='c3-b4', wdl=WDL.WIN, dtw=3)"


def test_a_draw_has_no_distance_and_no_line(tb):
    fen = "W:WKa1:BKb8"
    assert tb.probe_dtw(fen) == dtb.Value(dtb.WDL.DRAW, None)
    assert tb.probe_wdl(fen) is dtb.WDL.DRAW
    assert tb.line(fen) == []
    assert tb.best_move(fen) is not None
    first = tb.moves(fen)[0]
    assert first.wdl is dtb.WDL.DRAW and first.dtw is None


def test_a_lost_position_has_no_best_move(tb):
    lost = "B:WKa1:B"  # Black to move with no piece left
    assert tb.probe_dtw(lost, variant="russian") == dtb.Value(dtb.WDL.LOSS, 0)
    assert tb.best_move(lost, variant="russian") is None
    assert tb.line(lost, variant="russian") == [] and tb.moves(lost, variant="russian") == []


@pytest.mark.parametrize("fen,variant,move,in_tables", [
    ("W:WKa1,Kc3:BKh8", "russian", "c3-d4", True),  # algebraic squares
    ("W:WK46,28:B19", "international", "28-23", True),  # a number above 32
    ("B:WK31-33:BK1", "international", "1-6", False),  # ... in a range
    ("W:W31-50:B1-20.", "international", "32-28", False),  # the full stop some programs write
    ("W:WKa1,K3:BK32", "russian", "a1-b2", True),  # algebraic and numbers up to 32 (Russian reads both)
])
def test_the_variant_is_told_from_the_squares(fen, variant, move, in_tables, tb):
    assert dtb.play(fen, move) == dtb.play(fen, move, variant=variant)
    if in_tables:
        assert tb.moves(fen) == tb.moves(fen, variant=variant)
    other = "russian" if variant == "international" else "international"
    with pytest.raises(dtb.BadFenError):
        dtb.play(fen, move, variant=other)


@pytest.mark.parametrize("fen", ["W:W21:B9", "W:W:B", "B:WK1-12:BK20"])
def test_numbers_up_to_32_alone_name_no_variant(fen, tables):
    with pytest.raises(dtb.BadFenError, match="pass variant="):
        dtb.play(fen, "21-17")
    with dtb.open_tablebase(tables) as tb:
        with pytest.raises(dtb.BadFenError, match="pass variant="):
            tb.probe_wdl(fen)


def test_the_handle_variant_is_for_fens_whose_squares_are_silent(tables, tb):
    with dtb.open_tablebase(tables, variant="international") as intl:
        assert intl.probe_dtw("W:W28:B22") == tb.probe_dtw("W:W28:B22", variant="international")
        assert intl.probe_dtw("W:WKa1,Kc3:BKh8") == tb.probe_dtw("W:WKa1,Kc3:BKh8")  # algebraic: Russian
        assert intl.probe_dtw("W:W21:B9", variant="russian") == tb.probe_dtw("W:W21:B9", variant="russian")


def test_the_handle_is_a_context_manager(tables):
    with dtb.open_tablebase(tables) as tb:
        assert not tb.closed and tb.dirs == [str(tables)]
        assert repr(tb) == f"<dtb.Tablebase [{str(tables)!r}]>"
    assert tb.closed


def test_start_fen_and_play():
    assert dtb.start_fen("international") == "W:W31-50:B1-20"
    assert dtb.play(dtb.start_fen("international"), "32-28") == "B:W28,31,33-50:B1-20"
    assert dtb.perft("russian", 1) == len({dtb.play(dtb.start_fen("russian"), m) for m in (
        "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4")})
    assert dtb.play("W:Wc3:Bd4,f6", "c3:g7") == dtb.play("W:Wc3:Bd4,f6", "c3xg7") == "B:Wg7:B"


def test_a_table_is_taken_from_the_first_directory_that_has_it(tables, tmp_path):
    with dtb.open_tablebase([tmp_path, tables]) as tb:
        assert tb.probe_dtw("W:WKa1,Kc3:BKh8") == dtb.Value(dtb.WDL.WIN, 3)
