// review_game (facade.hpp): a game of a PDN file judged with its counts as
// they stood, ply by ply (judge.hpp's adjudicate_in_game).
#include <utility>

#include "adjudication/c_ruling.hpp"
#include "adjudication/facade.hpp"
#include "adjudication/judge.hpp"
#include "probe/c_handle.hpp"
#include "probe/convert.hpp"
#include "probe/dtc_tables.hpp"
#include "rules/notation.hpp"

namespace dtb::adjudication {

namespace {

// The tables' ruling after `ply` plies of the game, with the counts as they
// stood then. nullopt where the tables do not cover the position (more
// pieces than any present) and `quiet_when_uncovered`.
template <class V>
std::optional<GameMoment> ask_at(const Tablebase& tb, const PdnGame<V>& game, const GameReplay<V>& replay, int ply,
                                 bool quiet_when_uncovered) {
    const Position<V> pos = GameReplay<V>::position_after(game, ply);
    const DrawCounts<V>& counts = replay.counts[std::size_t(ply)];
    GameMoment m;
    m.ply = ply;
    m.fen = to_fen(pos);
    m.conversion_plies = counts.plies_since_conversion();
    m.king_plies = counts.plies_of_kings_only();
    auto a = adjudicate_in_game(tb, pos, counts);
    if (a) {
        dtb_adjudication c;
        ruling_to_c(V::draw_rules, probe::c_variant(V::id), *a, c);
        m.answer = c;
    } else {
        if (quiet_when_uncovered && a.error().status == Status::too_many_pieces) return std::nullopt;
        m.error = a.error().message;
    }
    return m;
}

}  // namespace

// Could the stronger side still win when the count began, with the counts
// as they stood, and which moves let a win slip on the way to the draw? At
// the end of a record with no draw: the counts running then, judged.
template <class V>
GameReview review_game(dtb_tablebase* handle, const PdnGame<V>& game, const GameReplay<V>& replay) {
    const Tablebase& tb = *handle->tables;
    GameReview g;
    if (!replay.draw) {
        const int last = int(replay.counts.size()) - 1;
        if (game_over(GameReplay<V>::position_after(game, last))) return g;  // a game won: no count runs
        auto end = ask_at(tb, game, replay, last, true);
        if (end && (!end->answer || end->answer->rule >= 0)) g.at_end = end;
        return g;
    }
    if (!replay.count_start) return g;
    const DrawReached& draw = *replay.draw;
    g.at_start = ask_at(tb, game, replay, draw.count_start_ply, false);
    if (!g.at_start->answer || !g.at_start->answer->exact) return g;
    // The position the draw ended stood no win; a move into it that came
    // from a win let it slip too.
    std::vector<int> slips;
    bool won = g.at_start->answer->winnable;
    for (int ply = draw.count_start_ply + 1; ply <= draw.ply; ++ply) {
        bool now = false;
        if (ply < draw.ply) {
            const auto m = ask_at(tb, game, replay, ply, false);
            if (!m || !m->answer || !m->answer->exact) return g;
            now = m->answer->winnable;
        }
        if (won && !now) slips.push_back(ply);
        won = now;
    }
    g.slips = std::move(slips);
    return g;
}

template <class V>
RuleValues rule_values_in_game(dtb_tablebase* handle, const PdnGame<V>& game, const GameReplay<V>& replay) {
    const probe::DtcTables<V> dtc(*handle->tables);
    RuleValues r;
    for (std::size_t k = 0; k < replay.counts.size(); ++k) {
        std::optional<int> value;
        if (r.error.empty()) {
            const Position<V> pos = GameReplay<V>::position_after(game, int(k));
            auto v = dtc.exact_value(pos, replay.counts[k]);
            if (v)
                value = *v;
            else if (v.error().status != Status::missing_table && v.error().status != Status::too_many_pieces)
                r.error = v.error().message;
        }
        r.values.push_back(value);
    }
    return r;
}

// review_game and rule_values_in_game for every variant, where the dtb program finds them.
#define DTB_REVIEW_GAME(V)                                                                       \
    template GameReview review_game<V>(dtb_tablebase*, const PdnGame<V>&, const GameReplay<V>&); \
    template RuleValues rule_values_in_game<V>(dtb_tablebase*, const PdnGame<V>&, const GameReplay<V>&);
#ifdef DTB_FOR_EACH_VARIANT
DTB_FOR_EACH_VARIANT(DTB_REVIEW_GAME)  // rules/variant.hpp's list
#else
DTB_REVIEW_GAME(Russian)
DTB_REVIEW_GAME(International)
#endif
#undef DTB_REVIEW_GAME

}  // namespace dtb::adjudication
