// dtb analyze's decisions (see game_analysis.hpp).
#include "cli/game_analysis.hpp"

#include "adjudication/facade.hpp"

namespace dtb {

namespace {

// The tables' value of `pos`, or nullopt when they do not hold its
// material; other failures (a damaged table) are kept in `error`.
template <class V>
std::optional<int> table_value(const Tables& tables, const Position<V>& pos, int max_pieces, std::string& error) {
    if (!error.empty() || pos.piece_count() > max_pieces) return std::nullopt;
    auto v = tables.value(pos);
    if (const auto* e = std::get_if<QueryError>(&v)) {
        error = e->message;
        return std::nullopt;
    }
    return std::get<std::optional<int>>(v);
}

// The counts of the draw rules under way, repetitions aside.
template <class V>
std::vector<RuleCount> counts_of(const DrawTracker<V>& tracker) {
    std::vector<RuleCount> counts;
    const auto& c = tracker.counts();
    for (std::size_t i = 0; i < V::draw_rules.size(); ++i) {
        if (V::draw_rules[i].count == DrawCount::repetitions) continue;
        if (c.counting(i, tracker.position()) && c.moves_made(i) > 0) counts.push_back({i, c.moves_made(i)});
    }
    return counts;
}

// The move the tables prefer in `pos`, to set beside a move that lost value.
template <class V>
std::optional<TurningPoint> turning_point(const Tables& tables, const Position<V>& pos, int before, int after,
                                          std::string& error) {
    if (outcome_of(after) >= outcome_of(before)) return std::nullopt;
    auto best = tables.best(pos);
    if (const auto* e = std::get_if<QueryError>(&best)) {
        error = e->message;
        return std::nullopt;
    }
    const auto& found = std::get<std::optional<BestMove>>(best);
    if (!found) return std::nullopt;
    return TurningPoint{before, after, move_text(pos, found->move), found->value};
}

}  // namespace

template <class V>
GameAnalysis<V> analyze_game(const PdnGame<V>& game, const Tables& tables, int max_pieces) {
    GameAnalysis<V> a;
    DrawTracker<V> tracker(game.start);
    std::optional<int> value = table_value(tables, game.start, max_pieces, a.error);
    if (value) {
        a.in_tables_from = 0;
        a.start_value = value;
    }
    // The values under the counts where the .dtc tables answer, ply by ply.
    const GameReplay<V> replay = replay_game(game);
    const adjudication::RuleValues rules = adjudication::rule_values_in_game(tables.get(), game, replay);
    if (a.error.empty()) a.error = rules.error;
    const auto rule_value = [&](int k) {
        return std::size_t(k) < rules.values.size() ? rules.values[std::size_t(k)] : std::nullopt;
    };
    if (value) a.start_rule_wdl = rule_value(0);
    const Color first = game.start.side_to_move;
    int ply = 0;
    for (const PdnPly<V>& p : game.plies) {
        ++ply;
        AnalyzedPly<V> out{ply,
                           move_of_ply(ply, first),
                           p.move,
                           move_text(p.before, p.move),
                           p.before.after(p.move),
                           std::nullopt,
                           {},
                           std::nullopt,
                           std::nullopt,
                           std::nullopt,
                           std::nullopt,
                           false};
        if (a.draw) {  // the game was over: the record goes on, but play does not
            out.after_end = true;
            a.plies.push_back(std::move(out));
            continue;
        }
        const auto draw = tracker.play(p.move);
        out.counts = counts_of(tracker);
        out.value = table_value(tables, out.after, max_pieces, a.error);
        if (out.value) out.rule_wdl = rule_value(ply);
        if (out.value && !a.in_tables_from) {
            a.in_tables_from = ply;
            a.start_value = out.value;
            a.start_rule_wdl = out.rule_wdl;
        }
        if (const auto before = rule_value(ply - 1); before && out.rule_wdl && value) {
            if (-*out.rule_wdl < *before) {
                out.rule_turn = *before;
                ++a.rule_turning_points;
            }
        }
        if (value && out.value) {
            out.turn = turning_point(tables, p.before, *value, value_before(*out.value), a.error);
            if (out.turn) ++a.turning_points;
        }
        // A count that reaches its limit ends the game; a repetition only
        // lets a draw be claimed, so the game may go on.
        if (draw) {
            const bool repetition = V::draw_rules[draw->rule].count == DrawCount::repetitions;
            std::optional<DrawReached>& first = repetition ? a.claimable : a.draw;
            if (!first && !a.draw) {
                first = draw;
                out.draw = draw;
            }
        }
        value = out.value;
        a.plies.push_back(std::move(out));
    }
    if (!a.draw) {
        const Position<V> end = game.final_position();
        MoveList moves;
        MoveGenerator<V>::generate(end, moves);
        if (moves.size() == 0) a.no_move = NoMove{ply, end.side_to_move, end.pieces[end.side_to_move] == 0};
    }
    return a;
}

#define DTB_INSTANTIATE_ANALYZE_GAME(V) template GameAnalysis<V> analyze_game<V>(const PdnGame<V>&, const Tables&, int);
DTB_FOR_EACH_VARIANT(DTB_INSTANTIATE_ANALYZE_GAME)

}  // namespace dtb
