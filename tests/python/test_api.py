"""The module's values and conventions: WDL, Value, MoveValue, the variant of a FEN, the handle's life."""

import pickle

import shutil

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
def test_the_variant_is_named_never_told_from_the_squares(fen, variant, move, in_tables, tables):
    with pytest.raises(TypeError):
        dtb.play(fen, move)  # no variant: play has no handle to take one from
    with dtb.open_tablebase(tables) as both:
        assert both.variant is None  # the test tables hold two variants
        if in_tables:
            with pytest.raises(ValueError, match="pass variant="):
                both.moves(fen)
            with dtb.open_tablebase(tables, variant=variant) as named:
                assert named.moves(fen) == both.moves(fen, variant=variant)
    other = "russian" if variant == "international" else "international"
    with pytest.raises(dtb.BadFenError):
        dtb.play(fen, move, variant=other)


@pytest.mark.parametrize("fen", ["W:W21:B9", "W:W:B", "B:WK1-12:BK20"])
def test_numbers_up_to_32_name_no_variant(fen, tables):
    with dtb.open_tablebase(tables) as tb:
        with pytest.raises(ValueError, match="pass variant="):
            tb.probe_wdl(fen)
    with pytest.raises(ValueError, match="unknown variant"):
        dtb.play(fen, "21-17", variant=None)


def test_the_variant_named_decides_how_numbers_read(tb, cli):
    for variant in ("russian", "international"):
        assert str(tb.probe_wdl("W:W21:B9", variant=variant)) == cli.probe(variant, ["W:W21:B9"])[0]["wdl"]


def test_a_handle_on_one_variant_needs_no_variant(tables, tmp_path, tb):
    only = tmp_path / "russian"
    only.mkdir()
    for f in tables.iterdir():
        if f.name.startswith("russian-"):
            shutil.copy(f, only / f.name)
    with dtb.open_tablebase(only) as russian:
        assert russian.variant == "russian"
        # Numbers up to 32: squares that 8x8 variants share.
        assert russian.probe_dtw("B:WK4:BK29") == tb.probe_dtw("B:WK4:BK29", variant="russian")
        assert russian.probe_dtw("W:WKa1,Kc3:BKh8") == dtb.Value(dtb.WDL.WIN, 3)


def test_the_handle_variant_is_for_fens_probed_without_one(tables, tb):
    with dtb.open_tablebase(tables, variant="international") as intl:
        assert intl.variant == "international"
        assert intl.probe_dtw("W:W28:B22") == tb.probe_dtw("W:W28:B22", variant="international")
        with pytest.raises(dtb.BadFenError):
            intl.probe_dtw("W:WKa1,Kc3:BKh8")  # algebraic squares are no international position
        assert intl.probe_dtw("W:WKa1,Kc3:BKh8", variant="russian") == tb.probe_dtw("W:WKa1,Kc3:BKh8")
        assert intl.probe_dtw("W:W21:B9", variant="russian") == tb.probe_dtw("W:W21:B9", variant="russian")


def test_the_handle_is_a_context_manager(tables):
    with dtb.open_tablebase(tables) as tb:
        assert not tb.closed and tb.dirs == [str(tables)]
        assert repr(tb) == f"<dtb.Tablebase [{str(tables)!r}]>"
    assert tb.closed


def test_start_fen_and_play():
    assert dtb.start_fen("international") == "W:W31-50:B1-20"
    assert dtb.play(dtb.start_fen("international"), "32-28", variant="international") == "B:W28,31,33-50:B1-20"
    assert dtb.perft("russian", 1) == len({dtb.play(dtb.start_fen("russian"), m, variant="russian") for m in (
        "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4")})
    assert (dtb.play("W:Wc3:Bd4,f6", "c3:g7", variant="russian") ==
            dtb.play("W:Wc3:Bd4,f6", "c3xg7", variant="russian") == "B:Wg7:B")
    assert dtb.VARIANTS == ("russian", "international", "brazilian")


def test_a_table_is_taken_from_the_first_directory_that_has_it(tables, tmp_path):
    with dtb.open_tablebase([tmp_path, tables], variant="russian") as tb:
        assert tb.probe_dtw("W:WKa1,Kc3:BKh8") == dtb.Value(dtb.WDL.WIN, 3)


def test_values_unpack_like_named_tuples(tb):
    wdl, dtw = tb.probe_dtw("W:WKa1,Kc3:BKh8")
    assert (wdl, dtw) == (dtb.WDL.WIN, 3)
    v = tb.probe_dtw("W:WKa1,Kc3:BKh8")
    assert tuple(v) == (v.wdl, v.dtw) and len(v) == 2 and v[0] is v.wdl and v[-1] == v.dtw
    for move, wdl, dtw in tb.moves("W:WKa1,Kc3:BKh8"):
        assert isinstance(move, str) and wdl in dtb.WDL
    assert [tuple(m) for m in tb.moves("W:WKa1,Kc3:BKh8")][0] == ("c3-b4", dtb.WDL.WIN, 3)
    assert tuple(dtb.RuleValue(dtb.WDL.DRAW, None)) == (dtb.WDL.DRAW, None)
    # Still a value of its own kind, not a tuple that equals any tuple.
    assert v != (dtb.WDL.WIN, 3) and dtb.Value(dtb.WDL.WIN, 3) != dtb.RuleValue(dtb.WDL.WIN, 3)


def test_the_version_is_the_projects(source_dir, dtb_binary):
    import re
    import subprocess

    project = re.search(r"project\(dtb VERSION (\S+)", (source_dir / "CMakeLists.txt").read_text()).group(1)
    assert dtb.__version__ == project
    shown = subprocess.run([dtb_binary, "--version"], capture_output=True, text=True, timeout=60).stdout
    assert shown.split() == ["dtb", dtb.__version__]


def test_the_namespace_holds_the_api_alone():
    public = {name for name in dir(dtb) if not name.startswith("_")}
    assert public == set(dtb.__all__)
    assert all(hasattr(dtb, name) for name in dtb.__all__)


def test_the_line_of_a_lost_position_is_the_longest_resistance(tb, cli):
    fen = "B:WKe7,Kg7,Kh6:BKb8"  # Black to move loses
    lost = tb.probe_dtw(fen)
    assert lost.wdl is dtb.WDL.LOSS and lost.dtw > 0
    line = tb.line(fen)
    assert len(line) == lost.dtw and line == cli.probe("russian", [fen])[0]["pv"]
    assert line[0] == tb.best_move(fen)
    # The docstring says so.
    doc = dtb.Tablebase.line.__doc__
    assert "lost position" in doc and "longest" in doc
