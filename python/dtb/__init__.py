"""dtb: draughts endgame tablebases, for every variant of dtb.VARIANTS (Russian, international, ...).

    import dtb
    with dtb.open_tablebase("tablebases") as tb:
        wdl, dtw = tb.probe_dtw("W:WKa1,Kc3:BKh8")

open_tablebase() without a directory reads those of the environment
variable DTB_PATH (separated by ':'), else tablebases in the current
directory, as the dtb commands do.

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
IllegalMoveError (a ValueError, from play()). An argument of the wrong type
(a FEN that is no str, a count that is no int: a bool is none) is a
TypeError, a count out of range a ValueError, each naming the argument.
"""

from __future__ import annotations

import enum as _enum
import operator as _operator
import os as _os
from collections.abc import Iterable as _Iterable
from dataclasses import dataclass as _dataclass
from dataclasses import fields as _fields

from . import _dtb
from ._dtb import (BadFenError, CorruptTableError, Error, IllegalMoveError, MissingTableError, TableIOError,
                   TooManyPiecesError)

# The module's names are the API alone (dir(dtb) == __all__ and dunders):
# what it uses it imports under private names, and the __future__ import's
# own name goes (its effect, annotations read lazily, stays).
del annotations

#: The project's version (CMakeLists.txt's project(VERSION), compiled into the module).
__version__ = _dtb.__version__

#: The variants' names, as the command line and the server spell them.
VARIANTS = tuple(_dtb.VARIANTS)

__all__ = [
    "VARIANTS", "DEFAULT_CACHE_BYTES", "WDL", "Value", "RuleValue", "MoveValue", "RuleMove", "DrawRule", "Adjudication",
    "Tablebase", "open_tablebase", "perft", "play", "start_fen", "Error", "BadFenError", "MissingTableError",
    "TooManyPiecesError", "CorruptTableError", "TableIOError", "IllegalMoveError"
]

#: The block cache of a Tablebase unless open_tablebase is told otherwise (as dtb_open's default).
DEFAULT_CACHE_BYTES = 64 << 20

# The C API counts moves and plies in an int, and bytes in a size_t.
_C_INT_MAX = 2**31 - 1
_SIZE_MAX = 2**64 - 1

# Arguments. Lenient about what a path may be (str, bytes, os.PathLike),
# strict about what would otherwise be a wrong answer or the compiled
# module's own message: a FEN is a str, a count an int and never a bool.
# Each mistake is a TypeError or ValueError naming the argument.


def _type_name(value) -> str:
    return type(value).__name__


def _text(name: str, value, example: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str such as {example!r}, not {_type_name(value)}")
    return value


def _fen(fen) -> str:
    return _text("fen", fen, "W:WKa1,Kc3:BKh8")


def _whole(name: str, value, what: str, most: int) -> int:
    """A count: an int, or an object that is one (__index__), but no bool (True would count 1)."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an int ({what}), not bool")
    try:
        n = _operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int ({what}), not {_type_name(value)}") from None
    if not 0 <= n <= most:
        raise ValueError(f"{name} must be from 0 to {most} ({what}), not {n}")
    return n


def _moves(name: str, value) -> int:
    return _whole(name, value, "a number of moves", _C_INT_MAX)


def _variant_name(variant, required: bool = False) -> str | None:
    if variant is None and not required:
        return None
    if variant is not None and not isinstance(variant, str):
        raise TypeError(f"variant must be a str such as 'russian', not {_type_name(variant)}")
    if variant not in VARIANTS:
        choices = ", ".join(repr(v) for v in VARIANTS[:-1]) + f" or {VARIANTS[-1]!r}"
        raise ValueError(f"unknown variant {variant!r}: use {choices}")
    return variant


_PATH_TYPES = (str, bytes, _os.PathLike)


def _directories(dirs) -> list[str]:
    """A directory path or an iterable of them, as str."""
    if isinstance(dirs, _PATH_TYPES):
        dirs = [dirs]
    elif not isinstance(dirs, _Iterable):
        raise TypeError(f"dirs must be a directory path (str or os.PathLike) or a list of them, "
                        f"not {_type_name(dirs)}")
    paths = []
    for d in dirs:
        if not isinstance(d, _PATH_TYPES):
            raise TypeError(f"dirs: {d!r} is no directory path (str or os.PathLike) but {_type_name(d)}")
        paths.append(_os.fsdecode(d))
    if not paths:
        raise ValueError("dirs is empty: give a directory path or a list of them")
    return paths


def _dtb_path() -> list[str]:
    """The directories of the environment variable DTB_PATH, separated by ':' (none when unset or empty):
    where the tables are when no directory is named, as the dtb commands look, else in tablebases."""
    return [d for d in _os.environ.get("DTB_PATH", "").split(":") if d]


class WDL(_enum.IntEnum):
    """A game value for one side; the numbers are the C API's (DTB_LOSS, DTB_DRAW, DTB_WIN)."""
    LOSS = -1
    DRAW = 0
    WIN = 1

    def __str__(self) -> str:
        return self.name.lower()  # "win", "draw", "loss", as dtb probe --json writes it

    def __repr__(self) -> str:
        return f"WDL.{self.name}"


class _Fields:
    """Reads like a namedtuple (wdl, dtw = value; value[0]; len(value)) while it stays a value of its own
    class: it equals no tuple and no value of another class."""
    __slots__ = ()

    def __iter__(self):
        return (getattr(self, f.name) for f in _fields(self))

    def __len__(self) -> int:
        return len(_fields(self))

    def __getitem__(self, index):
        return tuple(self)[index]


@_dataclass(frozen=True)
class Value(_Fields):
    """The value of a position for the side to move: wdl, and dtw in plies (None for a draw)."""
    wdl: WDL
    dtw: int | None


@_dataclass(frozen=True)
class RuleValue(_Fields):
    """The value under the move-count rules with every count fresh (docs/VALUES.md): wdl for the side to
    move, and dtc, the plies to the next capture or crowning (or man move) with best play, None for a draw."""
    wdl: WDL
    dtc: int | None


@_dataclass(frozen=True)
class MoveValue(_Fields):
    """A legal move and the value it leads to for the side making it."""
    move: str
    wdl: WDL
    dtw: int | None


@_dataclass(frozen=True)
class RuleMove(_Fields):
    """A legal move under the move-count rules: the value it leads to for the side making it (wdl), and
    dtc, the plies to the next conversion along best play under the counts, this move the first (1 if it
    converts); None for a move that draws under them."""
    move: str
    wdl: WDL
    dtc: int | None


@_dataclass(frozen=True)
class DrawRule:
    """One move-count rule of the variant at the position (rules_considered of dtb adjudicate --json).
    moves_played, moves_left and ends_first are None when it does not apply; why_not is None when it does."""
    rule: str
    title: str
    limit_moves: int
    applies: bool
    moves_played: int | None
    moves_left: int | None
    ends_first: bool | None
    why_not: str | None


@_dataclass(frozen=True)
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
    rule: str | None
    rule_title: str | None
    limit_moves: int | None
    moves_left: int | None
    winnable: bool
    exact: bool
    moves_needed: int | None
    verdict: str
    basis: str
    stronger_side: str | None
    wdl: WDL | None
    dtw: int | None
    dtc: int | None
    also_ending_then: list[str]
    rules_considered: list[DrawRule]


def _value(pair) -> Value:
    wdl, dtw = pair
    return Value(WDL(wdl), dtw)


class Tablebase:
    """Tables in one or more directories (open_tablebase makes one). Usable as a context manager."""

    def __init__(self, dirs, variant: str | None = None, cache_bytes: int = DEFAULT_CACHE_BYTES):
        self._dirs = _directories(dirs)
        self._variant = _variant_name(variant)
        self._handle = _dtb.Tablebase(self._dirs, _whole("cache_bytes", cache_bytes, "a number of bytes", _SIZE_MAX))
        # The variants whose tables the directories hold: the handle's
        # variant when it is the only one.
        self._held = [v for v in VARIANTS if self._handle.max_pieces(v) > 0]
        if self._variant is None and len(self._held) == 1:
            self._variant = self._held[0]

    @property
    def variant(self) -> str | None:
        """The variant of FENs probed without variant=: open_tablebase's, else the only one the tables have."""
        return self._variant

    @property
    def dirs(self) -> list[str]:
        """The directories, in the order tables are looked for in them, as str."""
        return list(self._dirs)

    @property
    def closed(self) -> bool:
        """Whether close() has been called (then every probe raises ValueError)."""
        return self._handle.closed

    def close(self) -> None:
        """Frees the tables (after any probe still running); later probes raise ValueError."""
        self._handle.close()

    def __enter__(self) -> Tablebase:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        state = " closed" if self.closed else ""
        return f"<dtb.Tablebase {self._dirs!r}{state}>"

    def _position(self, fen, variant) -> tuple[str, str]:
        """The variant and FEN of a probe: the call's variant, else the handle's."""
        fen = _fen(fen)
        if variant is not None:
            return _variant_name(variant), fen
        if self._variant is not None:
            return self._variant, fen
        held = " and ".join(self._held)
        raise ValueError(f"which variant is FEN {fen!r}? The tables hold {held}: pass variant= "
                         f"(one of {', '.join(VARIANTS)}), or give open_tablebase a variant")

    @staticmethod
    def _counts(moves_played, king_moves, conversion_moves) -> tuple[int, int, int]:
        """The three counts, the king-move and conversion counts the moves played where not given."""
        moves = _moves("moves_played", moves_played)
        return (moves, moves if king_moves is None else _moves("king_moves", king_moves),
                moves if conversion_moves is None else _moves("conversion_moves", conversion_moves))

    def max_pieces(self, variant: str) -> int:
        """The most pieces of any table of the variant in the directories (0 if none)."""
        return self._handle.max_pieces(_variant_name(variant, required=True))

    def probe_wdl(self, fen: str, *, variant: str | None = None) -> WDL:
        """The value for the side to move, from the WDL tables alone."""
        return WDL(self._handle.probe_wdl(*self._position(fen, variant)))

    def probe_dtw(self, fen: str, *, variant: str | None = None) -> Value:
        """The value and the plies to the end of the game (None for a draw)."""
        return _value(self._handle.probe_dtw(*self._position(fen, variant)))

    def best_move(self, fen: str, *, variant: str | None = None) -> str | None:
        """A move that realises the value (fastest win, longest loss, a drawing move); None when the side to
        move has no legal move (it has lost)."""
        return self._handle.best_move(*self._position(fen, variant))

    def line(self, fen: str, *, variant: str | None = None) -> list[str]:
        """Best moves for both sides to the end of the game, dtw plies (the pv of dtb probe --json): for a
        won position the fastest win, for a lost position the longest resistance. Empty for a draw, and
        where the side to move has no move (the game is over)."""
        return self._handle.line(*self._position(fen, variant))

    def moves(self, fen: str, *, variant: str | None = None) -> list[MoveValue]:
        """Every legal move with the value it leads to for the side making it, best first: winning fastest,
        then drawing, then losing slowest."""
        moves = self._handle.moves(*self._position(fen, variant))
        return [MoveValue(move, WDL(wdl), dtw) for move, (wdl, dtw) in moves]

    def adjudicate(self, fen: str, moves_played: int, king_moves: int | None = None, *,
                   conversion_moves: int | None = None, variant: str | None = None) -> Adjudication:
        """The move-count draw rules at the position, as dtb adjudicate --fen: moves_played is the stronger
        side's moves since the count started; king_moves its moves in a row with only kings moved and nothing
        captured (2.1.9.1.8, 3.5's 25 moves), if not the same; conversion_moves the moves since the last
        capture or crowning (2.1.9.1.5), if not the same."""
        variant, fen = self._position(fen, variant)
        moves, kings, conversions = self._counts(moves_played, king_moves, conversion_moves)
        d = self._handle.adjudicate(variant, fen, moves, kings, conversions)
        d["wdl"] = None if d["wdl"] is None else WDL(d["wdl"])
        d["rules_considered"] = [DrawRule(**r) for r in d["rules_considered"]]
        return Adjudication(moves_played=moves, king_moves_played=kings, conversion_moves_played=conversions, **d)

    def rule_line(self, fen: str, moves_played: int = 0, king_moves: int | None = None, *,
                  conversion_moves: int | None = None, variant: str | None = None) -> list[str]:
        """Best play under the move-count rules from the position with these counts (as adjudicate) to the
        next capture, crowning or end of the game, from the .dtc tables: the side that wins under the counts
        keeps its win, the other delays it; the first move is the best move under the counts. Empty for a
        position drawn under the counts. MissingTableError naming a .dtc file when one is not there."""
        variant, fen = self._position(fen, variant)
        return self._handle.rule_line(variant, fen, *self._counts(moves_played, king_moves, conversion_moves))

    def rule_moves(self, fen: str, moves_played: int = 0, king_moves: int | None = None, *,
                   conversion_moves: int | None = None, variant: str | None = None) -> list[RuleMove]:
        """Every legal move under the move-count rules with these counts (as adjudicate), from the .dtc
        tables: the value it leads to for the side making it and its plies to the next conversion, best
        first (winning nearest the conversion, then drawing, then losing furthest from it); rule_line's
        first move is the first. MissingTableError naming a .dtc file when one is not there."""
        variant, fen = self._position(fen, variant)
        moves = self._handle.rule_moves(variant, fen, *self._counts(moves_played, king_moves, conversion_moves))
        return [RuleMove(move, WDL(wdl), dtc) for move, wdl, dtc in moves]

    def probe_dtc(self, fen: str, *, variant: str | None = None) -> RuleValue:
        """The values under the move-count rules with every count fresh, from the .dtc tables (dtb gen
        --dtc): the rule-aware value for the side to move (a win the counts turn into a draw is DRAW) and
        the distance to conversion in plies (None when drawn under the counts). MissingTableError naming the
        .dtc file when it is not there."""
        wdl, dtc = self._handle.probe_dtc(*self._position(fen, variant))
        return RuleValue(WDL(wdl), dtc)


def open_tablebase(dirs: str | bytes | _os.PathLike | _Iterable[str | bytes | _os.PathLike] | None = None, *,
                   variant: str | None = None, cache_bytes: int = DEFAULT_CACHE_BYTES) -> Tablebase:
    """Opens the tables in a directory or a list of them (a table found in several is taken from the first).
    Without dirs: the directories of the environment variable DTB_PATH (separated by ':'), else tablebases
    in the current directory, as the dtb commands look.

    variant: the variant of FENs probed without variant= (default: the variant of the tables, when the
    directories hold only one). cache_bytes: decompressed blocks kept in memory, shared by all threads (0:
    none). Raises TableIOError for a directory that cannot be listed, MissingTableError when no directory
    holds a table."""
    if dirs is not None:
        return Tablebase(dirs, variant, cache_bytes)
    listed = _dtb_path()
    try:
        return Tablebase(listed or ["tablebases"], variant, cache_bytes)
    except (MissingTableError, TableIOError) as e:
        # Say why these directories: the call named none.
        where = ("the directories of DTB_PATH" if listed else
                 "tablebases in the current directory when DTB_PATH names none: give dirs, or set DTB_PATH "
                 "to directories separated by ':'")
        e.args = (f"{e} (open_tablebase without dirs reads {where})",)
        raise


def perft(variant: str, depth: int, fen: str | None = None, *, duplicates: str = "drop") -> int:
    """The leaves of the legal move tree depth plies deep from fen (default: the initial position), as
    dtb perft counts them. duplicates="keep" counts every capture route, "drop" (the default) once per start,
    end and captured pieces (docs/RULES.md section 5)."""
    variant = _variant_name(variant, required=True)
    depth = _whole("depth", depth, "a number of plies", _C_INT_MAX)
    fen = None if fen is None else _fen(fen)
    if duplicates not in ("drop", "keep"):
        raise ValueError(f"duplicates={duplicates!r}: use 'drop' or 'keep'")
    return _dtb.perft(variant, depth, fen, duplicates == "keep")


def play(fen: str, move: str, *, variant: str) -> str:
    """The FEN after a legal move ("c3-d4", "e3:g5", "32-28", "47x38") in the variant named."""
    return _dtb.play(_variant_name(variant, required=True), _fen(fen), _text("move", move, "c3-d4"))


def start_fen(variant: str) -> str:
    """The variant's initial position."""
    return _dtb.start_fen(_variant_name(variant, required=True))
