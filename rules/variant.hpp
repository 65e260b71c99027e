// The variants dtb knows, each a small traits type (after Rein Halbersma's
// DCTL), and the one list of them. Code that depends on a rule asks the
// traits type, never "which variant is this"; code that needs every
// variant (command-line choices, file names, the C API, the server's
// routes) walks the list. Adding a variant is an id, a traits type and an
// entry in DTB_FOR_EACH_VARIANT, with its draw rules in
// rules/draw_rules.hpp and its C code in dtb/probe.h.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "rules/draw_rules.hpp"
#include "rules/geometry.hpp"

namespace dtb {

// A variant's number: written into every table file's header and used as
// the C API's DTB_* code (checked in probe/convert.hpp). Never renumber;
// a new variant takes the next number.
enum class VariantId : std::uint8_t { Russian = 0, International = 1, Brazilian = 2 };

// Russian checkers (official rules 2.1; docs/RULES.md).
struct Russian {
    using Board = Board8;
    static constexpr VariantId id = VariantId::Russian;
    static constexpr std::string_view name = "russian";
    static constexpr std::string_view board_text = "8x8";
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
    // Points a win scores in a PDN result ("1-0").
    static constexpr int points_for_win = 1;
    // 2.1.9.1.3-.9: the move-count draw rules (rules/draw_rules.hpp).
    static constexpr std::span<const DrawRule> draw_rules{kRussianDrawRules};
};

// International (100-square) draughts (official rules 3; docs/RULES.md).
struct International {
    using Board = Board10;
    static constexpr VariantId id = VariantId::International;
    static constexpr std::string_view name = "international";
    static constexpr std::string_view board_text = "10x10";
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
    // FMJD scoring: a win is two points ("2-0"), a draw one each ("1-1").
    static constexpr int points_for_win = 2;
    // 3.5: the move-count draw rules (rules/draw_rules.hpp).
    static constexpr std::span<const DrawRule> draw_rules{kInternationalDrawRules};
};

// Brazilian draughts: the international rules on the 8x8 board (docs/RULES.md
// section 6, after the rules of the Brazilian draughts confederation, CBD).
struct Brazilian {
    using Board = Board8;
    static constexpr VariantId id = VariantId::Brazilian;
    static constexpr std::string_view name = "brazilian";
    static constexpr std::string_view board_text = "8x8";
    // 12 men a side on the three nearest rows, as in Russian.
    static constexpr std::string_view initial_fen = "W:W21-32:B1-12";
    static constexpr int max_pieces_per_side = 12;
    // CBD rule 12 ("Lei da Maioria"): the sequence that takes the most
    // pieces is compulsory, men and kings counting alike.
    static constexpr bool majority_capture = true;
    // CBD rule 13: a man that only passes the last row during a capture is
    // not crowned.
    static constexpr bool crowns_during_capture = false;
    // Brazilian records write squares a1..h8, as Russian ones do.
    static constexpr bool algebraic_notation = true;
    static constexpr int pdn_game_type = 26;
    // Brazilian events score a win one point ("1-0").
    static constexpr int points_for_win = 1;
    // CBD rule 16: the move-count draw rule (rules/draw_rules.hpp).
    static constexpr std::span<const DrawRule> draw_rules{kBrazilianDrawRules};
};

// THE list of variants, in id order. X(V) for each traits type V; used for
// the explicit template instantiations of the .cpp files and for Variants.
#define DTB_FOR_EACH_VARIANT(X) X(Russian) X(International) X(Brazilian)

// The list as a type: VariantList<Russian, International, ...>.
template <class... V>
struct VariantList {
    static constexpr std::size_t size = sizeof...(V);
};
namespace detail {
// ", V" for each variant, after a leading void that this drops.
template <class Void, class... V>
struct ListAfterVoid {
    using type = VariantList<V...>;
};
}  // namespace detail
#define DTB_VARIANT_LIST_ENTRY(V) , V
using Variants = detail::ListAfterVoid<void DTB_FOR_EACH_VARIANT(DTB_VARIANT_LIST_ENTRY)>::type;
#undef DTB_VARIANT_LIST_ENTRY

namespace detail {
template <class... V>
constexpr auto ids_of(VariantList<V...>) {
    return std::array<VariantId, sizeof...(V)>{V::id...};
}
template <class... V>
constexpr auto names_of(VariantList<V...>) {
    return std::array<std::string_view, sizeof...(V)>{V::name...};
}
}  // namespace detail

// Every variant's id and name, in list order.
inline constexpr auto kVariantIds = detail::ids_of(Variants{});
inline constexpr auto kVariantNames = detail::names_of(Variants{});

// The list is in id order with no gap, so that an id is an index into it.
constexpr bool ids_are_list_positions() {
    for (std::size_t i = 0; i < kVariantIds.size(); ++i)
        if (static_cast<std::size_t>(kVariantIds[i]) != i) return false;
    return true;
}
static_assert(ids_are_list_positions(), "DTB_FOR_EACH_VARIANT lists the variants in id order, from 0, with no gap");

// An id read from outside (a file, the C API): nullopt for a number no
// variant has.
constexpr std::optional<VariantId> variant_from_number(int number) {
    if (number < 0 || number >= static_cast<int>(kVariantIds.size())) return std::nullopt;
    return kVariantIds[static_cast<std::size_t>(number)];
}

// Thrown for an id that is not in the list: a VariantId made from a number
// that was never checked (variant_from_number checks).
class UnknownVariant : public std::invalid_argument {
public:
    explicit UnknownVariant(VariantId id)
        : std::invalid_argument("unknown variant number " + std::to_string(static_cast<int>(id))) {}
};

inline std::optional<VariantId> parse_variant(std::string_view text) {
    for (std::size_t i = 0; i < kVariantNames.size(); ++i)
        if (text == kVariantNames[i]) return kVariantIds[i];
    return std::nullopt;
}

inline std::string_view variant_name(VariantId id) {
    const auto i = static_cast<std::size_t>(id);
    if (i >= kVariantNames.size()) throw UnknownVariant(id);
    return kVariantNames[i];
}

// "a, b or c" (or "a, b and c").
template <class Strings>
std::string choice_list(const Strings& choices, std::string_view last_separator = " or ") {
    std::string text;
    std::size_t i = 0;
    for (const auto& choice : choices) {
        if (i > 0) text += i + 1 == std::size(choices) ? std::string(last_separator) : std::string(", ");
        text += choice;
        ++i;
    }
    return text;
}

// The variants' names as "a, b or c", for messages.
inline std::string variant_choices() { return choice_list(kVariantNames); }

namespace detail {
template <class F, class V, class... Rest>
decltype(auto) dispatch(VariantId id, F&& f, VariantList<V, Rest...>) {
    if (id == V::id) return std::forward<F>(f).template operator()<V>();
    if constexpr (sizeof...(Rest) == 0)
        throw UnknownVariant(id);
    else
        return dispatch(id, std::forward<F>(f), VariantList<Rest...>{});
}
template <class F, class... V>
constexpr void each(F&& f, VariantList<V...>) {
    (f.template operator()<V>(), ...);
}
template <template <class> class T, class... V>
std::variant<T<V>...> variant_of(VariantList<V...>);
}  // namespace detail

// Runs f.template operator()<V>() with the traits type of the variant: the
// one place where a runtime variant becomes a compile-time one. Every
// variant's call must return the same type. An id not in the list throws
// UnknownVariant.
template <class F>
decltype(auto) with_variant(VariantId id, F&& f) {
    return detail::dispatch(id, std::forward<F>(f), Variants{});
}

// Runs f.template operator()<V>() for every variant, in list order.
template <class F>
constexpr void for_each_variant(F&& f) {
    detail::each(std::forward<F>(f), Variants{});
}

// std::variant<T<Russian>, T<International>, ...>: one of a template per
// variant (probe/tablebase.hpp's position index).
template <template <class> class T>
using PerVariant = decltype(detail::variant_of<T>(Variants{}));

// The variant a PDN GameType number stands for (25 russian, ...).
inline std::optional<VariantId> variant_of_game_type(int game_type) {
    std::optional<VariantId> found;
    for_each_variant([&]<class V>() {
        if (V::pdn_game_type == game_type) found = V::id;
    });
    return found;
}

// The GameType numbers read, each with its variant: "25 russian, 20 international, ...".
inline std::string game_types_text() {
    std::string text;
    for_each_variant([&]<class V>() {
        if (!text.empty()) text += ", ";
        text += std::to_string(V::pdn_game_type) + " " + std::string(V::name);
    });
    return text;
}

// The most pieces a side can have: what it starts with.
inline int max_pieces_per_side(VariantId id) {
    return with_variant(id, []<class V>() { return V::max_pieces_per_side; });
}

}  // namespace dtb
