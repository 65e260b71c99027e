/*
 * What an arbiter's program does with dtb, in plain C and nothing but
 * <dtb/adjudication.h>: the move-count draw rules at a position, with the
 * counts of the game standing there.
 *
 *   example_adjudicate TABLE_DIR russian|international FEN MOVES KING_PLIES CONVERSION_PLIES
 *
 * MOVES: the stronger side's moves since a lone-king count started;
 * KING_PLIES: plies since the last man move or capture; CONVERSION_PLIES:
 * plies since the last capture or crowning. Prints the rule that ends the
 * game first (- if none), the moves it leaves (- if none), whether the
 * stronger side can still win within them (yes/no) and how that was
 * decided, then the verdict in words. Exit status 0 when answered, 1 if
 * not, 2 on bad usage.
 */
#include <dtb/adjudication.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: %s TABLE_DIR VARIANT FEN MOVES KING_PLIES CONVERSION_PLIES\n", argv[0]);
        return 2;
    }
    const int variant = dtb_variant_from_name(argv[2]);
    if (variant < 0) {
        fprintf(stderr, "%s: not a variant dtb knows\n", argv[2]);
        return 2;
    }
    char err[256];
    dtb_position pos;
    if (dtb_position_from_fen(variant, argv[3], &pos, err, sizeof err) != DTB_OK) {
        fprintf(stderr, "%s: %s\n", argv[3], err);
        return 2;
    }
    const dtb_counts counts = {atoi(argv[4]), atoi(argv[5]), atoi(argv[6])};

    const char* dirs[] = {argv[1]};
    dtb_tablebase* tb;
    if (dtb_open(dirs, 1, NULL, &tb, err, sizeof err) != DTB_OK) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    dtb_adjudication a;
    const int status = dtb_adjudicate_position(tb, &pos, &counts, &a);
    if (status != DTB_OK) {
        fprintf(stderr, "%s: %s: %s\n", argv[3], dtb_status_name(status), dtb_error_message(tb));
        dtb_close(tb);
        return status == DTB_BAD_ARGUMENT || status == DTB_BAD_POSITION ? 2 : 1;
    }
    char verdict[2048];
    dtb_adjudication_verdict(&a, verdict, sizeof verdict, NULL); /* cut to the buffer if longer */
    if (a.rule >= 0)
        printf("%s %d ", a.rules[a.rule].id, a.moves_left);
    else
        printf("- - ");
    printf("%s %s\n%s\n", a.winnable ? "yes" : "no", dtb_basis_name(a.basis), verdict);
    dtb_close(tb);
    return 0;
}
