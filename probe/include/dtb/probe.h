/*
 * dtb probe: read draughts endgame tablebases (Russian checkers,
 * international draughts and the other variants of dtb_variant_name) from
 * a C or C++ program.
 *
 * Everything goes through a handle that dtb_open returns; there is no other
 * state. Every function returns a status code (DTB_OK or a reason), never
 * throws, never exits, and may be called from any number of threads at once
 * on the same handle (dtb_close excepted). A damaged or missing table file
 * gives an error naming the file, never a wrong value.
 *
 *   dtb_tablebase* tb;
 *   char err[256];
 *   const char* dirs[] = {"tables"};
 *   if (dtb_open(dirs, 1, NULL, &tb, err, sizeof err) != DTB_OK) { puts(err); return; }
 *   dtb_position pos;
 *   dtb_position_from_fen(DTB_RUSSIAN, "W:WKa1,Kc3:Kh8", &pos, err, sizeof err);
 *   dtb_value v;
 *   if (dtb_probe_dtw(tb, &pos, &v) == DTB_OK) printf("wdl %d, %d plies\n", v.wdl, v.dtw);
 *   else puts(dtb_error_message(tb));
 *   dtb_close(tb);
 *
 * Values are always from the point of view of the side to move. DTW counts
 * plies to the end of the game (the loser to move with no piece or no
 * move), through captures and crownings: wins are odd, losses even.
 */
#ifndef DTB_PROBE_H
#define DTB_PROBE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
enum {
    DTB_OK = 0,
    DTB_MISSING_TABLE = 1,    /* a table the position needs is not in the directories (the message names it) */
    DTB_CORRUPT_TABLE = 2,    /* a table file failed a check: wrong magic, version, checksum, size, contents */
    DTB_BAD_POSITION = 3,     /* not a position of the variant (or a FEN that does not parse) */
    DTB_TOO_MANY_PIECES = 4,  /* more pieces than the largest table of the variant in the directories */
    DTB_IO_ERROR = 5,         /* a file or directory could not be opened, listed or mapped */
    DTB_BAD_ARGUMENT = 6,     /* a NULL pointer or an unknown variant */
    DTB_NO_MOVE = 7,          /* dtb_best_move: the side to move has no legal move (it has lost) */
    DTB_BUFFER_TOO_SMALL = 8, /* the caller's array is too short; the needed size was written */
    DTB_OUT_OF_MEMORY = 9,
    DTB_INTERNAL_ERROR = 10, /* a bug in dtb: please report the message */
    DTB_NOT_CACHED = 11      /* a conditional probe: a table or block it needs is not in memory (no message) */
};

/* Variants: codes that never change (they are written into table files).
 * dtb_variant_name and dtb_variant_from_name convert to and from the names
 * the command line and the server use; codes run from 0 to
 * DTB_VARIANT_COUNT - 1. */
enum { DTB_RUSSIAN = 0, DTB_INTERNATIONAL = 1, DTB_BRAZILIAN = 2, DTB_VARIANT_COUNT = 3 };

/* Sides. */
enum { DTB_WHITE = 0, DTB_BLACK = 1 };

/* Game values, for the side to move. */
enum { DTB_LOSS = -1, DTB_DRAW = 0, DTB_WIN = 1 };

/*
 * A position, independent of dtb's internal layout: bit (n - 1) stands for
 * PDN square n (1..32 on the 8x8 board, where 1 = b8 and 32 = g1; 1..50
 * on the 10x10 board). kings is a subset of white | black.
 */
typedef struct dtb_position {
    uint64_t white;
    uint64_t black;
    uint64_t kings;
    int side_to_move; /* DTB_WHITE or DTB_BLACK */
    int variant;      /* a variant code: DTB_RUSSIAN, DTB_INTERNATIONAL, ... */
} dtb_position;

typedef struct dtb_options {
    /* Bytes of decompressed blocks kept in memory, shared by all tables and
     * threads. 0 turns caching off (every probe decompresses a block). */
    size_t cache_bytes;
} dtb_options;

/* A value: wdl is DTB_WIN, DTB_DRAW or DTB_LOSS; dtw is the distance in
 * plies, or -1 for a draw (and from dtb_probe_wdl, which reads no
 * distances). */
typedef struct dtb_value {
    int wdl;
    int dtw;
} dtb_value;

#define DTB_MAX_CAPTURED 20 /* a side has at most 20 pieces */
#define DTB_MOVE_TEXT_SIZE 128

/* A move. Squares are PDN numbers (1..32 or 1..50). */
typedef struct dtb_move {
    int from;
    int to;
    int crowns;                     /* 1 if a man becomes a king */
    int n_captured;                 /* 0 for a plain move */
    int captured[DTB_MAX_CAPTURED]; /* PDN squares of the captured pieces, ascending */
    char text[DTB_MOVE_TEXT_SIZE];  /* in the variant's notation: "c3-d4", "d2:h6:f8:c5:a7", "32-28", "47x24x35" */
} dtb_move;

/* A move and the value it leads to, for the side making it (dtb_probe_root). */
typedef struct dtb_root_move {
    dtb_move move;
    dtb_value value;
} dtb_root_move;

typedef struct dtb_tablebase dtb_tablebase;

/*
 * Opens the tables in `dirs` (n_dirs directories; a table found in several
 * is taken from the first). The directories are listed now; the files are
 * opened when a probe first needs them, so tables added later need a new
 * handle. opts may be NULL (a 64 MiB cache). On failure *out is NULL and a
 * message is written to err (err_len bytes with the final NUL; err may be
 * NULL).
 */
int dtb_open(const char* const* dirs, size_t n_dirs, const dtb_options* opts, dtb_tablebase** out, char* err,
             size_t err_len);

/* Closes the handle and frees everything. No other call may be running on
 * it. NULL is allowed. */
void dtb_close(dtb_tablebase* tb);

/* The largest number of pieces of any table of `variant` in the
 * directories (0 if none): positions with more pieces and no capture get
 * DTB_TOO_MANY_PIECES. */
int dtb_max_pieces(const dtb_tablebase* tb, int variant);

/* Why the last call on `tb` from this thread failed (the message names the
 * table file where one is involved). Valid until this thread's next failing
 * call on the handle; "" if none failed. */
const char* dtb_error_message(const dtb_tablebase* tb);

/* A fixed text for a status code: "missing table", ... */
const char* dtb_status_name(int status);

/* The name of a variant code: "russian", "international", ...; NULL for a
 * number that is no variant's. */
const char* dtb_variant_name(int variant);

/* The code of a variant name (as dtb_variant_name spells it); -1 for any
 * other text or NULL. */
int dtb_variant_from_name(const char* name);

/* A variant's board and the rules a move generator needs. */
typedef struct dtb_variant_rules {
    int board_size;            /* squares on a side: 8 or 10 */
    int squares;               /* playable squares: 32 or 50 */
    int pieces_per_side;       /* men a side starts with, and the most it can have */
    int majority_capture;      /* 1: a capture that takes the most pieces is compulsory */
    int crowns_during_capture; /* 1: a man reaching the last row during a capture goes on as a king */
    int algebraic_squares;     /* 1: squares are written a1..h8; 0: as numbers */
} dtb_variant_rules;

/* Fills *out for a variant code; DTB_BAD_ARGUMENT for an unknown code or a
 * NULL out. */
int dtb_variant_rules_of(int variant, dtb_variant_rules* out);

/* Reads a PDN FEN: "W:W31,32,K46:B1,2,K5", "W:Wa1,c3,Kh2:Bb8" (Russian reads
 * algebraic squares and numbers 1..32). On failure writes a message to err. */
int dtb_position_from_fen(int variant, const char* fen, dtb_position* out, char* err, size_t err_len);

/* Writes the position as a FEN (Russian squares algebraic). */
int dtb_position_to_fen(const dtb_position* pos, char* buf, size_t buf_len);

/*
 * The game value of the position, dtw -1. Reads the position's WDL table;
 * when the side to move must capture, searches the captures instead and
 * reads the tables they lead into.
 */
int dtb_probe_wdl(dtb_tablebase* tb, const dtb_position* pos, dtb_value* value);

/* The game value and the distance to the end of the game in plies (dtw -1
 * for a draw). Reads the WDL and the DTW table. */
int dtb_probe_dtw(dtb_tablebase* tb, const dtb_position* pos, dtb_value* value);

/*
 * Every legal move with the value it leads to for the side to move (a win
 * in d plies means the position after the move is lost in d - 1). Writes at
 * most `capacity` moves and sets *count to the number of legal moves; if
 * that is more than capacity, returns DTB_BUFFER_TOO_SMALL. Needs the DTW
 * tables.
 */
int dtb_probe_root(dtb_tablebase* tb, const dtb_position* pos, dtb_root_move* moves, size_t capacity, size_t* count);

/*
 * A move that realises the position's value: the fastest win, the longest
 * loss, or a move that keeps the draw (the first such move in a fixed
 * order). `value` (may be NULL) receives the position's value. Returns
 * DTB_NO_MOVE when the side to move has no legal move.
 */
int dtb_best_move(dtb_tablebase* tb, const dtb_position* pos, dtb_move* move, dtb_value* value);

/*
 * The line to the end of the game: best moves for both sides until the
 * loser stands with no move or no piece; it has value->dtw moves. For a
 * draw there is no such line: value->wdl is DTB_DRAW and *length is 0.
 * Writes at most `capacity` moves; if the line is longer, returns
 * DTB_BUFFER_TOO_SMALL with *length set to its length. `value` may be NULL.
 */
int dtb_principal_variation(dtb_tablebase* tb, const dtb_position* pos, dtb_move* moves, size_t capacity,
                            size_t* length, dtb_value* value);

/*
 * Probing inside a search.
 *
 * A search probes hundreds of thousands of times a second and must never
 * stall on the disk. Preload the tables once, then probe conditionally:
 *
 *   dtb_preload_report r;
 *   dtb_preload(tb, DTB_RUSSIAN, 6, DTB_PRELOAD_WDL, &r);   // at startup
 *   ...
 *   dtb_value v;                                             // in the search
 *   if (dtb_probe_wdl_cached(tb, &pos, &v) == DTB_OK) return score_of(v.wdl, ply);
 *   // DTB_NOT_CACHED, DTB_TOO_MANY_PIECES, ...: search on
 *
 * A warm probe costs a few hundred nanoseconds, most of it the memory
 * access to the block; it takes no lock and allocates nothing. Build the
 * dtb_position from your own bitboards (bit n-1 = PDN square n) without
 * going through a FEN; probe only positions with at most dtb_max_pieces()
 * pieces (the failure for more builds a message).
 */

/*
 * Conditional probes: like dtb_probe_wdl and dtb_probe_dtw, with the same
 * values, but they never read a file, open one or decompress a block. When
 * a table they need has not been opened yet, or a block is not in the
 * cache, they return DTB_NOT_CACHED at once and leave dtb_error_message as
 * it was (nothing is allocated). Nothing is scheduled in the background:
 * the block comes into memory with the next blocking probe that needs it
 * (dtb_probe_wdl, dtb_probe_dtw, the root functions) or with dtb_preload.
 * A table that failed its checks answers its error (DTB_CORRUPT_TABLE),
 * a damaged block is never cached, so it stays DTB_NOT_CACHED: a damaged
 * file is never answered from.
 */
int dtb_probe_wdl_cached(dtb_tablebase* tb, const dtb_position* pos, dtb_value* value);
int dtb_probe_dtw_cached(dtb_tablebase* tb, const dtb_position* pos, dtb_value* value);

/* What dtb_preload loads (flags, or'ed). */
#define DTB_PRELOAD_WDL 1
#define DTB_PRELOAD_DTW 2

/* What dtb_preload did. Blocks and bytes are decompressed ones, as the
 * cache holds them. */
typedef struct dtb_preload_report {
    size_t tables;             /* table files of the request found in the directories, all opened and checked */
    uint64_t blocks;           /* their blocks */
    uint64_t blocks_cached;    /* of those, in the cache when dtb_preload returned */
    uint64_t bytes;            /* their decompressed bytes */
    uint64_t bytes_cached;     /* of those, in the cache */
    int complete;              /* 1 when every block is in the cache */
    char first_incomplete[64]; /* the first table (file name) not wholly cached; "" when complete */
} dtb_preload_report;

/*
 * Opens every table of `variant` with at most `max_pieces` pieces found in
 * the directories, WDL first (fewest pieces first), then DTW when `what`
 * has DTB_PRELOAD_DTW, and decompresses their blocks into the cache until
 * the next block no longer fits in what is free: preloading never evicts
 * (a cache too small for the request keeps the smallest tables whole, and
 * the report says how much did not fit). Blocks already cached are kept.
 * Each block is checked on the way: a damaged one stops the preload with
 * its error (the report, which may be NULL, says what was done before).
 * Takes as long as decompressing what it loads (about 10 us per 8 KiB
 * block); call it before the search, from any thread.
 */
int dtb_preload(dtb_tablebase* tb, int variant, int max_pieces, int what, dtb_preload_report* report);

/* The block cache of a handle, for an engine's statistics. */
typedef struct dtb_cache_info {
    size_t capacity; /* dtb_options.cache_bytes */
    size_t bytes;    /* charged now: decompressed blocks plus 160 bytes of bookkeeping each */
    size_t blocks;   /* blocks held */
    uint64_t hits;   /* probes that found their block cached (conditional ones included) */
    uint64_t misses; /* probes that did not */
    uint64_t evictions;
} dtb_cache_info;

int dtb_cache_stats(const dtb_tablebase* tb, dtb_cache_info* info);

/* The position after `move` (one of the position's legal moves, as
 * dtb_best_move or dtb_probe_root gave it). */
int dtb_position_after(const dtb_position* pos, const dtb_move* move, dtb_position* out);

/*
 * The .dtc tables (dtb gen --dtc; docs/VALUES.md): the values under the
 * move-count draw rules, stored as the WDL and DTW tables store the values
 * without them. They stay here, with the other probes, because they read
 * a metric of the tables and nothing more: the stored values, and best
 * play from them, as tables/rule_values.hpp defines them for the generator
 * and the reader alike. Which rule ends a game first, how many moves it
 * leaves, and whether the stronger side can still win within them (the
 * adjudication) is dtb/adjudication.h, a library of its own built on this
 * one.
 */

/*
 * The values under the move-count draw rules with every count fresh at
 * `pos` (docs/VALUES.md), from the .dtc tables (dtb gen --dtc):
 * *rule_wdl the rule-aware value for the side to move (DTB_WIN, DTB_DRAW,
 * DTB_LOSS: a win the counts turn into a draw is DTB_DRAW), *dtc the plies
 * to the next capture or crowning (where 2.1.9.1.5 covers the material,
 * else the next capture or man move) with best play under the counts, -1
 * for a draw. Either pointer may be NULL. DTB_MISSING_TABLE naming the
 * .dtc file when one is missing.
 */
int dtb_probe_dtc(dtb_tablebase* tb, const dtb_position* pos, int* rule_wdl, int* dtc);

/*
 * Best play under the move-count rules from `pos` up to the next
 * conversion, the move that starts the material's binding count again:
 * the moves until one captures, crowns or ends the game or, in a material
 * that no count without conversion (2.1.9.1.5) covers, moves a man, that
 * move included; with every count fresh, exactly DTC plies. The counts:
 * moves_played, the stronger side's moves since a lone-king count started (since the material first stood on the board;
 * for 2.1.9.1.5 since the last capture or crowning); king_moves_played,
 * the moves since the last man move or capture (2.1.9.1.8, 3.5's 25 king
 * moves), -1 for moves_played; conversion_moves_played, the moves since
 * the last capture or crowning (2.1.9.1.5), -1 for moves_played. The side
 * that wins under the counts keeps the win (converting at once where it
 * can, else heading for the shortest DTC), the other side delays it; the
 * first move is the best move under the counts. *length 0 for a position
 * drawn under the counts. Needs the .dtc tables (DTB_MISSING_TABLE naming
 * one). Writes at most `capacity` moves; if the line is longer,
 * DTB_BUFFER_TOO_SMALL with *length set to its length.
 */
int dtb_rule_line(dtb_tablebase* tb, const dtb_position* pos, int moves_played, int king_moves_played,
                  int conversion_moves_played, dtb_move* moves, size_t capacity, size_t* length);

/* A move and what it is worth under the move-count rules (dtb_rule_root). */
typedef struct dtb_rule_move {
    dtb_move move;
    int rule_wdl; /* for the side making it: DTB_WIN, DTB_DRAW or DTB_LOSS under the counts */
    int dtc;      /* plies to the next conversion along best play, this move the first (1 if it
                     converts); -1 when rule_wdl is DTB_DRAW */
} dtb_rule_move;

/*
 * Every legal move under the move-count rules: the value it leads to for
 * the side to move, and the plies to the next conversion it leads to,
 * which is how dtb_rule_line chooses (the winner takes the least, the loser
 * the most). The counts as a game has them, to the ply: moves_played as in
 * dtb_rule_line; king_plies_played, the plies since the last man move or
 * capture; conversion_plies_played, the plies since the last capture or
 * crowning (-1: twice moves_played, for either). In the order of
 * dtb_probe_root. Writes at most `capacity` moves and sets *count to the
 * number of legal moves; if that is more than capacity, returns
 * DTB_BUFFER_TOO_SMALL. Needs the .dtc tables (DTB_MISSING_TABLE naming
 * one).
 */
int dtb_rule_root(dtb_tablebase* tb, const dtb_position* pos, int moves_played, int king_plies_played,
                  int conversion_plies_played, dtb_rule_move* moves, size_t capacity, size_t* count);

#ifdef __cplusplus
}
#endif

#endif /* DTB_PROBE_H */
