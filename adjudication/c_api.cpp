// The C API of dtb/adjudication.h over the judge (judge.hpp), on the
// handle of dtb/probe.h: arguments checked, position converted, failures
// recorded and exceptions caught exactly as the probes do
// (probe/c_handle.hpp). One entry point, dtb_adjudicate_position; the older
// calls fill in its counts.
#include <optional>
#include <string>

#include "adjudication/c_ruling.hpp"
#include "adjudication/facade.hpp"
#include "adjudication/judge.hpp"
#include "adjudication/ruling_text.hpp"
#include "dtb/adjudication.h"
#include "probe/c_handle.hpp"
#include "probe/convert.hpp"

namespace {

using namespace dtb;
using namespace dtb::adjudication;
using probe::copy_text;
using probe::guarded;
using probe::probe_position;
using probe::variant_from_c;

}  // namespace

dtb_counts dtb::adjudication::counts_in_moves(int moves_played, int king_moves, int conversion_moves) {
    const Counts c = counts_in_plies(moves_played, king_moves, conversion_moves);
    return dtb_counts{c.moves_played, c.king_plies, c.conversion_plies};
}

extern "C" {

int dtb_adjudicate_position(dtb_tablebase* tb, const dtb_position* pos, const dtb_counts* counts,
                            dtb_adjudication* out) {
    return probe_position(tb, pos, counts != nullptr && out != nullptr,
                          [&]<class V>(const Search<V>&, const Position<V>& p) -> int {
                              // Every variant's rules fit the C struct's array.
                              static_assert(V::draw_rules.size() <= DTB_MAX_DRAW_RULES);
                              const Counts c{counts->moves_played, counts->king_plies, counts->conversion_plies};
                              auto a = adjudicate_position(*tb->tables, p, c);
                              if (!a) return tb->fail(a.error());
                              ruling_to_c(V::draw_rules, pos->variant, *a, *out);
                              return DTB_OK;
                          });
}

int dtb_adjudicate(dtb_tablebase* tb, const dtb_position* pos, int moves_played, int king_moves_played,
                   dtb_adjudication* out) {
    return dtb_adjudicate_counts(tb, pos, moves_played, king_moves_played, -1, out);
}

int dtb_adjudicate_counts(dtb_tablebase* tb, const dtb_position* pos, int moves_played, int king_moves_played,
                          int conversion_moves_played, dtb_adjudication* out) {
    const dtb_counts counts = counts_in_moves(moves_played, king_moves_played, conversion_moves_played);
    return dtb_adjudicate_position(tb, pos, &counts, out);
}

int dtb_adjudicate_plies(dtb_tablebase* tb, const dtb_position* pos, int moves_played, int king_plies,
                         int conversion_plies, dtb_adjudication* out) {
    const dtb_counts counts{moves_played, king_plies, conversion_plies};
    return dtb_adjudicate_position(tb, pos, &counts, out);
}

int dtb_adjudication_verdict(const dtb_adjudication* a, char* buf, size_t buf_len, size_t* needed) {
    if (a == nullptr || (buf == nullptr && buf_len > 0)) return DTB_BAD_ARGUMENT;
    const auto variant = variant_from_c(a->variant);
    if (!variant) return DTB_BAD_ARGUMENT;
    return guarded(nullptr, [&]() -> int {
        return with_variant(*variant, [&]<class V>() -> int {
            const std::optional<Ruling> ruling = ruling_from_c(V::draw_rules, *a);
            if (!ruling) return DTB_BAD_ARGUMENT;
            const std::string text = verdict_text(V::draw_rules, *ruling);
            if (needed) *needed = text.size() + 1;
            copy_text(text, buf, buf_len);
            return text.size() < buf_len ? DTB_OK : DTB_BUFFER_TOO_SMALL;
        });
    });
}

const char* dtb_basis_name(int basis) {
    if (basis < DTB_BASIS_NO_RULE || basis > DTB_BASIS_DTC) return "unknown";
    return basis_name(Basis(basis));
}

const char* dtb_rule_note(int why_not) {
    if (why_not < DTB_RULE_APPLIES || why_not > DTB_RULE_LONE_KING_OFF_ROAD) return "";
    return rule_note_text(RuleNote(why_not));
}

}  // extern "C"
