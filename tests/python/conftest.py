"""Fixtures of the Python module's tests (run by ctest as python_module_test).

The environment names what the build made: DTB_TEST_TABLES (the small tables
of tests/probe: Russian up to 4 pieces, international and Brazilian up to 3), DTB_BINARY
(the dtb program, the independent check), DTB_BUILD_DIR, DTB_SOURCE_DIR and
DTB_PYTHON_INSTALL_DIR."""

import json
import os
import random
import subprocess
from pathlib import Path

import pytest

import dtb


def _env(name: str) -> str:
    value = os.environ.get(name)
    if not value:
        pytest.fail(f"{name} is not set: run these tests through ctest (python_module_test)")
    return value


@pytest.fixture(scope="session")
def tables() -> Path:
    return Path(_env("DTB_TEST_TABLES"))


@pytest.fixture(scope="session")
def dtb_binary() -> str:
    return _env("DTB_BINARY")


@pytest.fixture(scope="session")
def source_dir() -> Path:
    return Path(_env("DTB_SOURCE_DIR"))


@pytest.fixture(scope="session")
def tb(tables):
    """The test tables hold two variants: the handle names the one of FENs probed without variant=."""
    with dtb.open_tablebase(tables, variant="russian") as handle:
        yield handle


class Cli:
    """The dtb program on the same tables, its --json output parsed."""

    def __init__(self, binary: str, tables: Path):
        self.binary = binary
        self.tables = str(tables)

    def run(self, *args: str, stdin: str = None) -> subprocess.CompletedProcess:
        return subprocess.run([self.binary, *args], input=stdin, capture_output=True, text=True, timeout=300)

    def json_lines(self, *args: str, stdin: str = None) -> list:
        done = self.run(*args, stdin=stdin)
        assert done.returncode == 0, done.stderr
        return [json.loads(line) for line in done.stdout.splitlines()]

    def probe(self, variant: str, fens: list) -> list:
        """dtb probe --json of each FEN, in order (standard-input mode: one object a line)."""
        out = self.json_lines("probe", "--variant", variant, "--dir", self.tables, "--json",
                              stdin="".join(f + "\n" for f in fens))
        assert len(out) == len(fens)
        return out

    def legal_moves(self, variant: str, fen: str) -> list:
        return self.json_lines("moves", "--variant", variant, "--fen", fen, "--json")[0]["moves"]

    def adjudicate(self, variant: str, fen: str, moves: int, king_moves: int = None) -> dict:
        args = ["adjudicate", "--variant", variant, "--dir", self.tables, "--fen", fen, "--moves-played", str(moves),
                "--json"]
        if king_moves is not None:
            args += ["--king-moves", str(king_moves)]
        return self.json_lines(*args)[0]

    def perft(self, variant: str, depth: int, fen: str = None) -> int:
        args = ["perft", "--variant", variant, "--depth", str(depth), "--json"]
        if fen:
            args += ["--fen", fen]
        return self.json_lines(*args)[0]["nodes"]


@pytest.fixture(scope="session")
def cli(dtb_binary, tables) -> Cli:
    return Cli(dtb_binary, tables)


# Hand-picked positions the small tables cover (kings, men, captures,
# crownings, positions already lost), from which random games are played.
SEEDS = {
    "russian": [
        "W:WKa1,Kc3:BKh8", "B:WKa1,Kc1:BKh8", "W:WKa3:BKh6", "W:Wh2:Bg3,f4", "W:Wa1,c1:Bb2",
        "W:WKf8,Ke7,Kh6:BKb8", "W:Wc3,e3:Bd6,f6", "B:Wc3,Ke1:Bd6,Kh8", "W:Wg7:Bb4", "B:Wb6:Bc7,Ka1",
        "W:Wc3:Bf6", "B:WKd4:Bb6,d6,f6",
    ],
    "international": [
        "W:WK7,K33:BK50", "W:W28:B22", "B:W33,K50:B8", "W:W45:BK5", "W:W31,32:B18", "B:WK46:B15,16",
        "W:W6:B45", "B:W40:BK4,K49",
    ],
    "brazilian": [
        "W:WKa1,Kc3:BKh8", "B:WKa1:BKh8,Kb6", "W:Wh2:Bg3,f4", "W:Wa1,c1:Bb2", "W:Wc3:Bd4,f6", "W:Wb6:Bc7",
        "B:Wb6:Bc7,Ka1", "W:Wg7:Bb4", "B:WKd4:Bb6,f6",
    ],
}


def sample_positions(tb, variant: str, games: int = 6, plies: int = 8, seed: int = 12) -> list:
    """The seed positions and those of short random games from them, as the module normalises them
    (the FEN after each move comes from dtb.play)."""
    rnd = random.Random(seed)
    fens = []
    for start in SEEDS[variant]:
        fens.append(start)
        for _ in range(games):
            fen = start
            for _ in range(plies):
                moves = tb.moves(fen, variant=variant)
                if not moves:
                    break
                fen = dtb.play(fen, rnd.choice(moves).move, variant=variant)
                fens.append(fen)
    return list(dict.fromkeys(fens))  # each once, in order
