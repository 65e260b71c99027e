"""Arguments: lenient about what a path may be, strict about types that would give a wrong answer. Every
mistake is a TypeError or ValueError (or a dtb.Error) in plain words naming the argument; none shows the
compiled module's signatures."""

import pathlib

import pytest

import dtb

FEN = "W:WKf8,Ke7,Kh6:BKb8"

# Words of pybind11's own messages, which show the compiled module's internals.
INTERNALS = ("incompatible", "arg0", "_dtb", "->", "supported", "not iterable", "not supported between")


def _plain(error, *words):
    """The message names what is wrong in the user's words."""
    text = str(error)
    assert not any(w in text for w in INTERNALS), text
    for w in words:
        assert w in text, text


WRONG_TYPES = [
    # (call, the words the message must have)
    (lambda tb: tb.probe_wdl(None), ["fen", "str", "NoneType"]),
    (lambda tb: tb.probe_dtw(b"W:WKa1,Kc3:BKh8"), ["fen", "str", "bytes"]),
    (lambda tb: tb.best_move(42), ["fen", "int"]),
    (lambda tb: tb.line(None), ["fen"]),
    (lambda tb: tb.moves(["W:WKa1,Kc3:BKh8"]), ["fen", "list"]),
    (lambda tb: tb.probe_dtc(None), ["fen"]),
    (lambda tb: tb.rule_line(None), ["fen"]),
    (lambda tb: tb.adjudicate(None, 3), ["fen"]),
    (lambda tb: tb.probe_wdl(FEN, variant=1), ["variant", "str", "int"]),
    (lambda tb: tb.max_pieces(0), ["variant", "int"]),
    (lambda tb: tb.adjudicate(FEN, "3"), ["moves_played", "int", "str"]),
    (lambda tb: tb.adjudicate(FEN, True), ["moves_played", "bool"]),  # a bool is no move count
    (lambda tb: tb.adjudicate(FEN, 3.0), ["moves_played", "float"]),
    (lambda tb: tb.adjudicate(FEN, 3, "2"), ["king_moves", "str"]),
    (lambda tb: tb.adjudicate(FEN, 3, conversion_moves=False), ["conversion_moves", "bool"]),
    (lambda tb: tb.rule_line(FEN, "0"), ["moves_played"]),
    (lambda tb: dtb.perft("russian", "3"), ["depth", "str"]),
    (lambda tb: dtb.perft("russian", True), ["depth", "bool"]),
    (lambda tb: dtb.perft("russian", 1, 7), ["fen", "int"]),
    (lambda tb: dtb.perft(1, 1), ["variant", "int"]),
    (lambda tb: dtb.play(None, "c3-d4", variant="russian"), ["fen"]),
    (lambda tb: dtb.play(FEN, 22, variant="russian"), ["move", "int"]),
    (lambda tb: dtb.play(FEN, "f8-g7", variant=b"russian"), ["variant", "bytes"]),
    (lambda tb: dtb.start_fen(1), ["variant", "int"]),
]


@pytest.mark.parametrize("call,words", WRONG_TYPES)
def test_a_wrong_type_is_a_type_error_naming_the_argument(call, words, tb):
    with pytest.raises(TypeError) as info:
        call(tb)
    _plain(info.value, *words)


WRONG_VALUES = [
    (lambda tb: tb.adjudicate(FEN, -1), ["moves_played", "0"]),
    (lambda tb: tb.adjudicate(FEN, 2**63), ["moves_played", str(2**63)]),
    (lambda tb: tb.adjudicate(FEN, 3, 2**31), ["king_moves"]),
    (lambda tb: tb.adjudicate(FEN, 3, conversion_moves=-2), ["conversion_moves"]),
    (lambda tb: tb.rule_line(FEN, 2**40), ["moves_played"]),
    (lambda tb: dtb.perft("russian", -1), ["depth"]),
    (lambda tb: dtb.perft("russian", 2**63), ["depth"]),
]


@pytest.mark.parametrize("call,words", WRONG_VALUES)
def test_a_count_out_of_range_is_a_value_error_naming_the_argument(call, words, tb):
    with pytest.raises(ValueError) as info:
        call(tb)
    _plain(info.value, *words)


def test_an_int_like_count_is_taken(tb):
    class Three:
        def __index__(self):
            return 3

    assert tb.adjudicate(FEN, Three()) == tb.adjudicate(FEN, 3)


@pytest.mark.parametrize("cache_bytes,error,words", [
    (-1, ValueError, ["cache_bytes", "-1"]),
    (2**64, ValueError, ["cache_bytes"]),
    ("1000", TypeError, ["cache_bytes", "str"]),
    (1e6, TypeError, ["cache_bytes", "float"]),
    (True, TypeError, ["cache_bytes", "bool"]),
])
def test_a_bad_cache_size_names_cache_bytes(cache_bytes, error, words, tables):
    with pytest.raises(error) as info:
        dtb.open_tablebase(tables, cache_bytes=cache_bytes)
    _plain(info.value, *words)


@pytest.mark.parametrize("dirs,words", [
    (42, ["dirs", "directory", "list", "int"]),
    ([42], ["dirs", "42", "int"]),
    ([None], ["dirs", "None"]),
])
def test_open_tablebase_says_what_it_takes(dirs, words):
    with pytest.raises(TypeError) as info:
        dtb.open_tablebase(dirs)
    _plain(info.value, *words)


def test_a_directory_without_tables_is_an_error_naming_it(tmp_path, tables):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "README").write_text("no tables here\n")
    with pytest.raises(dtb.MissingTableError) as info:
        dtb.open_tablebase(empty)
    assert info.value.status == "missing table"
    _plain(info.value, str(empty))
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(dtb.MissingTableError) as info:
        dtb.open_tablebase([empty, other])
    _plain(info.value, str(empty), str(other))
    # One directory with tables is enough: the others may be empty.
    with dtb.open_tablebase([empty, tables], variant="russian") as tb:
        assert tb.probe_wdl(FEN) == dtb.WDL.WIN


def test_without_directories_open_tablebase_reads_dtb_path(tables, tmp_path, monkeypatch):
    empty = tmp_path / "empty"
    empty.mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DTB_PATH", f"{empty}:{tables}")
    with dtb.open_tablebase(variant="russian") as tb:
        assert tb.dirs == [str(empty), str(tables)]
        assert tb.probe_wdl(FEN) == dtb.WDL.WIN
    monkeypatch.setenv("DTB_PATH", str(empty))
    with pytest.raises(dtb.MissingTableError) as info:
        dtb.open_tablebase()
    _plain(info.value, str(empty), "DTB_PATH")


def test_without_directories_or_dtb_path_open_tablebase_reads_tablebases_here(tables, tmp_path, monkeypatch):
    monkeypatch.delenv("DTB_PATH", raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(dtb.TableIOError) as info:
        dtb.open_tablebase()
    _plain(info.value, "tablebases", "DTB_PATH")
    (tmp_path / "tablebases").symlink_to(tables)
    for default in ({}, {"dirs": None}):
        with dtb.open_tablebase(**default, variant="russian") as tb:
            assert tb.dirs == ["tablebases"] and tb.probe_wdl(FEN) == dtb.WDL.WIN
    monkeypatch.setenv("DTB_PATH", "")  # set but empty: as if not set
    with dtb.open_tablebase(variant="russian") as tb:
        assert tb.dirs == ["tablebases"]


def test_paths_may_be_str_bytes_or_path_like(tables):
    class Place:
        def __fspath__(self):
            return str(tables)

    for dirs in (Place(), [Place()], pathlib.PurePosixPath(tables), (d for d in [str(tables)])):
        with dtb.open_tablebase(dirs, variant="russian") as tb:
            assert tb.dirs == [str(tables)] and tb.probe_wdl(FEN) == dtb.WDL.WIN
