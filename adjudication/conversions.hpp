// What a capture or a crowning on the way can do to a win under the
// move-count draw rules: start a count afresh in the material it leads
// into. For the judge (judge.hpp) and its search (count_search.hpp): the
// materials a game can convert into, the shortest count each can start,
// and the longest win each holds (from the headers of their WDL tables,
// docs/FORMAT.md).
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "adjudication/ruling.hpp"
#include "probe/tablebase.hpp"
#include "rules/draw_rules.hpp"
#include "rules/position.hpp"
#include "tables/table_names.hpp"

namespace dtb::adjudication {

using probe::Failure;
using probe::Outcome;
using probe::Status;
using probe::Tablebase;

namespace detail {

// The side's material, as counts.
struct Material {
    int kings = 0;
    int men = 0;
    int pieces() const { return kings + men; }
    friend bool operator==(const Material&, const Material&) = default;
};

template <class V>
Material material_of(const Position<V>& pos, Color c) {
    return {popcount(pos.kings_of(c)), popcount(pos.men(c))};
}

// Why the longest win of a material is not known: its WDL table (the file
// name) is missing or unreadable, or is of format version 1, which does not
// record it.
struct UnknownLongest {
    std::string file;
    bool unrecorded = false;
};

// The most moves the side `s` needs to win any position of material
// (s, d), either side to move, by the headers of their WDL tables (the
// longest win of s to move, the longest loss of d to move); nullopt if one
// is missing or does not record it (*unknown then says which and why).
template <class V>
std::optional<int> longest_win_moves(const Tablebase& tb, Material s, Material d, UnknownLongest* unknown) {
    constexpr VariantId variant = V::id;
    const MaterialSignature s_to_move{{s.men, d.men}, {s.kings, d.kings}};
    const auto own = tb.extremes(variant, s_to_move);
    const auto other = own ? tb.extremes(variant, s_to_move.mirror()) : own;
    if (!own || !other) {
        const MaterialSignature which = own ? s_to_move.mirror() : s_to_move;
        unknown->file = table_file_name(variant, which, compress::Metric::wdl);
        // The table opens, so what it lacks is the record (format version 1).
        unknown->unrecorded = bool(tb.table(variant, which, compress::Metric::wdl));
        return std::nullopt;
    }
    const int win = own->longest_win, loss = other->longest_loss;  // -1: no win, no loss
    return std::max(win < 0 ? 0 : (win + 1) / 2, loss < 0 ? 0 : loss / 2);
}

// The fewest moves a count that starts afresh in material (s, d) can leave
// side s: the least limit of the rules that can cover it, in any position
// (board conditions ignored), and that rule (index in V::draw_rules). A
// large number and no rule when none can.
template <class V>
int fresh_count_moves(Material s, Material d, std::optional<std::size_t>* rule) {
    int least = kAnyNumber;
    const auto lone_covers = [](const DrawRule& r, Material strong, Material lone) {
        return lone.kings == 1 && lone.men == 0 && r.kings.contains(strong.kings) && r.men.contains(strong.men) &&
               r.pieces.contains(strong.pieces());
    };
    for (std::size_t i = 0; i < V::draw_rules.size(); ++i) {
        const DrawRule& r = V::draw_rules[i];
        int moves = kAnyNumber;
        switch (r.count) {
            case DrawCount::stronger_side_moves:
                if (lone_covers(r, s, d)) moves = r.limit;
                // s the lone king: it moves at most once less than the other side.
                if (lone_covers(r, d, s)) moves = std::min(moves, r.limit - 1);
                break;
            case DrawCount::moves_without_conversion:
                if (s.kings > 0 && d.kings > 0 && r.total.contains(s.pieces() + d.pieces())) moves = r.limit;
                break;
            case DrawCount::king_moves:
                if (s.kings > 0 && d.kings > 0) moves = r.limit;
                break;
            case DrawCount::repetitions:
                break;
        }
        if (moves < least) {
            least = moves;
            *rule = i;
        }
    }
    return least;
}

// Whether a win of side s (material s against d) that needs at most
// `remaining` more moves after any capture or crowning fits every count
// such a conversion can start: for each material the game can convert into,
// either `remaining` or its longest win (table headers) fits its shortest fresh
// count. On failure *why says which material and count.
template <class V>
bool conversions_fit(const Tablebase& tb, Material s, Material d, int remaining, DoubtDetail* why) {
    // Every material reachable by captures (pieces lost) and crownings (men
    // become kings), neither side left empty, the present one excluded.
    const auto reachable = [](Material now) {
        std::vector<Material> out;
        for (int men = 0; men <= now.men; ++men)
            for (int kings = 0; kings + men <= now.pieces() && kings <= now.kings + (now.men - men); ++kings)
                if (kings + men > 0) out.push_back({kings, men});
        return out;
    };
    for (const Material s2 : reachable(s))
        for (const Material d2 : reachable(d)) {
            if (s2 == s && d2 == d) continue;
            std::optional<std::size_t> rule;
            const int fresh = fresh_count_moves<V>(s2, d2, &rule);
            if (remaining <= fresh) continue;
            UnknownLongest unknown;
            const std::optional<int> longest = longest_win_moves<V>(tb, s2, d2, &unknown);
            if (longest && *longest <= fresh) continue;
            why->into = MaterialSignature{{s2.men, d2.men}, {s2.kings, d2.kings}};
            why->fresh_rule = rule;
            why->fresh_moves = fresh;
            if (!longest) {
                why->kind = unknown.unrecorded ? Doubt::conversion_unrecorded : Doubt::conversion_unknown;
                why->missing_file = unknown.file;
            } else {
                why->kind = Doubt::conversion_longer;
                why->longest_moves = *longest;
            }
            return false;
        }
    return true;
}

}  // namespace detail

}  // namespace dtb::adjudication
