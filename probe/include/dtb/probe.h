/*
 * dtb probe: read draughts endgame tablebases (Russian 8x8 checkers and
 * international 10x10 draughts) from a C or C++ program.
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

/* Variants. */
enum { DTB_RUSSIAN = 0, DTB_INTERNATIONAL = 1 };

/* Sides. */
enum { DTB_WHITE = 0, DTB_BLACK = 1 };

/* Game values, for the side to move. */
enum { DTB_LOSS = -1, DTB_DRAW = 0, DTB_WIN = 1 };

/*
 * A position, independent of dtb's internal layout: bit (n - 1) stands for
 * PDN square n (1..32 Russian, where 1 = b8 and 32 = g1; 1..50
 * international). kings is a subset of white | black.
 */
typedef struct dtb_position {
    uint64_t white;
    uint64_t black;
    uint64_t kings;
    int side_to_move; /* DTB_WHITE or DTB_BLACK */
    int variant;      /* DTB_RUSSIAN or DTB_INTERNATIONAL */
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
    char text[DTB_MOVE_TEXT_SIZE];  /* in the variant's notation: "c3-d4", "d2:h6:f8:c5:a7", "32-28", "47:24:35" */
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
 * Move-count draw rules (Russian 2.1.9.1.3-.9, international 3.5;
 * docs/RULES.md section 4): which rule ends the game first from a position,
 * how many moves it leaves the stronger side, and whether that side can
 * still win within them.
 *
 * dtb_adjudicate fills a dtb_adjudication with codes and numbers; the words
 * come from separate calls, so that the struct holds no English:
 *
 *   dtb_adjudication a;
 *   char verdict[1024];
 *   if (dtb_adjudicate(tb, &pos, 3, -1, &a) == DTB_OK && a.rule >= 0) {
 *       dtb_adjudication_verdict(&a, verdict, sizeof verdict, NULL);
 *       printf("%s: %d moves left, %s\n", a.rules[a.rule].id, a.moves_left, verdict);
 *   }
 */
#define DTB_MAX_DRAW_RULES 12

/* How an adjudication was decided (dtb_basis_name gives the word). */
enum {
    DTB_BASIS_NO_RULE = 0, /* no move-count rule covers the material */
    DTB_BASIS_COUNT = 1,   /* the count has run out already */
    DTB_BASIS_WDL = 2,     /* the stronger side cannot win at all */
    DTB_BASIS_DTW = 3,     /* DTW against the moves the count leaves */
    DTB_BASIS_SEARCH = 4,  /* a search over the tables */
    DTB_BASIS_DTC = 5      /* the values under the counts (.dtc tables): exact for every count */
};

/* Why a rule does not apply at the position (dtb_rule_note gives the words). */
enum {
    DTB_RULE_APPLIES = 0,
    DTB_RULE_NEEDS_GAME = 1,               /* a repetition: counted over a whole game, not one position */
    DTB_RULE_OTHER_MATERIAL = 2,           /* the rule speaks of other material */
    DTB_RULE_NO_STRONGER_KING_ON_ROAD = 3, /* no king of the stronger side on the main road */
    DTB_RULE_LONE_KING_OFF_ROAD = 4        /* the lone king is not on the main road */
};

/* Why the tables' DTW alone does not settle the answer. */
enum {
    DTB_DOUBT_NONE = 0,
    DTB_DOUBT_NEEDS_DTC = 1,            /* a conversion starts the count again; whether the stronger side can
                                           force one in time and still win needs the distance to conversion */
    DTB_DOUBT_CONVERSION_LONGER = 2,    /* a conversion may lead into material whose wins outlast the count it starts */
    DTB_DOUBT_CONVERSION_UNKNOWN = 3,   /* ... into material whose WDL table is missing or unreadable */
    DTB_DOUBT_CONVERSION_UNRECORDED = 4 /* ... whose WDL table (format version 1) does not record its longest win */
};

/* One rule of the variant at the position. id and title are the rules
 * table's own (rules/draw_rules.hpp): identifiers and names, not generated
 * text. */
typedef struct dtb_draw_rule {
    char id[48];     /* the rule number first: "2.1.9.1.4", "2.1.9.1.5 (4-5 pieces)", "3.5 (16 moves)" */
    char title[128]; /* what it covers, in words */
    int limit;       /* moves (of the stronger side, or of each side), or occurrences for a repetition */
    int applies;     /* 1 if it covers this position (material and board condition) */
    int ends_first;  /* 1 for the rule(s) that end the game first */
    int moves_made;  /* the moves counted (the arguments of dtb_adjudicate); 0 when it does not apply */
    int moves_left;  /* limit - moves_made, at least 0; 0 when it does not apply */
    int why_not;     /* DTB_RULE_APPLIES when it applies, else why not (DTB_RULE_*) */
} dtb_draw_rule;

/* Why DTW alone does not settle it (kind DTB_DOUBT_NONE when it does). The
 * CONVERSION kinds: a capture or crowning on the way may lead into the
 * material kings/men, where rule `rule` starts a count of fresh_moves. */
typedef struct dtb_doubt {
    int kind;          /* DTB_DOUBT_* */
    int rule;          /* CONVERSION_*: index in rules[] of that count; -1 if none */
    int fresh_moves;   /* CONVERSION_*: the moves that count leaves the stronger side */
    int longest_moves; /* CONVERSION_LONGER: the longest win there, in moves of the stronger side */
    int kings[2];      /* CONVERSION_*: the material converted into: [0] the stronger side, [1] the other */
    int men[2];
    /* CONVERSION_UNKNOWN and _UNRECORDED: the WDL table that would tell (a file name); "" otherwise */
    char missing_file[64];
} dtb_doubt;

typedef struct dtb_adjudication {
    int variant;      /* DTB_RUSSIAN or DTB_INTERNATIONAL: the table rules[] follows */
    int side_to_move; /* of the position: DTB_WHITE or DTB_BLACK */
    int kings[2];     /* the position's kings and men, [DTB_WHITE] and [DTB_BLACK] */
    int men[2];
    int rule;            /* index in rules[] of the rule that ends the game first; -1: no rule applies */
    int limit_moves;     /* that rule's limit (-1 without a rule) */
    int moves_left;      /* the stronger side's moves left under it (-1 without a rule) */
    int stronger_side;   /* DTB_WHITE or DTB_BLACK; -1 without a rule */
    int wdl;             /* the game value for the stronger side with no count (DTB_WIN, ...) */
    int dtw;             /* the position's DTW for the side to move, -1 for a draw or without a rule */
    int moves_needed;    /* the stronger side's own moves to win with best play, -1 if it cannot win */
    int winnable;        /* 1: it can win before the rule ends the game */
    int exact;           /* 1: the tables settle it; 0: they do not (doubt says why) and winnable is DTW's guess */
    int basis;           /* how: DTB_BASIS_* */
    dtb_doubt doubt;     /* why DTW alone did not settle it (kept when a search then did) */
    size_t search_nodes; /* positions a search over the tables visited (0: none ran); with exact 0, it gave up */
    size_t n_rules;      /* every rule of the variant, in the order of rules/draw_rules.hpp */
    dtb_draw_rule rules[DTB_MAX_DRAW_RULES];
    int dtc; /* DTB_BASIS_DTC: the position's distance to conversion with every count fresh, in plies
                (-1: drawn under the counts); -1 otherwise */
} dtb_adjudication;

/*
 * Adjudicates the move-count draw rules at `pos`. moves_played: the moves
 * the stronger side has made since the rule's count started (since the
 * material first stood on the board; for 2.1.9.1.5 since the last capture
 * or crowning). king_moves_played: the same for the rules on king moves
 * only (2.1.9.1.8, 3.5's 25 moves), counted since the last man move or
 * capture; -1 takes moves_played. A repetition cannot be judged from one
 * position (it is listed, never applied). Needs the WDL and DTW tables of
 * the position when a rule applies; none when no rule does.
 */
int dtb_adjudicate(dtb_tablebase* tb, const dtb_position* pos, int moves_played, int king_moves_played,
                   dtb_adjudication* out);

/*
 * dtb_adjudicate with the count of 2.1.9.1.5 (moves since the last capture
 * or crowning) given apart: conversion_moves_played, -1 takes moves_played.
 * With the .dtc tables of the position's material and of every material it
 * converts into (dtb gen --dtc), every answer is exact (basis
 * DTB_BASIS_DTC); without them, as dtb_adjudicate.
 */
int dtb_adjudicate_counts(dtb_tablebase* tb, const dtb_position* pos, int moves_played, int king_moves_played,
                          int conversion_moves_played, dtb_adjudication* out);

/*
 * dtb_adjudicate_counts to the ply, for a game in progress: moves_played as
 * there (the stronger side's moves under the lone-king rules),
 * king_plies the plies since the last man move or capture (2.1.9.1.8,
 * 3.5's 25 king moves), conversion_plies the plies since the last capture
 * or crowning (2.1.9.1.5); a count of plies is odd when one side has made
 * a move more than the other since it started, which whole moves cannot
 * say. Each 0 or more (DTB_BAD_ARGUMENT otherwise). The rules' moves_made
 * are plies / 2.
 */
int dtb_adjudicate_plies(dtb_tablebase* tb, const dtb_position* pos, int moves_played, int king_plies,
                         int conversion_plies, dtb_adjudication* out);

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
 * Best play under the move-count rules from `pos`, the counts given as to
 * dtb_adjudicate_counts, up to the next conversion: the moves until one
 * captures, crowns or ends the game, that one included. The side that wins
 * under the counts keeps the win (converting at once where it can, else
 * heading for the shortest DTC), the other side delays it; the first move
 * is the best move under the counts. *length 0 for a position drawn under
 * the counts. Needs the .dtc tables (DTB_MISSING_TABLE naming one). Writes
 * at most `capacity` moves; if the line is longer, DTB_BUFFER_TOO_SMALL
 * with *length set to its length.
 */
int dtb_rule_line(dtb_tablebase* tb, const dtb_position* pos, int moves_played, int king_moves_played,
                  int conversion_moves_played, dtb_move* moves, size_t capacity, size_t* length);

/*
 * The verdict in words, as dtb adjudicate prints it: which rule ends the
 * game, whether the stronger side can win within it and why, or why the
 * tables cannot say. Writes it with its final NUL to buf (buf_len bytes);
 * *needed (may be NULL) receives the bytes that takes. A buffer too short
 * gets as much as fits, NUL-terminated, and DTB_BUFFER_TOO_SMALL.
 * DTB_BAD_ARGUMENT for a NULL `a` or one dtb_adjudicate did not fill.
 */
int dtb_adjudication_verdict(const dtb_adjudication* a, char* buf, size_t buf_len, size_t* needed);

/* A fixed word for a DTB_BASIS_* code: "no rule", "count", "wdl", "dtw",
 * "search", "dtc"; "unknown" for any other number. */
const char* dtb_basis_name(int basis);

/* Why a rule does not apply, in words, for a DTB_RULE_* code: "not this
 * material", ...; "" for DTB_RULE_APPLIES and any other number. */
const char* dtb_rule_note(int why_not);

#ifdef __cplusplus
}
#endif

#endif /* DTB_PROBE_H */
