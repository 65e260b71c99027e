"""dtb: draughts endgame tablebases, for every variant of dtb.VARIANTS (Russian, international, ...).

    import dtb
    with dtb.open_tablebase("tablebases") as tb:
        print(tb.probe_dtw("W:WKa1,Kc3:BKh8"))

Every probe goes through the C API of dtb/probe.h (the library engines
link) with the GIL released, so Python threads may probe one Tablebase at
once. Values are for the side to move (moves(): for the side making the
move); dtw counts plies to the end of the game, None for a draw.

The variant of a FEN (one of dtb.VARIANTS, such as "russian" or
"international"): the `variant=` keyword of the call, else the handle's: the
one given to open_tablebase, or, when its directories hold the tables of
one variant only, that one. Without either, a probe raises ValueError
asking for variant=; the module never guesses a variant from how the
squares are written (8x8 variants share their square numbers).

Errors are exceptions carrying the library's message, all subclasses of
dtb.Error (with a `status` attribute, the C API's name of the reason):
BadFenError (also a ValueError), MissingTableError (a LookupError; its
subclass TooManyPiecesError), CorruptTableError and TableIOError (OSErrors),
IllegalMoveError (a ValueError, from play()).
"""

from __future__ import annotations

import enum
import os
from dataclasses import dataclass
from typing import Iterable, List, Optional, Union

from . import _dtb
from ._dtb import (BadFenError, CorruptTableError, Error, IllegalMoveError, MissingTableError, TableIOError,
                   TooManyPiecesError)

#: The variants' names, as the command line and the server spell them.
VARIANTS = tuple(_dtb.VARIANTS)

__all__ = [
    "VARIANTS", "WDL", "Value", "RuleValue", "MoveValue", "DrawRule", "Adjudication", "Tablebase", "open_tablebase", "perft", "play",
    "start_fen", "Error", "BadFenError", "MissingTableError", "TooManyPiecesError", "CorruptTableError",
    "TableIOError", "IllegalMoveError"
]

#: The block cache of a Tablebase unless open_tablebase is told otherwise (as dtb_open's default).
DEFAULT_CACHE_BYTES = 64 << 20

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


class WDL(enum.IntEnum):
    """A game value for one side; the numbers are the C API's (DTB_LOSS, DTB_DRAW, DTB_WIN)."""
    LOSS = -1
    DRAW = 0
    WIN = 1

    def __str__(self) -> str:
        return self.name.lower()  # "win", "draw", "loss", as dtb probe --json writes it

    def __repr__(self) -> str:
        return f"WDL.{self.name}"


@dataclass(frozen=True)
class Value:
    """The value of a position for the side to move: wdl, and dtw in plies (None for a draw)."""
    wdl: WDL
    dtw: Optional[int]


@dataclass(frozen=True)
class RuleValue:
    """The value under the move-count rules with every count fresh (docs/VALUES.md): wdl for the side to
    move, and dtc, the plies to the next capture or crowning (or man move) with best play, None for a draw."""
    wdl: WDL
    dtc: Optional[int]


@dataclass(frozen=True)
class MoveValue:
    """A legal move and the value it leads to for the side making it."""
    move: str
    wdl: WDL
    dtw: Optional[int]


@dataclass(frozen=True)
class DrawRule:
    """One move-count rule of the variant at the position (rules_considered of dtb adjudicate --json).
    moves_played, moves_left and ends_first are None when it does not apply; why_not is None when it does."""
    rule: str
    title: str
    limit_moves: int
    applies: bool
    moves_played: Optional[int]
    moves_left: Optional[int]
    ends_first: Optional[bool]
    why_not: Optional[str]


@dataclass(frozen=True)
class Adjudication:
    """The move-count draw rules at a position, with the fields of dtb adjudicate --json.

    rule: the rule that ends the game first (None if none applies); moves_left: the stronger side's moves
    under it; winnable: whether that side can still win within them; exact: whether the tables settle it
    (else winnable is DTW's guess and verdict says why); wdl and dtw: the value with no count, wdl for the
    stronger side and dtw for the side to move; dtc, when the .dtc tables answered (basis "dtc", every
    answer exact), the position's distance to conversion with every count fresh."""
    variant: str
    fen: str
    moves_played: int
    king_moves_played: int
    conversion_moves_played: int
    rule: Optional[str]
    rule_title: Optional[str]
    limit_moves: Optional[int]
    moves_left: Optional[int]
    winnable: bool
    exact: bool
    moves_needed: Optional[int]
    verdict: str
    basis: str
    stronger_side: Optional[str]
    wdl: Optional[WDL]
    dtw: Optional[int]
    dtc: Optional[int]
    also_ending_then: List[str]
    rules_considered: List[DrawRule]


def _value(pair) -> Value:
    wdl, dtw = pair
    return Value(WDL(wdl), dtw)


def _variant_name(variant: Optional[str], required: bool = False) -> Optional[str]:
    if (variant is not None or required) and variant not in VARIANTS:
        choices = ", ".join(repr(v) for v in VARIANTS[:-1]) + f" or {VARIANTS[-1]!r}"
        raise ValueError(f"unknown variant {variant!r}: use {choices}")
    return variant


class Tablebase:
    """Tables in one or more directories (open_tablebase makes one). Usable as a context manager."""

    def __init__(self, dirs: List[str], variant: Optional[str] = None, cache_bytes: int = DEFAULT_CACHE_BYTES):
        self._dirs = list(dirs)
        self._variant = _variant_name(variant)
        self._handle = _dtb.Tablebase(self._dirs, cache_bytes)
        # The variants whose tables the directories hold: the handle's
        # variant when it is the only one.
        self._held = [v for v in VARIANTS if self._handle.max_pieces(v) > 0]
        if self._variant is None and len(self._held) == 1:
            self._variant = self._held[0]

    @property
    def variant(self) -> Optional[str]:
        """The variant of FENs probed without variant=: open_tablebase's, else the only one the tables have."""
        return self._variant

    @property
    def dirs(self) -> List[str]:
        return list(self._dirs)

    @property
    def closed(self) -> bool:
        return self._handle.closed

    def close(self) -> None:
        """Frees the tables (after any probe still running); later probes raise ValueError."""
        self._handle.close()

    def __enter__(self) -> "Tablebase":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        state = " closed" if self.closed else ""
        return f"<dtb.Tablebase {self._dirs!r}{state}>"

    def _v(self, variant: Optional[str], fen: str) -> str:
        if variant is not None:
            return _variant_name(variant)
        if self._variant is not None:
            return self._variant
        held = " and ".join(self._held) if self._held else "no variant"
        raise ValueError(f"which variant is FEN {fen!r}? The tables hold {held}: pass variant= "
                         f"(one of {', '.join(VARIANTS)}), or give open_tablebase a variant")

    @staticmethod
    def _counts(moves_played: int, king_moves: Optional[int], conversion_moves: Optional[int]):
        """The king-move and conversion counts, each the moves played where not given."""
        if moves_played < 0 or any(c is not None and c < 0 for c in (king_moves, conversion_moves)):
            raise ValueError("moves_played, king_moves and conversion_moves count moves: 0 or more")
        return (moves_played if king_moves is None else king_moves,
                moves_played if conversion_moves is None else conversion_moves)

    def max_pieces(self, variant: str) -> int:
        """The most pieces of any table of the variant in the directories (0 if none)."""
        return self._handle.max_pieces(_variant_name(variant, required=True))

    def probe_wdl(self, fen: str, *, variant: Optional[str] = None) -> WDL:
        """The value for the side to move, from the WDL tables alone."""
        return WDL(self._handle.probe_wdl(self._v(variant, fen), fen))

    def probe_dtw(self, fen: str, *, variant: Optional[str] = None) -> Value:
        """The value and the plies to the end of the game (None for a draw)."""
        return _value(self._handle.probe_dtw(self._v(variant, fen), fen))

    def best_move(self, fen: str, *, variant: Optional[str] = None) -> Optional[str]:
        """A move that realises the value (fastest win, longest loss, a drawing move); None when the side to
        move has no legal move (it has lost)."""
        return self._handle.best_move(self._v(variant, fen), fen)

    def line(self, fen: str, *, variant: Optional[str] = None) -> List[str]:
        """Best moves for both sides to the end of the game (dtw moves); empty for a draw or a lost position."""
        return self._handle.line(self._v(variant, fen), fen)

    def moves(self, fen: str, *, variant: Optional[str] = None) -> List[MoveValue]:
        """Every legal move with the value it leads to for the side making it, best first: winning fastest,
        then drawing, then losing slowest."""
        return [MoveValue(move, WDL(wdl), dtw) for move, (wdl, dtw) in self._handle.moves(self._v(variant, fen), fen)]

    def adjudicate(self, fen: str, moves_played: int, king_moves: Optional[int] = None, *,
                   conversion_moves: Optional[int] = None, variant: Optional[str] = None) -> Adjudication:
        """The move-count draw rules at the position, as dtb adjudicate --fen: moves_played is the stronger
        side's moves since the count started; king_moves its moves in a row with only kings moved and nothing
        captured (2.1.9.1.8, 3.5's 25 moves), if not the same; conversion_moves the moves since the last
        capture or crowning (2.1.9.1.5), if not the same."""
        kings, conversions = self._counts(moves_played, king_moves, conversion_moves)
        d = self._handle.adjudicate(self._v(variant, fen), fen, moves_played, kings, conversions)
        d["wdl"] = None if d["wdl"] is None else WDL(d["wdl"])
        d["rules_considered"] = [DrawRule(**r) for r in d["rules_considered"]]
        return Adjudication(moves_played=moves_played, king_moves_played=kings,
                            conversion_moves_played=conversions, **d)

    def rule_line(self, fen: str, moves_played: int = 0, king_moves: Optional[int] = None, *,
                  conversion_moves: Optional[int] = None, variant: Optional[str] = None) -> List[str]:
        """Best play under the move-count rules from the position with these counts (as adjudicate) to the
        next capture, crowning or end of the game, from the .dtc tables: the side that wins under the counts
        keeps its win, the other delays it; the first move is the best move under the counts. Empty for a
        position drawn under the counts. MissingTableError naming a .dtc file when one is not there."""
        kings, conversions = self._counts(moves_played, king_moves, conversion_moves)
        return self._handle.rule_line(self._v(variant, fen), fen, moves_played, kings, conversions)

    def probe_dtc(self, fen: str, *, variant: Optional[str] = None) -> RuleValue:
        """The values under the move-count rules with every count fresh, from the .dtc tables (dtb gen
        --dtc): the rule-aware value for the side to move (a win the counts turn into a draw is DRAW) and
        the distance to conversion in plies (None when drawn under the counts). MissingTableError naming the
        .dtc file when it is not there."""
        wdl, dtc = self._handle.probe_dtc(self._v(variant, fen), fen)
        return RuleValue(WDL(wdl), dtc)


def open_tablebase(dirs: Union[PathLike, Iterable[PathLike]], *, variant: Optional[str] = None,
                   cache_bytes: int = DEFAULT_CACHE_BYTES) -> Tablebase:
    """Opens the tables in a directory or a list of them (a table found in several is taken from the first).

    variant: the variant of FENs probed without variant= (default: the variant of the tables, when the
    directories hold only one). cache_bytes: decompressed blocks kept
    in memory, shared by all threads (0: none). Raises TableIOError for a directory that cannot be listed."""
    if isinstance(dirs, (str, bytes, os.PathLike)):
        dirs = [dirs]
    paths = [os.fsdecode(d) for d in dirs]
    if not paths:
        raise ValueError("open_tablebase: no directory given")
    return Tablebase(paths, variant, cache_bytes)


def perft(variant: str, depth: int, fen: Optional[str] = None, *, duplicates: str = "drop") -> int:
    """The leaves of the legal move tree depth plies deep from fen (default: the initial position), as
    dtb perft counts them. duplicates="keep" counts every capture route, "drop" (the default) once per start,
    end and captured pieces (docs/RULES.md section 5)."""
    if duplicates not in ("drop", "keep"):
        raise ValueError(f"duplicates={duplicates!r}: use 'drop' or 'keep'")
    return _dtb.perft(_variant_name(variant, required=True), depth, fen, duplicates == "keep")


def play(fen: str, move: str, *, variant: str) -> str:
    """The FEN after a legal move ("c3-d4", "e3:g5", "32-28", "47x38") in the variant named."""
    return _dtb.play(_variant_name(variant, required=True), fen, move)


def start_fen(variant: str) -> str:
    """The variant's initial position."""
    return _dtb.start_fen(_variant_name(variant, required=True))
