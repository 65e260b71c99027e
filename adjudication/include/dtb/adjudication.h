/*
 * dtb adjudication: the move-count draw rules (Russian 2.1.9.1.3-.9,
 * international 3.5; docs/RULES.md section 4) judged with the tables, from
 * a C or C++ program: which rule ends the game first from a position, how
 * many moves it leaves the stronger side, and whether that side can still
 * win within them.
 *
 * Built on dtb/probe.h (included here): the same handle, status codes and
 * error messages, and the same promises: nothing throws or exits, and any
 * number of threads may call at once on one handle. Link the library
 * dtb_adjudication (CMake: dtb::adjudication; pkg-config: dtb) before
 * dtb_probe.
 *
 * One entry point, dtb_adjudicate_position, takes the position and the
 * counts standing at it, and fills a dtb_adjudication with codes and
 * numbers; the words come from separate calls, so that the struct holds no
 * English:
 *
 *   dtb_counts counts = {3, 6, 6};  // 3 moves of the stronger side; 6 plies of each other count
 *   dtb_adjudication a;
 *   char verdict[1024];
 *   if (dtb_adjudicate_position(tb, &pos, &counts, &a) == DTB_OK && a.rule >= 0) {
 *       dtb_adjudication_verdict(&a, verdict, sizeof verdict, NULL);
 *       printf("%s: %d moves left, %s\n", a.rules[a.rule].id, a.moves_left, verdict);
 *   }
 */
#ifndef DTB_ADJUDICATION_H
#define DTB_ADJUDICATION_H

#include "dtb/probe.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    int moves_made;  /* the moves counted (from the dtb_counts given); 0 when it does not apply */
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
 * The counts standing at a position, as a game has them: each the moves or
 * plies since its count started. Each 0 or more.
 */
typedef struct dtb_counts {
    /* The lone-king rules (2.1.9.1.3, .4, .7; 3.5's 16 and 5 moves): the
     * moves the stronger side has made since the count started (since the
     * material first stood on the board). */
    int moves_played;
    /* The rules on king moves only (2.1.9.1.8, 3.5's 25 moves): the plies
     * since the last man move or capture. */
    int king_plies;
    /* 2.1.9.1.5: the plies since the last capture or crowning. */
    int conversion_plies;
} dtb_counts;
/* A count of plies is odd when one side has made a move more than the other
 * since it started, which whole moves cannot say; the rules' moves_made are
 * plies / 2. */

/*
 * Adjudicates the move-count draw rules at `pos` with the counts `counts`:
 * every rule of the variant (rules[]), the one that ends the game first,
 * the moves it leaves and whether the stronger side can still win within
 * them. The board condition of 2.1.9.1.3 and .7 (a king on the main road)
 * is judged on `pos`, as if the count started there; a repetition cannot
 * be judged from one position (it is listed, never applied). Needs the WDL
 * and DTW tables of the position when a rule applies, none when no rule
 * does. With the .dtc tables of the position's material and of every
 * material it converts into (dtb gen --dtc), every answer is exact (basis
 * DTB_BASIS_DTC); without them DTW decides, and a bounded search over the
 * tables where DTW cannot (exact says whether it settled it).
 * DTB_BAD_ARGUMENT for a negative count or a NULL pointer.
 */
int dtb_adjudicate_position(dtb_tablebase* tb, const dtb_position* pos, const dtb_counts* counts,
                            dtb_adjudication* out);

/*
 * Kept for compatibility: the calls of dtb/probe.h before
 * dtb_adjudicate_position, each that call with its counts filled in.
 *
 * dtb_adjudicate: moves_played for every count, in whole moves of each
 * side, except king_moves_played for the king-move rules (-1: moves_played).
 * dtb_adjudicate_counts: also conversion_moves_played for 2.1.9.1.5 (-1:
 * moves_played). A count of n moves is 2n plies. moves_played < 0 is
 * DTB_BAD_ARGUMENT.
 * dtb_adjudicate_plies: the fields of dtb_counts as arguments.
 */
int dtb_adjudicate(dtb_tablebase* tb, const dtb_position* pos, int moves_played, int king_moves_played,
                   dtb_adjudication* out);
int dtb_adjudicate_counts(dtb_tablebase* tb, const dtb_position* pos, int moves_played, int king_moves_played,
                          int conversion_moves_played, dtb_adjudication* out);
int dtb_adjudicate_plies(dtb_tablebase* tb, const dtb_position* pos, int moves_played, int king_plies,
                         int conversion_plies, dtb_adjudication* out);

/*
 * The verdict in words, as dtb adjudicate prints it: which rule ends the
 * game, whether the stronger side can win within it and why, or why the
 * tables cannot say. Writes it with its final NUL to buf (buf_len bytes);
 * *needed (may be NULL) receives the bytes that takes. A buffer too short
 * gets as much as fits, NUL-terminated, and DTB_BUFFER_TOO_SMALL.
 * DTB_BAD_ARGUMENT for a NULL `a` or one dtb_adjudicate_position did not fill.
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

#endif /* DTB_ADJUDICATION_H */
