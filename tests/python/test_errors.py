"""Errors are exceptions of the right classes, carrying the library's message."""

import os
import shutil
import struct

import pytest

import dtb


def _copy_tables(src, dst, keep=lambda name: True):
    dst.mkdir(exist_ok=True)
    for f in src.iterdir():
        if f.suffix in (".wdl", ".dtw") and keep(f.name):
            shutil.copy(f, dst / f.name)
    return dst


@pytest.mark.parametrize("fen,variant", [
    ("xyz", None),  # the handle's variant: Russian
    ("W:Wz9:B1", "russian"),
    ("W:W51:B1", "international"),
    ("W:Wa1:B49", "international"),  # algebraic squares: no international position
    ("W:Wg7:Ba1", "russian"),  # a man on its crowning row
])
def test_a_bad_fen_raises_bad_fen_error_with_the_message_of_dtb_probe(fen, variant, tb, cli):
    with pytest.raises(dtb.BadFenError) as info:
        tb.probe_dtw(fen, variant=variant)
    error = info.value
    assert isinstance(error, ValueError) and isinstance(error, dtb.Error)
    assert error.status == "bad position"
    done = cli.run("probe", "--variant", variant or "russian", "--dir", cli.tables, "--fen", fen)
    assert done.returncode == 2
    assert str(error) in done.stderr


def test_a_fen_is_read_in_the_variant_of_the_call_or_the_handle(tb):
    with dtb.open_tablebase(tb.dirs) as both:
        with pytest.raises(ValueError, match="pass variant="):
            both.probe_dtw("W:W21:B9")
    assert tb.probe_dtw("W:W21:B9", variant="russian") != tb.probe_dtw("W:W21:B9", variant="international")
    with dtb.open_tablebase(tb.dirs, variant="russian") as russian:
        assert russian.probe_dtw("W:W21:B9") == tb.probe_dtw("W:W21:B9", variant="russian")
        # The handle's variant, whatever the squares look like: 45 is no Russian square.
        with pytest.raises(dtb.BadFenError, match="45"):
            russian.probe_dtw("W:W45:B9")
        assert russian.probe_dtw("W:W45:B9", variant="international") == tb.probe_dtw("W:W45:B9",
                                                                                      variant="international")


def test_an_unknown_variant_is_a_value_error(tb):
    for call in (lambda: tb.probe_dtw("W:WKa1:BKh8", variant="pool"), lambda: dtb.perft("english", 1),
                 lambda: dtb.open_tablebase(tb.dirs, variant="Russian")):
        with pytest.raises(ValueError, match="unknown variant"):
            call()


def test_a_missing_table_raises_missing_table_error_naming_it(tables, tmp_path, cli, tb):
    full = tb
    d = _copy_tables(tables, tmp_path / "t", keep=lambda name: not name.startswith("russian-KKvK."))
    fen = "W:WKa1,Kc3:BKh8"
    with dtb.open_tablebase(d, variant="russian") as tb:
        with pytest.raises(dtb.MissingTableError) as info:
            tb.probe_dtw(fen)
        assert isinstance(info.value, LookupError) and info.value.status == "missing table"
        assert "russian-KKvK" in str(info.value)
        # Still an answer where no KKvK table is needed.
        assert tb.probe_dtw("W:WKa1,Kc3:BKh8,g7") == full.probe_dtw("W:WKa1,Kc3:BKh8,g7")
    done = cli.run("probe", "--variant", "russian", "--dir", str(d), "--fen", fen)
    assert done.returncode == 1 and str(info.value) in done.stderr


def test_too_many_pieces_is_a_missing_table(tb):
    with pytest.raises(dtb.TooManyPiecesError) as info:
        tb.probe_wdl("W:Wa1,c1,e1:Bb8,d8")
    assert isinstance(info.value, dtb.MissingTableError)
    assert info.value.status == "too many pieces"
    assert tb.max_pieces("russian") == 4 and tb.max_pieces("international") == 3


def test_a_missing_directory_raises_table_io_error(tmp_path):
    missing = tmp_path / "no-such-dir"
    with pytest.raises(dtb.TableIOError) as info:
        dtb.open_tablebase([str(tmp_path), missing])
    assert isinstance(info.value, OSError) and info.value.status == "i/o error"
    assert str(missing) in str(info.value)


def test_open_tablebase_takes_paths_and_lists_of_them(tables):
    for dirs in (tables, str(tables), os.fsencode(tables), [tables], (str(tables), tables)):
        with dtb.open_tablebase(dirs, variant="russian") as tb:
            assert tb.probe_wdl("W:WKa1,Kc3:BKh8") == dtb.WDL.WIN
    with pytest.raises(ValueError):
        dtb.open_tablebase([])


def _flip(path, offset):
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x10
    path.write_bytes(bytes(data))


def test_a_damaged_header_raises_corrupt_table_error_naming_the_file(tables, tmp_path):
    d = _copy_tables(tables, tmp_path / "t", keep=lambda name: name.startswith("russian-"))
    _flip(d / "russian-KKvK.wdl", 0)  # the magic
    with dtb.open_tablebase(d) as tb:
        with pytest.raises(dtb.CorruptTableError) as info:
            tb.probe_wdl("W:WKa1,Kc3:BKh8")
    assert isinstance(info.value, OSError) and info.value.status == "corrupt table"
    assert "russian-KKvK.wdl" in str(info.value)


def _kkvk_positions(to_move="W"):
    squares = range(1, 33)
    for a in squares[::3]:
        for b in squares[1::3]:
            for c in squares[2::2]:
                if len({a, b, c}) == 3:
                    yield f"{to_move}:WK{a},K{b}:BK{c}"


def _stored_two_kings_side(d):
    """Of russian-KKvK and russian-KvKK, the table whose files store its
    positions (table format 3 leaves the other side of a pair out: header
    flag 4, docs/FORMAT.md), and who moves in its positions here."""
    flags = struct.unpack_from("<I", (d / "russian-KKvK.wdl").read_bytes(), 28)[0]
    return ("russian-KvKK", "B") if flags & 4 else ("russian-KKvK", "W")


def test_a_damaged_block_gives_errors_or_right_values_never_wrong_ones(tables, tmp_path, tb):
    d = _copy_tables(tables, tmp_path / "t", keep=lambda name: name.startswith("russian-"))
    name, to_move = _stored_two_kings_side(d)
    target = d / (name + ".dtw")
    header = target.read_bytes()[:80]
    data_offset, data_size = struct.unpack_from("<QQ", header, 64)
    assert data_offset + data_size == target.stat().st_size
    _flip(target, data_offset + 3)  # inside the first block
    errors = right = 0
    with dtb.open_tablebase(d, variant="russian", cache_bytes=0) as damaged:
        for fen in _kkvk_positions(to_move):
            want = tb.probe_dtw(fen, variant="russian")
            assert damaged.probe_wdl(fen) == want.wdl  # the WDL file is whole
            try:
                got = damaged.probe_dtw(fen)
            except dtb.CorruptTableError as e:
                assert name + ".dtw" in str(e)
                errors += 1
            else:
                assert got == want, fen
                right += 1
    assert errors > 0 and right > 0


def test_an_illegal_move_raises_illegal_move_error():
    with pytest.raises(dtb.IllegalMoveError) as info:
        dtb.play("W:WKa1,Kc3:BKh8", "c3-c4", variant="russian")
    assert isinstance(info.value, ValueError) and "c3-c4" in str(info.value)
    with pytest.raises(dtb.BadFenError):
        dtb.play("W:WKa1,Kz3:BKh8", "c3-d4", variant="russian")


def test_a_closed_tablebase_refuses_probes(tables):
    tb = dtb.open_tablebase(tables, variant="russian")
    tb.close()
    tb.close()  # twice is allowed
    assert tb.closed and "closed" in repr(tb)
    with pytest.raises(ValueError, match="closed"):
        tb.probe_wdl("W:WKa1,Kc3:BKh8")


def test_negative_counts_are_value_errors(tb):
    with pytest.raises(ValueError):
        tb.adjudicate("W:WKf8,Ke7,Kh6:BKb8", -1)
    with pytest.raises(ValueError):
        dtb.perft("russian", -1)
