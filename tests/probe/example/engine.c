/*
 * What an engine does with dtb, in plain C and nothing but <dtb/probe.h>:
 * open the tables once, and for each position ask for the value, the
 * distance, the best move and the line to the end.
 *
 *   example_engine TABLE_DIR russian|international FEN...
 *
 * Prints one line per FEN: the FEN, win/draw/loss for the side to move, the
 * DTW in plies (- for a draw), the best move (- if none) and the line.
 * Exit status 0 if every position was answered, 1 if not, 2 on bad usage.
 */
#include <dtb/probe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int probe_one(dtb_tablebase* tb, int variant, const char* fen) {
    char err[256];
    dtb_position pos;
    if (dtb_position_from_fen(variant, fen, &pos, err, sizeof err) != DTB_OK) {
        fprintf(stderr, "%s: %s\n", fen, err);
        return 0;
    }
    /* An engine's search would check the piece count first and then call
     * only dtb_probe_wdl, the cheapest probe. */
    dtb_value value;
    int status = dtb_probe_dtw(tb, &pos, &value);
    if (status != DTB_OK) {
        fprintf(stderr, "%s: %s: %s\n", fen, dtb_status_name(status), dtb_error_message(tb));
        return 0;
    }
    dtb_move best;
    status = dtb_best_move(tb, &pos, &best, NULL);
    if (status != DTB_OK && status != DTB_NO_MOVE) {
        fprintf(stderr, "%s: %s\n", fen, dtb_error_message(tb));
        return 0;
    }
    const char* wdl = value.wdl == DTB_WIN ? "win" : value.wdl == DTB_DRAW ? "draw" : "loss";
    printf("%s %s ", fen, wdl);
    if (value.wdl == DTB_DRAW)
        printf("-");
    else
        printf("%d", value.dtw);
    printf(" %s", status == DTB_OK ? best.text : "-");

    /* The line to the end has exactly DTW moves. */
    if (value.wdl != DTB_DRAW && value.dtw > 0) {
        size_t length = 0;
        dtb_move* line = malloc(sizeof(dtb_move) * (size_t)value.dtw);
        if (line == NULL) return 0;
        status = dtb_principal_variation(tb, &pos, line, (size_t)value.dtw, &length, NULL);
        if (status != DTB_OK) {
            fprintf(stderr, "\n%s: %s\n", fen, dtb_error_message(tb));
            free(line);
            return 0;
        }
        printf(" :");
        for (size_t i = 0; i < length; ++i) printf(" %s", line[i].text);
        free(line);
    }
    printf("\n");
    return 1;
}

int main(int argc, char** argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s TABLE_DIR russian|international FEN...\n", argv[0]);
        return 2;
    }
    int variant;
    if (strcmp(argv[2], "russian") == 0)
        variant = DTB_RUSSIAN;
    else if (strcmp(argv[2], "international") == 0)
        variant = DTB_INTERNATIONAL;
    else {
        fprintf(stderr, "unknown variant %s\n", argv[2]);
        return 2;
    }

    const char* dirs[] = {argv[1]};
    dtb_options options = {32u << 20}; /* a 32 MiB block cache */
    dtb_tablebase* tb = NULL;
    char err[512];
    if (dtb_open(dirs, 1, &options, &tb, err, sizeof err) != DTB_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    printf("tables up to %d pieces\n", dtb_max_pieces(tb, variant));
    int ok = 1;
    for (int i = 3; i < argc; ++i) ok &= probe_one(tb, variant, argv[i]);
    dtb_close(tb);
    return ok ? 0 : 1;
}
