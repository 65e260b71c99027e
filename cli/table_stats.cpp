#include "cli/table_stats.hpp"

#include <bit>

#include "probe/convert.hpp"
#include "tables/position_index.hpp"

namespace dtb {

namespace {

// "1,234,567": counts in the messages.
std::string grouped(std::uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

std::string material_text(VariantId variant, const MaterialSignature& sig) {
    return std::string(variant_name(variant)) + " " + sig.name();
}

// Keeps the first examples of the longest distance seen so far.
void note_extreme(int dtw, const dtb_position& pos, int& longest, std::vector<std::string>& fens) {
    if (dtw < longest) return;
    if (dtw > longest) {
        longest = dtw;
        fens.clear();
    }
    if (int(fens.size()) < kStatsExamples) fens.push_back(fen_of(pos));
}

}  // namespace

MaterialSignature material_of(const dtb_position& pos) {
    const std::uint64_t us = pos.side_to_move == DTB_WHITE ? pos.white : pos.black;
    const std::uint64_t them = pos.side_to_move == DTB_WHITE ? pos.black : pos.white;
    const auto count = [](std::uint64_t bits) { return int(std::popcount(bits)); };
    return {{count(us & ~pos.kings), count(them & ~pos.kings)}, {count(us & pos.kings), count(them & pos.kings)}};
}

std::uint64_t material_positions(VariantId variant, const MaterialSignature& sig) {
    return with_variant(variant, [&]<class V>() {
        const std::uint64_t own = PositionIndex<V>(sig).size();
        return sig.is_symmetric() ? own : own + PositionIndex<V>(sig.mirror()).size();
    });
}

std::optional<std::string> impossible_material(VariantId variant, const MaterialSignature& sig) {
    if (sig.pieces(0) == 0 || sig.pieces(1) == 0)
        return "the material " + sig.name() + " has a side without pieces: no table holds it (the game is over)";
    const int most = max_pieces_per_side(variant);
    if (sig.pieces(0) > most || sig.pieces(1) > most)
        return "the material " + material_text(variant, sig) + " gives a side more than the " + std::to_string(most) +
               " pieces it starts with";
    return std::nullopt;
}

std::optional<std::string> stats_refusal(VariantId variant, const MaterialSignature& sig) {
    if (auto why = impossible_material(variant, sig)) return why;
    const std::uint64_t positions = material_positions(variant, sig);
    if (positions > kMaxStatsPositions)
        return "the tables of " + material_text(variant, sig) + " hold " + grouped(positions) +
               " positions: statistics are scanned for materials of at most " + grouped(kMaxStatsPositions) +
               " positions (both sides to move together)";
    return std::nullopt;
}

Answer<SideToMoveStats> scan_table(dtb_tablebase* tb, VariantId variant, const MaterialSignature& sig) {
    return with_variant(variant, [&]<class V>() -> Answer<SideToMoveStats> {
        const PositionIndex<V> index(sig);
        SideToMoveStats s;
        s.material = sig;
        s.positions = index.size();
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const dtb_position pos = probe::to_c(index.unrank(i));
            dtb_value v;
            if (const int status = dtb_probe_dtw(tb, &pos, &v); status != DTB_OK)
                return QueryError{status, dtb_error_message(tb)};
            if (v.wdl == DTB_WIN) {
                ++s.wins;
                note_extreme(v.dtw, pos, s.longest_win, s.longest_win_fens);
            } else if (v.wdl == DTB_LOSS) {
                ++s.losses;
                note_extreme(v.dtw, pos, s.longest_loss, s.longest_loss_fens);
            } else {
                ++s.draws;
            }
        }
        return s;
    });
}

Answer<TableStats> TableStatsCache::get(dtb_tablebase* tb, VariantId variant, const MaterialSignature& sig) {
    if (auto why = stats_refusal(variant, sig)) return QueryError{DTB_BAD_ARGUMENT, *why};
    TableStats stats{variant, sig, {}};
    for (const MaterialSignature& s : sig.is_symmetric() ? std::vector{sig} : std::vector{sig, sig.mirror()}) {
        auto one = side(tb, variant, s);
        if (auto* e = std::get_if<QueryError>(&one)) return *e;
        stats.tables.push_back(std::get<SideToMoveStats>(std::move(one)));
    }
    return stats;
}

Answer<SideToMoveStats> TableStatsCache::side(dtb_tablebase* tb, VariantId variant, const MaterialSignature& sig) {
    const Key key{tb, variant, sig};
    std::optional<std::promise<Answer<SideToMoveStats>>> ours;  // set when this thread is to scan
    Scan scan;
    {
        std::lock_guard lock(mutex_);
        auto [it, inserted] = scans_.try_emplace(key);
        if (inserted) {
            ours.emplace();
            it->second = ours->get_future().share();
        }
        scan = it->second;
    }
    if (!ours) return scan.get();  // scanned, or being scanned by another thread

    const auto scanned = [&]() -> Answer<SideToMoveStats> {
        try {
            std::lock_guard one_at_a_time(scanning_);
            return scan_table(tb, variant, sig);
        } catch (const std::bad_alloc&) {
            return QueryError{DTB_OUT_OF_MEMORY, "out of memory scanning " + material_text(variant, sig)};
        } catch (const std::exception& e) {
            return QueryError{DTB_INTERNAL_ERROR,
                              "internal error scanning " + material_text(variant, sig) + ": " + e.what()};
        }
    };
    const Answer<SideToMoveStats> answer = scanned();
    if (std::holds_alternative<QueryError>(answer)) {
        std::lock_guard lock(mutex_);
        scans_.erase(key);  // not kept: the next request tries again
    }
    ours->set_value(answer);
    return answer;
}

}  // namespace dtb
