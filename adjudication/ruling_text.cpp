#include "adjudication/ruling_text.hpp"

namespace dtb::adjudication {

namespace {

std::string plural(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}
std::string moves_text(int n) { return plural(std::size_t(n), "move", "moves"); }
std::string side_name(Color c) { return c == White ? "White" : "Black"; }

std::string rule_id(std::span<const DrawRule> rules, std::optional<std::size_t> i) {
    return i ? std::string(rules[*i].id) : std::string();
}

// Why the tables do not settle it (judge.hpp's header), and, when
// the search did not either, how far it went.
std::string doubt_text(std::span<const DrawRule> rules, const Ruling& a) {
    const DoubtDetail& d = a.doubt;
    const std::string into = "a capture or crowning on the way may lead into " + d.into.name();
    std::string text;
    switch (d.kind) {
        case Doubt::none:
            break;
        case Doubt::needs_dtc:
            text = std::string("a capture or a crowning") +
                   (rules[*a.rule].count == DrawCount::king_moves ? " or a man move" : "") +
                   " within them starts the count of " + std::string(rules[*a.rule].id) + " again, and whether " +
                   side_name(*a.stronger) +
                   " can force one and still win needs the distance to conversion (DTC), which the tables do not "
                   "store";
            break;
        case Doubt::conversion_unknown:
            text = into + ", where rule " + rule_id(rules, d.fresh_rule) + " starts a count of " +
                   moves_text(d.fresh_moves) + ", and its longest win is unknown: missing table " + d.missing_file;
            break;
        case Doubt::conversion_unrecorded:
            text = into + ", where rule " + rule_id(rules, d.fresh_rule) + " starts a count of " +
                   moves_text(d.fresh_moves) + ", and its longest win is unknown: " + d.missing_file +
                   " (format version 1) does not record its longest win and loss: generate it again";
            break;
        case Doubt::conversion_longer:
            text = into + ", where wins take up to " + moves_text(d.longest_moves) + " but rule " +
                   rule_id(rules, d.fresh_rule) + " starts a count of " + moves_text(d.fresh_moves);
            break;
    }
    if (!a.exact)
        text += " (a search over the tables gave up after " + plural(a.search_nodes, "position", "positions") + ")";
    return text;
}

// A rule applies and the stronger side can win with best play: DTW against
// the moves the rule leaves, settled by DTW or by the search, or not.
std::string win_verdict(std::span<const DrawRule> rules, const Ruling& a, const std::string& leaves_only) {
    const std::string S = side_name(*a.stronger), D = side_name(opponent(*a.stronger));
    const std::string id(rules[*a.rule].id);
    const std::string leaves = "rule " + id + leaves_only;
    const int need = *a.moves_needed;
    const bool fits = need <= a.moves_left;
    const std::string need_text = S + " needs " + moves_text(need) + " to win with best play (DTW " +
                                  std::to_string(a.value) + " plies, " + side_name(a.side_to_move) + " to move)";
    if (a.basis == Basis::search || a.basis == Basis::dtc) {
        const std::string shows =
            a.basis == Basis::dtc ? "the values under the counts (.dtc tables) show" : "a search over the tables shows";
        if (a.winnable && fits)
            return "Winnable: " + need_text + " and " + leaves + "; " + shows +
                   " no count that a capture or crowning starts on the way cuts it short.";
        if (a.winnable)
            return "Winnable: " + need_text + ", more than " + leaves + ", but " + shows + " " + S +
                   " can force a capture or crowning that starts the count again and still win.";
        if (fits)
            return "Draw by rule: " + need_text + " and " + leaves + ", but " + shows + " " + D +
                   " can force a capture or crowning into a count that ends the game first.";
        return "Draw by rule " + id + ": " + need_text + ", more than " + leaves + "; " + shows + " " + S +
               " cannot start the count again in time either.";
    }
    if (a.winnable) {
        std::string v = "Winnable: " + need_text + " and " + leaves + ".";
        if (!a.exact) v += " Not proven, though: " + doubt_text(rules, a) + ".";
        return v;
    }
    if (a.exact)
        return "Draw by rule " + id + ": " + need_text + ", but the rule" + leaves_only + "; " + D +
               " can hold out past them.";
    return "Not settled: " + need_text + ", more than " + leaves + "; but " + doubt_text(rules, a) + ".";
}

// " (Rules 2.1.9.1.4 2.1.9.1.8 leave as many moves.)"
std::string also_text(std::span<const DrawRule> rules, const std::vector<std::size_t>& also) {
    if (also.empty()) return {};
    std::string v = " (Rule";
    if (also.size() > 1) v += "s";
    for (std::size_t i : also) v += " " + std::string(rules[i].id);
    v += also.size() > 1 ? " leave" : " leaves";
    return v + " as many moves.)";
}

}  // namespace

std::string verdict_text(std::span<const DrawRule> rules, const Ruling& a) {
    if (!a.rule)
        return "No move-count draw rule covers this material (" + a.material.name() + " with " +
               side_name(a.side_to_move) + " to move); only a threefold repetition could draw it by rule.";
    const DrawRule& rule = rules[*a.rule];
    const std::string S = side_name(*a.stronger);
    const int made = a.rules[*a.rule].moves_made;
    // "the rule leaves White 12 of its 15 moves (3 played)"
    const std::string leaves_only = " leaves " + S + " " + std::to_string(a.moves_left) + " of its " +
                                    moves_text(a.limit) + " (" + std::to_string(made) + " played)";
    switch (a.basis) {
        case Basis::no_rule:
        case Basis::count:
            return "Drawn by rule " + std::string(rule.id) + " (" + std::string(rule.title) + "): its count of " +
                   moves_text(a.limit) + " has run out (" + std::to_string(made) + " played).";
        case Basis::wdl:
            return S + " cannot win at all: the tables give " + (a.wdl == 0 ? "a draw" : "a loss for " + S) +
                   " with best play, count or no count (rule " + std::string(rule.id) + leaves_only + ").";
        case Basis::dtw:
        case Basis::search:
        case Basis::dtc:
            break;
    }
    return win_verdict(rules, a, leaves_only) + also_text(rules, a.also);
}

const char* basis_name(Basis b) {
    switch (b) {
        case Basis::no_rule:
            return "no rule";
        case Basis::count:
            return "count";
        case Basis::wdl:
            return "wdl";
        case Basis::dtw:
            return "dtw";
        case Basis::search:
            return "search";
        case Basis::dtc:
            return "dtc";
    }
    return "unknown";
}

const char* rule_note_text(RuleNote n) {
    switch (n) {
        case RuleNote::applies:
            return "";
        case RuleNote::needs_game:
            return "counts positions over the whole game: give the game (--pdn)";
        case RuleNote::other_material:
            return "not this material";
        case RuleNote::no_stronger_king_on_road:
            return "no king of the stronger side on the main road";
        case RuleNote::lone_king_off_road:
            return "the lone king is not on the main road";
    }
    return "";
}

}  // namespace dtb::adjudication
