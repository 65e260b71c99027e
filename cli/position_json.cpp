#include "cli/position_json.hpp"

#include "cli/c_api.hpp"

namespace dtb {

namespace {

Json dtw_json(const dtb_value& v) { return v.wdl == DTB_DRAW ? Json(nullptr) : Json(v.dtw); }

Json squares_json(const int* squares, int n) {
    Json list = Json::array();
    for (int i = 0; i < n; ++i) list.push_back(squares[i]);
    return list;
}

Json rules_considered_json(const dtb_adjudication& a) {
    Json rules = Json::array();
    for (std::size_t i = 0; i < a.n_rules; ++i) {
        const dtb_draw_rule& r = a.rules[i];
        Json j{{"rule", r.id}, {"title", r.title}, {"limit_moves", r.limit}, {"applies", r.applies != 0}};
        if (r.applies) {
            j["moves_played"] = r.moves_made;
            j["moves_left"] = r.moves_left;
            j["ends_first"] = r.ends_first != 0;
        } else {
            j["why_not"] = dtb_rule_note(r.why_not);
        }
        rules.push_back(j);
    }
    return rules;
}

}  // namespace

Json report_json(const ProbeReport& r) {
    return Json{{"fen", r.fen},
                {"wdl", wdl_word(r.value.wdl)},
                {"dtw", dtw_json(r.value)},
                {"best_move", r.best_move ? Json(*r.best_move) : Json(nullptr)},
                {"pv", r.pv},
                {"rule_wdl", r.rule_wdl ? Json(wdl_word(*r.rule_wdl)) : Json(nullptr)},
                {"rule_class", r.rule_wdl ? Json(rule_class_word(r.value.wdl, *r.rule_wdl)) : Json(nullptr)},
                {"dtc", r.rule_wdl && r.dtc >= 0 ? Json(r.dtc) : Json(nullptr)},
                {"rule_line", r.rule_line}};
}

Json move_json(int variant, const ValuedMove& m) {
    return Json{{"move", m.move.text},
                {"move_numeric", numeric_move_text(variant, m.move)},
                {"from", m.move.from},
                {"to", m.move.to},
                {"captured", squares_json(m.move.captured, m.move.n_captured)},
                {"crowns", m.move.crowns != 0},
                {"wdl", wdl_word(m.value.wdl)},
                {"dtw", dtw_json(m.value)},
                {"rule_wdl", m.rule_wdl ? Json(wdl_word(*m.rule_wdl)) : Json(nullptr)},
                {"rule_class", m.rule_wdl ? Json(rule_class_word(m.value.wdl, *m.rule_wdl)) : Json(nullptr)},
                {"dtc", m.rule_wdl && m.dtc >= 0 ? Json(m.dtc) : Json(nullptr)},
                {"fen", fen_of(m.after)}};
}

Json position_json(const ProbeReport& r, const std::vector<ValuedMove>& moves) {
    Json j = report_json(r);
    j["must_capture"] = must_capture(moves);
    Json list = Json::array();
    for (const ValuedMove& m : moves) list.push_back(move_json(r.position.variant, m));
    j["moves"] = list;
    return j;
}

Json line_json(const ProbeReport& r, const std::vector<LinePly>& line) {
    Json plies = Json::array();
    for (const LinePly& p : line)
        plies.push_back(Json{{"move", p.move.text},
                             {"move_numeric", numeric_move_text(r.position.variant, p.move)},
                             {"fen", fen_of(p.after)},
                             {"wdl", wdl_word(p.value.wdl)},
                             {"dtw", dtw_json(p.value)}});
    return Json{{"fen", r.fen}, {"wdl", wdl_word(r.value.wdl)}, {"dtw", dtw_json(r.value)}, {"line", plies}};
}

Json adjudication_json(const dtb_adjudication& a) {
    const bool has_rule = a.rule >= 0;
    Json also = Json::array();
    for (std::size_t i = 0; i < a.n_rules; ++i)
        if (a.rules[i].ends_first && int(i) != a.rule) also.push_back(a.rules[i].id);
    return Json{
        {"rule", has_rule ? Json(a.rules[a.rule].id) : Json(nullptr)},
        {"rule_title", has_rule ? Json(a.rules[a.rule].title) : Json(nullptr)},
        {"limit_moves", has_rule ? Json(a.limit_moves) : Json(nullptr)},
        {"moves_left", has_rule ? Json(a.moves_left) : Json(nullptr)},
        {"winnable", a.winnable != 0},
        {"exact", a.exact != 0},
        {"moves_needed", a.moves_needed >= 0 ? Json(a.moves_needed) : Json(nullptr)},
        {"verdict", verdict_text(a)},
        {"basis", dtb_basis_name(a.basis)},
        {"stronger_side", a.stronger_side < 0 ? Json(nullptr) : Json(a.stronger_side == DTB_WHITE ? "white" : "black")},
        {"wdl", has_rule ? Json(wdl_word(a.wdl)) : Json(nullptr)},
        {"dtw", a.dtw >= 0 ? Json(a.dtw) : Json(nullptr)},
        {"dtc", a.basis == DTB_BASIS_DTC && a.dtc >= 0 ? Json(a.dtc) : Json(nullptr)},
        {"also_ending_then", also},
        {"rules_considered", rules_considered_json(a)}};
}

Json adjudicate_json(const std::string& variant, const dtb_position& pos, const MovesPlayed& played,
                     const dtb_adjudication& a) {
    Json j{{"variant", variant},
           {"fen", fen_of(pos)},
           {"moves_played", played.moves},
           {"king_moves_played", played.king_moves},
           {"conversion_moves_played", played.conversion_moves}};
    j.update(adjudication_json(a));
    return j;
}

}  // namespace dtb
