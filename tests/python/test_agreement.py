"""Every function of the module against the dtb program on the same tables."""

import dataclasses
import subprocess

import pytest

import dtb
from conftest import SEEDS, Cli, sample_positions

VARIANTS = list(SEEDS)


@pytest.fixture(scope="module")
def samples(tb):
    return {v: sample_positions(tb, v) for v in VARIANTS}


def test_the_sample_is_varied(samples, tb):
    for variant, fens in samples.items():
        assert len(fens) > 50, variant
        values = {tb.probe_wdl(f, variant=variant) for f in fens}
        assert values == {dtb.WDL.WIN, dtb.WDL.DRAW, dtb.WDL.LOSS}, variant
        assert any(not tb.moves(f, variant=variant) for f in fens), f"{variant}: no finished game in the sample"


@pytest.mark.parametrize("variant", VARIANTS)
def test_probes_agree_with_dtb_probe(variant, samples, tb, cli):
    fens = samples[variant]
    for fen, want in zip(fens, cli.probe(variant, fens)):
        value = tb.probe_dtw(fen, variant=variant)
        assert (str(value.wdl), value.dtw) == (want["wdl"], want["dtw"]), fen
        assert str(tb.probe_wdl(fen, variant=variant)) == want["wdl"], fen
        assert tb.best_move(fen, variant=variant) == want["best_move"], fen
        assert tb.line(fen, variant=variant) == want["pv"], fen


def _leads_to(child: dict) -> tuple:
    """The value a move has for its maker, from the value of the position it leads to."""
    flip = {"win": "loss", "loss": "win", "draw": "draw"}
    return flip[child["wdl"]], None if child["dtw"] is None else child["dtw"] + 1


def _rank(m: dtb.MoveValue) -> tuple:
    return {dtb.WDL.WIN: (0, m.dtw), dtb.WDL.DRAW: (1, 0), dtb.WDL.LOSS: (2, -(m.dtw or 0))}[m.wdl]


@pytest.mark.parametrize("variant", VARIANTS)
def test_moves_agree_with_dtb_moves_and_the_positions_they_lead_to(variant, samples, tb, cli):
    for fen in samples[variant][::4]:
        moves = tb.moves(fen, variant=variant)
        assert sorted(m.move for m in moves) == sorted(cli.legal_moves(variant, fen)), fen
        assert [_rank(m) for m in moves] == sorted(_rank(m) for m in moves), f"{fen}: not best first"
        if not moves:
            continue
        children = cli.probe(variant, [dtb.play(fen, m.move, variant=variant) for m in moves])
        for m, child in zip(moves, children):
            assert (str(m.wdl), m.dtw) == _leads_to(child), f"{fen} {m.move}"
        # The first move is as good as the best move dtb probe names.
        best = next(m for m in moves if m.move == tb.best_move(fen, variant=variant))
        assert _rank(best) == _rank(moves[0]), fen


def _as_cli_json(a: dtb.Adjudication) -> dict:
    """An Adjudication in the shape of dtb adjudicate --json (fields a rule does not have are left out)."""
    d = dataclasses.asdict(a)
    d["wdl"] = None if a.wdl is None else str(a.wdl)
    d["rules_considered"] = []
    for r in a.rules_considered:
        fields = dataclasses.asdict(r)
        drop = ("why_not",) if r.applies else ("moves_played", "moves_left", "ends_first")
        d["rules_considered"].append({k: v for k, v in fields.items() if k not in drop})
    return d


ADJUDICATIONS = [
    ("russian", "W:WKf8,Ke7,Kh6:BKb8", 3, None),
    ("russian", "W:WKf8,Ke7,Kh6:BKb8", 0, None),
    ("russian", "B:WKf8,Ke7,Kh6:BKb8", 1, 10),
    ("russian", "W:WKa1,Kc3:BKh8", 2, None),
    ("russian", "W:WKa1,Kc3,Ke1:BKh8", 14, None),
    ("russian", "W:Wc3:Bf6", 2, None),
    ("russian", "W:WKa3:BKh6", 40, None),
    ("international", "W:WK7,K33:BK50", 2, None),
    ("international", "W:WK7,K33:BK50", 2, 20),
    ("international", "W:W28:B22", 0, None),
    ("international", "B:WK46:BK5,15", 4, None),
]


@pytest.mark.parametrize("variant,fen,moves,king_moves", ADJUDICATIONS)
def test_adjudicate_agrees_with_dtb_adjudicate(variant, fen, moves, king_moves, tb, cli):
    got = tb.adjudicate(fen, moves, king_moves, variant=variant)
    assert _as_cli_json(got) == cli.adjudicate(variant, fen, moves, king_moves)


def test_adjudications_cover_the_cases(tb):
    got = [tb.adjudicate(fen, m, k, variant=v) for v, fen, m, k in ADJUDICATIONS]
    assert any(a.rule is None for a in got)
    assert any(a.rule is not None and a.winnable for a in got)
    assert any(a.rule is not None and not a.winnable for a in got)
    assert any(a.also_ending_then for a in got)


# The published series (tests/rules/perft_series.hpp, docs/RULES.md section 5).
PERFT = {
    "russian": [7, 49, 302, 1469, 7482, 37986],
    "international": [9, 81, 658, 4265, 27117],
    "brazilian": [7, 49, 302, 1469, 7473, 37628],
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_perft_of_the_initial_position_is_the_published_series(variant):
    # Both conventions agree up to depth 7 (docs/RULES.md section 5).
    assert [dtb.perft(variant, d, duplicates="keep") for d in range(1, len(PERFT[variant]) + 1)] == PERFT[variant]
    assert [dtb.perft(variant, d) for d in range(1, len(PERFT[variant]) + 1)] == PERFT[variant]
    assert dtb.perft(variant, 0) == 1
    assert dtb.perft(variant, 3, dtb.start_fen(variant)) == PERFT[variant][2]


def test_perft_conventions_differ_where_the_published_series_do():
    assert dtb.perft("russian", 8) == 929899
    assert dtb.perft("russian", 8, duplicates="keep") == 929905


@pytest.mark.parametrize("variant,fen,depth", [
    ("russian", "W:Wc3,e3,g3:Bb6,d6,f6,h6", 7),
    ("russian", "B:WKa1,c3:Bd4,Kh8", 4),
    ("international", "W:W31-35,K46:B16-20,K5", 4),
])
def test_perft_agrees_with_dtb_perft(variant, fen, depth, cli):
    assert dtb.perft(variant, depth, fen) == cli.perft(variant, depth, fen)
    keep = cli.json_lines("perft", "--variant", variant, "--depth", str(depth), "--fen", fen, "--duplicates", "keep",
                          "--json")[0]["nodes"]
    assert dtb.perft(variant, depth, fen, duplicates="keep") == keep


def test_play_agrees_with_dtb_probe_line(tb, cli):
    fen = "W:WKf8,Ke7,Kh6:BKb8"
    want = cli.probe("russian", [fen])[0]
    for move in want["pv"]:
        fen = dtb.play(fen, move, variant="russian")
    assert tb.moves(fen) == [] and tb.probe_dtw(fen) == dtb.Value(dtb.WDL.LOSS, 0)


def test_values_under_the_counts_agree_with_dtb(dtb_binary, tmp_path):
    """With .dtc tables (dtb gen --dtc): probe_dtc and adjudicate with a conversion count apart give what
    dtb probe and dtb adjudicate --conversion-moves give."""
    done = subprocess.run([dtb_binary, "gen", "--variant", "russian", "--only", "KKKvK", "--dtc", "--dir",
                           str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    cli = Cli(dtb_binary, tmp_path)
    fen = "W:WKf8,Ke7,Kh6:BKb8"
    with dtb.open_tablebase(tmp_path) as tb:
        shown = cli.probe("russian", [fen])[0]
        assert tb.probe_dtc(fen) == dtb.RuleValue(dtb.WDL.WIN, shown["dtc"]) and shown["dtc"] == 22
        for moves, conversions in ((0, 0), (0, 29), (3, 3), (2, 10)):
            got = tb.adjudicate(fen, moves, conversion_moves=conversions)
            want = cli.json_lines("adjudicate", "--variant", "russian", "--dir", str(tmp_path), "--fen", fen,
                                  "--moves-played", str(moves), "--conversion-moves", str(conversions), "--json")[0]
            line = want.pop("line_to_conversion")  # the line dtb_rule_line gives, in the command line's words
            assert (len(line) > 0) == got.winnable
            assert tb.rule_line(fen, moves, conversion_moves=conversions) == line
            # Every move under the same counts: the line's first move comes first, and with every count
            # fresh its plies to the conversion are the line's length.
            ruled = tb.rule_moves(fen, moves, conversion_moves=conversions)
            assert sorted(m.move for m in ruled) == sorted(m.move for m in tb.moves(fen))
            assert all((m.dtc is None) == (m.wdl == dtb.WDL.DRAW) for m in ruled)
            if line:
                assert ruled[0].move == line[0] and ruled[0].wdl == dtb.WDL.WIN
                if moves == 0 and conversions == 0:
                    assert ruled[0].dtc == len(line) == shown["dtc"]
            else:
                assert all(m.wdl != dtb.WDL.WIN for m in ruled)
            assert _as_cli_json(got) == want
            assert got.exact and got.basis == "dtc"
        with pytest.raises(dtb.MissingTableError):
            tb.probe_dtc("W:WKa1,Kc3,e3:BKh8")  # KKMvK: no .dtc table built
        with pytest.raises(dtb.MissingTableError):
            tb.rule_line("W:WKa1,Kc3,e3:BKh8")
        with pytest.raises(ValueError):
            tb.rule_line(fen, -1)
        with pytest.raises(dtb.MissingTableError):
            tb.rule_moves("W:WKa1,Kc3,e3:BKh8")
        with pytest.raises(ValueError):
            tb.rule_moves(fen, -1)
