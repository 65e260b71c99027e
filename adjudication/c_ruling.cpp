#include "adjudication/c_ruling.hpp"

#include <algorithm>
#include <cstring>

#include "probe/convert.hpp"

namespace dtb::adjudication {

using probe::copy_text;

static_assert(int(Basis::no_rule) == DTB_BASIS_NO_RULE && int(Basis::count) == DTB_BASIS_COUNT &&
              int(Basis::wdl) == DTB_BASIS_WDL && int(Basis::dtw) == DTB_BASIS_DTW &&
              int(Basis::search) == DTB_BASIS_SEARCH && int(Basis::dtc) == DTB_BASIS_DTC);
static_assert(int(RuleNote::applies) == DTB_RULE_APPLIES && int(RuleNote::needs_game) == DTB_RULE_NEEDS_GAME &&
              int(RuleNote::other_material) == DTB_RULE_OTHER_MATERIAL &&
              int(RuleNote::no_stronger_king_on_road) == DTB_RULE_NO_STRONGER_KING_ON_ROAD &&
              int(RuleNote::lone_king_off_road) == DTB_RULE_LONE_KING_OFF_ROAD);
static_assert(int(Doubt::none) == DTB_DOUBT_NONE && int(Doubt::needs_dtc) == DTB_DOUBT_NEEDS_DTC &&
              int(Doubt::conversion_longer) == DTB_DOUBT_CONVERSION_LONGER &&
              int(Doubt::conversion_unknown) == DTB_DOUBT_CONVERSION_UNKNOWN &&
              int(Doubt::conversion_unrecorded) == DTB_DOUBT_CONVERSION_UNRECORDED);

namespace {

int c_color(Color c) { return c == White ? DTB_WHITE : DTB_BLACK; }
Color from_c_color(int c) { return c == DTB_WHITE ? White : Black; }

void doubt_to_c(const DoubtDetail& d, dtb_doubt& c) {
    c.kind = int(d.kind);
    c.rule = d.fresh_rule ? int(*d.fresh_rule) : -1;
    c.fresh_moves = d.fresh_moves;
    c.longest_moves = d.longest_moves;
    for (int side = 0; side < 2; ++side) {
        c.kings[side] = d.into.kings[side];
        c.men[side] = d.into.men[side];
    }
    copy_text(d.missing_file, c.missing_file, sizeof c.missing_file);
}

bool in_range(int value, int least, int most) { return least <= value && value <= most; }

// Piece counts a side can have (and a signature's name can spell).
bool counts_ok(const int (&kings)[2], const int (&men)[2]) {
    for (int side = 0; side < 2; ++side)
        if (!in_range(kings[side], 0, DTB_MAX_CAPTURED) || !in_range(men[side], 0, DTB_MAX_CAPTURED)) return false;
    return true;
}

// Every code and index of `c` in range, and the numbers its verdict reads
// present.
bool valid(std::span<const DrawRule> rules, const dtb_adjudication& c) {
    const int n = int(rules.size());
    if (c.n_rules != rules.size() || !in_range(c.side_to_move, DTB_WHITE, DTB_BLACK)) return false;
    if (!in_range(c.rule, -1, n - 1) || !in_range(c.stronger_side, -1, DTB_BLACK)) return false;
    if (!in_range(c.basis, DTB_BASIS_NO_RULE, DTB_BASIS_DTC)) return false;
    if (!in_range(c.doubt.kind, DTB_DOUBT_NONE, DTB_DOUBT_CONVERSION_UNRECORDED) || !in_range(c.doubt.rule, -1, n - 1))
        return false;
    if (!counts_ok(c.kings, c.men) || !counts_ok(c.doubt.kings, c.doubt.men)) return false;
    if (std::memchr(c.doubt.missing_file, '\0', sizeof c.doubt.missing_file) == nullptr) return false;
    if (c.rule >= 0 && c.stronger_side < 0) return false;
    const bool by_dtw = c.basis == DTB_BASIS_DTW || c.basis == DTB_BASIS_SEARCH || c.basis == DTB_BASIS_DTC;
    if (by_dtw && (c.rule < 0 || c.moves_needed < 0)) return false;
    return std::all_of(c.rules, c.rules + c.n_rules, [](const dtb_draw_rule& r) {
        return in_range(r.why_not, DTB_RULE_APPLIES, DTB_RULE_LONE_KING_OFF_ROAD);
    });
}

}  // namespace

void ruling_to_c(std::span<const DrawRule> rules, int c_variant, const Ruling& a, dtb_adjudication& c) {
    c = dtb_adjudication{};
    c.variant = c_variant;
    c.side_to_move = c_color(a.side_to_move);
    for (int side = 0; side < 2; ++side) {  // the signature's side 0 is the side to move
        const int color = side == 0 ? c.side_to_move : 1 - c.side_to_move;
        c.kings[color] = a.material.kings[side];
        c.men[color] = a.material.men[side];
    }
    c.rule = a.rule ? int(*a.rule) : -1;
    c.limit_moves = a.rule ? a.limit : -1;
    c.moves_left = a.rule ? a.moves_left : -1;
    c.stronger_side = a.stronger ? c_color(*a.stronger) : -1;
    c.wdl = a.wdl;
    c.dtw = a.probed && a.value >= 0 ? a.value : -1;
    c.moves_needed = a.moves_needed ? *a.moves_needed : -1;
    c.winnable = a.winnable ? 1 : 0;
    c.exact = a.exact ? 1 : 0;
    c.basis = int(a.basis);
    doubt_to_c(a.doubt, c.doubt);
    c.search_nodes = a.search_nodes;
    c.dtc = a.basis == Basis::dtc ? a.dtc : -1;
    c.n_rules = a.rules.size();
    for (std::size_t i = 0; i < a.rules.size(); ++i) {
        const RuleStanding& st = a.rules[i];
        const DrawRule& r = rules[st.index];
        dtb_draw_rule& out = c.rules[i];
        copy_text(std::string(r.id), out.id, sizeof out.id);
        copy_text(std::string(r.title), out.title, sizeof out.title);
        out.limit = r.limit;
        out.applies = st.applies ? 1 : 0;
        out.ends_first =
            a.rule && (st.index == *a.rule || std::find(a.also.begin(), a.also.end(), st.index) != a.also.end());
        out.moves_made = st.moves_made;
        out.moves_left = st.moves_left;
        out.why_not = int(st.why_not);
    }
}

std::optional<Ruling> ruling_from_c(std::span<const DrawRule> rules, const dtb_adjudication& c) {
    if (!valid(rules, c)) return std::nullopt;
    Ruling a;
    a.side_to_move = from_c_color(c.side_to_move);
    const int other = 1 - c.side_to_move;
    a.material = MaterialSignature{{c.men[c.side_to_move], c.men[other]}, {c.kings[c.side_to_move], c.kings[other]}};
    for (std::size_t i = 0; i < c.n_rules; ++i) {
        const dtb_draw_rule& r = c.rules[i];
        a.rules.push_back(RuleStanding{i, r.applies != 0, r.moves_made, r.moves_left, RuleNote(r.why_not)});
        if (r.ends_first && int(i) != c.rule) a.also.push_back(i);
    }
    if (c.rule >= 0) {
        a.rule = std::size_t(c.rule);
        a.limit = c.limit_moves;
        a.moves_left = c.moves_left;
        a.stronger = from_c_color(c.stronger_side);
        a.probed = true;
    }
    a.value = c.dtw;
    a.wdl = c.wdl;
    if (c.moves_needed >= 0) a.moves_needed = c.moves_needed;
    a.winnable = c.winnable != 0;
    a.exact = c.exact != 0;
    a.basis = Basis(c.basis);
    a.doubt.kind = Doubt(c.doubt.kind);
    if (c.doubt.rule >= 0) a.doubt.fresh_rule = std::size_t(c.doubt.rule);
    a.doubt.fresh_moves = c.doubt.fresh_moves;
    a.doubt.longest_moves = c.doubt.longest_moves;
    a.doubt.into = MaterialSignature{{c.doubt.men[0], c.doubt.men[1]}, {c.doubt.kings[0], c.doubt.kings[1]}};
    a.doubt.missing_file = c.doubt.missing_file;
    a.search_nodes = c.search_nodes;
    a.dtc = c.dtc;
    return a;
}

}  // namespace dtb::adjudication
