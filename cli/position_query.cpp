#include "cli/position_query.hpp"

#include <algorithm>
#include <string_view>

#include "cli/tables.hpp"
#include "probe/convert.hpp"
#include "rules/notation.hpp"

namespace dtb {

namespace {

QueryError failure(dtb_tablebase* tb, int status) { return QueryError{status, dtb_error_message(tb)}; }

}  // namespace

Answer<dtb_position> position_from_fen(int variant, const std::string& fen) {
    dtb_position pos;
    char err[1024];
    if (const int s = dtb_position_from_fen(variant, fen.c_str(), &pos, err, sizeof err); s != DTB_OK)
        return QueryError{s == DTB_BAD_ARGUMENT ? DTB_BAD_ARGUMENT : DTB_BAD_POSITION, err};
    return pos;
}

std::string fen_of(const dtb_position& pos) {
    char text[512];
    dtb_position_to_fen(&pos, text, sizeof text);
    return text;
}

std::string numeric_move_text(int variant, const dtb_move& move) {
    return with_variant(*probe::variant_from_c(variant), [&]<class V>() -> std::string {
        if constexpr (!V::algebraic_notation) {
            return move.text;
        } else {
            // The squares between the separators ('-' for a move, ':' for a
            // capture), numbered, and a capture's mark as numbers take it: 'x'.
            const std::string_view text = move.text;
            std::string out;
            std::size_t start = 0;
            while (start <= text.size()) {
                const std::size_t end = std::min(text.find_first_of("-:", start), text.size());
                const std::string_view name = text.substr(start, end - start);
                const auto bit = parse_square<V>(name);
                out += bit ? std::to_string(square_number<V>(*bit)) : std::string(name);
                if (end < text.size()) out += text[end] == '-' ? '-' : kNumericCaptureMark;
                start = end + 1;
            }
            return out;
        }
    });
}

Answer<ProbeReport> probe_report(dtb_tablebase* tb, const dtb_position& pos) {
    ProbeReport r;
    r.position = pos;
    r.fen = fen_of(pos);
    if (const int s = dtb_probe_dtw(tb, &pos, &r.value); s != DTB_OK) return failure(tb, s);
    dtb_move best;
    const int s = dtb_best_move(tb, &pos, &best, nullptr);
    if (s == DTB_OK)
        r.best_move = best.text;
    else if (s != DTB_NO_MOVE)
        return failure(tb, s);
    if (r.value.wdl != DTB_DRAW || r.value.dtw != 0) {
        int rule_wdl = 0;
        const int s3 = dtb_probe_dtc(tb, &pos, &rule_wdl, &r.dtc);
        if (s3 == DTB_OK) {
            r.rule_wdl = rule_wdl;
            if (rule_wdl != DTB_DRAW) {
                auto line = rule_line(tb, pos, MovesPlayed{});
                if (const auto* e = std::get_if<QueryError>(&line)) return *e;
                r.rule_line = std::get<std::vector<std::string>>(line);
            }
        } else if (s3 != DTB_MISSING_TABLE && s3 != DTB_TOO_MANY_PIECES)  // no .dtc table: no such values
            return failure(tb, s3);
    }
    if (r.value.wdl != DTB_DRAW && r.value.dtw > 0) {
        std::vector<dtb_move> line(static_cast<std::size_t>(r.value.dtw));
        std::size_t length = 0;
        if (const int s2 = dtb_principal_variation(tb, &pos, line.data(), line.size(), &length, nullptr); s2 != DTB_OK)
            return failure(tb, s2);
        for (std::size_t i = 0; i < length; ++i) r.pv.push_back(line[i].text);
    }
    return r;
}

Answer<std::vector<std::string>> rule_line(dtb_tablebase* tb, const dtb_position& pos, const MovesPlayed& played) {
    std::vector<dtb_move> moves(64);
    std::size_t length = 0;
    const auto ask = [&] {
        return dtb_rule_line(tb, &pos, played.moves, played.king_moves, played.conversion_moves, moves.data(),
                             moves.size(), &length);
    };
    int s = ask();
    if (s == DTB_BUFFER_TOO_SMALL) {
        moves.resize(length);
        s = ask();
    }
    if (s != DTB_OK) return failure(tb, s);
    std::vector<std::string> out;
    for (std::size_t i = 0; i < length; ++i) out.push_back(moves[i].text);
    return out;
}

const char* rule_class_word(int wdl, int rule_wdl) {
    if (rule_wdl == DTB_WIN) return "win";
    if (rule_wdl == DTB_LOSS) return "loss";
    return wdl == DTB_WIN ? "count-drawn win" : wdl == DTB_LOSS ? "count-saved loss" : "draw";
}

Answer<std::vector<ValuedMove>> probe_moves(dtb_tablebase* tb, const dtb_position& pos) {
    std::vector<dtb_root_move> root(64);
    std::size_t count = 0;
    int s = dtb_probe_root(tb, &pos, root.data(), root.size(), &count);
    if (s == DTB_BUFFER_TOO_SMALL) {
        root.resize(count);
        s = dtb_probe_root(tb, &pos, root.data(), root.size(), &count);
    }
    if (s != DTB_OK) return failure(tb, s);
    std::vector<ValuedMove> moves;
    for (std::size_t i = 0; i < count; ++i) {
        ValuedMove m{root[i].move, root[i].value, {}, std::nullopt, -1};
        if (const int s2 = dtb_position_after(&pos, &m.move, &m.after); s2 != DTB_OK) return failure(tb, s2);
        moves.push_back(m);
    }
    // The values under the counts, where the .dtc tables are there (in the
    // same order: both lists are the move generator's).
    std::vector<dtb_rule_move> rules(count);
    std::size_t rule_count = 0;
    const int s3 = dtb_rule_root(tb, &pos, 0, -1, -1, rules.data(), rules.size(), &rule_count);
    if (s3 == DTB_OK && rule_count == count) {
        for (std::size_t i = 0; i < count; ++i) {
            if (rules[i].move.from != moves[i].move.from || rules[i].move.to != moves[i].move.to)
                return QueryError{DTB_INTERNAL_ERROR, "dtb_rule_root and dtb_probe_root list the moves apart"};
            moves[i].rule_wdl = rules[i].rule_wdl;
            moves[i].dtc = rules[i].dtc;
        }
    } else if (s3 != DTB_OK && s3 != DTB_MISSING_TABLE && s3 != DTB_TOO_MANY_PIECES) {
        return failure(tb, s3);
    }
    std::stable_sort(moves.begin(), moves.end(), [](const ValuedMove& a, const ValuedMove& b) {
        // The tables' one order of values (tables/values.hpp): fastest win first.
        return better(Tables::decoded(a.value), Tables::decoded(b.value));
    });
    return moves;
}

bool must_capture(const std::vector<ValuedMove>& moves) { return !moves.empty() && moves.front().move.n_captured > 0; }

Answer<std::vector<LinePly>> probe_line(dtb_tablebase* tb, const dtb_position& pos, const dtb_value& value) {
    std::vector<LinePly> plies;
    if (value.wdl == DTB_DRAW || value.dtw <= 0) return plies;
    std::vector<dtb_move> line(static_cast<std::size_t>(value.dtw));
    std::size_t length = 0;
    if (const int s = dtb_principal_variation(tb, &pos, line.data(), line.size(), &length, nullptr); s != DTB_OK)
        return failure(tb, s);
    // Along the line each ply takes one off the distance and hands the
    // value to the other side: a win in d is a loss in d - 1 after it.
    dtb_position at = pos;
    dtb_value v = value;
    for (std::size_t i = 0; i < length; ++i) {
        LinePly ply{line[i], {}, {-v.wdl, v.dtw - 1}};
        if (const int s = dtb_position_after(&at, &ply.move, &ply.after); s != DTB_OK) return failure(tb, s);
        plies.push_back(ply);
        at = ply.after;
        v = ply.value;
    }
    return plies;
}

Answer<dtb_adjudication> adjudicate(dtb_tablebase* tb, const dtb_position& pos, const MovesPlayed& played) {
    dtb_adjudication a;
    const int s = dtb_adjudicate_counts(tb, &pos, played.moves, played.king_moves, played.conversion_moves, &a);
    if (s != DTB_OK) return failure(tb, s);
    return a;
}

}  // namespace dtb
