// The rules that differ between variants, as small traits types (after
// Rein Halbersma's DCTL). Code that depends on a rule asks the traits type,
// never "which variant is this".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "rules/draw_rules.hpp"
#include "rules/geometry.hpp"

namespace dtb {

enum class VariantId { Russian, International };

// Russian checkers (official rules 2.1; docs/RULES.md).
struct Russian {
    using Board = Board8;
    static constexpr VariantId id = VariantId::Russian;
    static constexpr std::string_view name = "russian";
    // Each side starts with 12 men on the three rows nearest to it, and
    // never has more pieces than that.
    static constexpr std::string_view initial_fen = "W:W21-32:B1-12";
    static constexpr int max_pieces_per_side = 12;
    // 2.1.5.14: free choice among captures, whatever they take.
    static constexpr bool majority_capture = false;
    // 2.1.5.15: a man reaching the last row during a capture is crowned at
    // once and goes on capturing as a king in the same move.
    static constexpr bool crowns_during_capture = true;
    // 2.1.6: squares are written a1..h8.
    static constexpr bool algebraic_notation = true;
    // PDN GameType tag value.
    static constexpr int pdn_game_type = 25;
    // 2.1.9.1.3-.9: the move-count draw rules (rules/draw_rules.hpp).
    static constexpr std::span<const DrawRule> draw_rules{kRussianDrawRules};
};

// International (100-square) draughts (official rules 3; docs/RULES.md).
struct International {
    using Board = Board10;
    static constexpr VariantId id = VariantId::International;
    static constexpr std::string_view name = "international";
    // Each side starts with 20 men on the four rows nearest to it, and
    // never has more pieces than that.
    static constexpr std::string_view initial_fen = "W:W31-50:B1-20";
    static constexpr int max_pieces_per_side = 20;
    // 3.4.1: the sequence that takes the most pieces is compulsory.
    static constexpr bool majority_capture = true;
    // 3.4.2: a man passing the last row during a capture stays a man; it is
    // crowned only if the move ends there.
    static constexpr bool crowns_during_capture = false;
    // 3.3: squares are numbered 1..50.
    static constexpr bool algebraic_notation = false;
    static constexpr int pdn_game_type = 20;
    // 3.5: the move-count draw rules (rules/draw_rules.hpp).
    static constexpr std::span<const DrawRule> draw_rules{kInternationalDrawRules};
};

inline std::optional<VariantId> parse_variant(std::string_view text) {
    if (text == Russian::name) return VariantId::Russian;
    if (text == International::name) return VariantId::International;
    return std::nullopt;
}

inline std::string_view variant_name(VariantId id) {
    return id == VariantId::Russian ? Russian::name : International::name;
}

// Runs f.template operator()<V>() with the traits type of the variant: the
// one place where a runtime variant becomes a compile-time one.
template <class F>
decltype(auto) with_variant(VariantId id, F&& f) {
    if (id == VariantId::Russian) return std::forward<F>(f).template operator()<Russian>();
    return std::forward<F>(f).template operator()<International>();
}

// The most pieces a side can have: what it starts with.
inline int max_pieces_per_side(VariantId id) {
    return with_variant(id, []<class V>() { return V::max_pieces_per_side; });
}

}  // namespace dtb
