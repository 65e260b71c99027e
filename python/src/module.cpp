// dtb._dtb: the compiled part of the Python package dtb (python/dtb/),
// which wraps these calls in small value classes. Probes go through the
// C API of dtb/probe.h with the GIL released.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "python/src/errors.hpp"
#include "python/src/game.hpp"
#include "python/src/handle.hpp"
#include "python/src/position.hpp"

namespace py = pybind11;
using namespace py::literals;
using dtb::python::Adjudicated;
using dtb::python::Handle;
using dtb::python::read_position;
using dtb::python::RootMove;
using dtb::python::RuleMove;

namespace {

using Variant = std::string;

py::object dtw_or_none(int dtw) { return dtw < 0 ? py::none() : py::object(py::int_(dtw)); }
// (wdl, dtw): dtw None for a draw, as dtb probe --json writes it.
py::tuple value_tuple(const dtb_value& v) { return py::make_tuple(v.wdl, dtw_or_none(v.wdl == DTB_DRAW ? -1 : v.dtw)); }

// Runs f with the position of `fen` and the GIL released.
template <class F>
auto probe(const Variant& variant, const std::string& fen, F&& f) {
    py::gil_scoped_release released;
    return f(read_position(variant, fen));
}

// Fields of `dtb adjudicate --json`'s rules_considered entries.
py::list rules_considered(const dtb_adjudication& a) {
    py::list rules;
    for (std::size_t i = 0; i < a.n_rules; ++i) {
        const dtb_draw_rule& r = a.rules[i];
        py::dict d("rule"_a = r.id, "title"_a = r.title, "limit_moves"_a = r.limit, "applies"_a = r.applies != 0);
        d["moves_played"] = r.applies ? py::object(py::int_(r.moves_made)) : py::none();
        d["moves_left"] = r.applies ? py::object(py::int_(r.moves_left)) : py::none();
        d["ends_first"] = r.applies ? py::object(py::bool_(r.ends_first != 0)) : py::none();
        d["why_not"] = r.applies ? py::none() : py::object(py::str(dtb_rule_note(r.why_not)));
        rules.append(d);
    }
    return rules;
}

// The fields of `dtb adjudicate --json` but moves_played,
// king_moves_played and conversion_moves_played, under the same names.
py::dict adjudication_dict(const Adjudicated& r) {
    const dtb_adjudication& a = r.a;
    const bool has_rule = a.rule >= 0;
    const auto rule_or_none = [&](auto value) { return has_rule ? py::cast(value) : py::none(); };
    py::list also;
    for (std::size_t i = 0; i < a.n_rules; ++i)
        if (a.rules[i].ends_first && int(i) != a.rule) also.append(a.rules[i].id);
    py::dict d;
    d["variant"] = dtb_variant_name(a.variant);
    d["fen"] = r.fen;
    d["rule"] = has_rule ? py::cast(a.rules[a.rule].id) : py::none();
    d["rule_title"] = has_rule ? py::cast(a.rules[a.rule].title) : py::none();
    d["limit_moves"] = rule_or_none(a.limit_moves);
    d["moves_left"] = rule_or_none(a.moves_left);
    d["winnable"] = a.winnable != 0;
    d["exact"] = a.exact != 0;
    d["moves_needed"] = a.moves_needed >= 0 ? py::cast(a.moves_needed) : py::none();
    d["verdict"] = r.verdict;
    d["basis"] = dtb_basis_name(a.basis);
    d["stronger_side"] = a.stronger_side < 0 ? py::none() : py::cast(a.stronger_side == DTB_WHITE ? "white" : "black");
    d["wdl"] = rule_or_none(a.wdl);
    d["dtw"] = a.dtw >= 0 ? py::cast(a.dtw) : py::none();
    d["dtc"] = a.basis == DTB_BASIS_DTC && a.dtc >= 0 ? py::cast(a.dtc) : py::none();
    d["also_ending_then"] = also;
    d["rules_considered"] = rules_considered(a);
    return d;
}

void add_handle(py::module_& m) {
    py::class_<Handle>(m, "Tablebase", "A dtb_tablebase handle; use dtb.open_tablebase.")
        .def(py::init<const std::vector<std::string>&, std::size_t>(), py::arg("dirs"), py::arg("cache_bytes"),
             py::call_guard<py::gil_scoped_release>())
        .def("close", &Handle::close, py::call_guard<py::gil_scoped_release>())
        .def_property_readonly("closed", &Handle::closed)
        .def("max_pieces", [](const Handle& h,
                              const std::string& variant) { return h.max_pieces(dtb::python::variant_code(variant)); })
        .def("probe_wdl",
             [](const Handle& h, const Variant& variant, const std::string& fen) {
                 return probe(variant, fen, [&](const dtb_position& p) { return h.probe_wdl(p); }).wdl;
             })
        .def("probe_dtw",
             [](const Handle& h, const Variant& variant, const std::string& fen) {
                 return value_tuple(probe(variant, fen, [&](const dtb_position& p) { return h.probe_dtw(p); }));
             })
        .def("best_move",
             [](const Handle& h, const Variant& variant, const std::string& fen) {
                 return probe(variant, fen, [&](const dtb_position& p) { return h.best_move(p); });
             })
        .def("line",
             [](const Handle& h, const Variant& variant, const std::string& fen) {
                 return probe(variant, fen, [&](const dtb_position& p) { return h.line(p); });
             })
        .def("moves",
             [](const Handle& h, const Variant& variant, const std::string& fen) {
                 const auto moves = probe(variant, fen, [&](const dtb_position& p) { return h.moves(p); });
                 py::list out;
                 for (const RootMove& r : moves) out.append(py::make_tuple(r.move, value_tuple(r.value)));
                 return out;
             })
        .def(
            "rule_moves",
            [](const Handle& h, const Variant& variant, const std::string& fen, int moves, int kings, int conversions) {
                const auto valued = probe(
                    variant, fen, [&](const dtb_position& p) { return h.rule_moves(p, moves, kings, conversions); });
                py::list out;
                for (const RuleMove& m : valued)
                    out.append(py::make_tuple(m.move, m.rule_wdl, m.dtc >= 0 ? py::cast(m.dtc) : py::none()));
                return out;
            })
        .def("probe_dtc",
             [](const Handle& h, const Variant& variant, const std::string& fen) {
                 const auto [wdl, dtc] = probe(variant, fen, [&](const dtb_position& p) { return h.probe_dtc(p); });
                 return py::make_tuple(wdl, dtc >= 0 ? py::cast(dtc) : py::none());
             })
        .def(
            "rule_line",
            [](const Handle& h, const Variant& variant, const std::string& fen, int moves, int kings, int conversions) {
                return probe(variant, fen,
                             [&](const dtb_position& p) { return h.rule_line(p, moves, kings, conversions); });
            })
        .def("adjudicate", [](const Handle& h, const Variant& variant, const std::string& fen, int moves, int kings,
                              int conversions) {
            return adjudication_dict(
                probe(variant, fen, [&](const dtb_position& p) { return h.adjudicate(p, moves, kings, conversions); }));
        });
}

}  // namespace

PYBIND11_MODULE(_dtb, m) {
    m.doc() = "The compiled part of dtb: draughts endgame tablebases through the C API of dtb/probe.h.";
    m.attr("__version__") = DTB_VERSION;  // the project's (python/CMakeLists.txt)
    dtb::python::add_errors(m);
    add_handle(m);
    m.def(
        "perft",
        [](const std::string& variant, int depth, const std::optional<std::string>& fen, bool keep_duplicates) {
            const int code = dtb::python::variant_code(variant);
            py::gil_scoped_release released;
            return dtb::python::perft(code, depth, fen, keep_duplicates);
        },
        py::arg("variant"), py::arg("depth"), py::arg("fen"), py::arg("keep_duplicates"));
    m.def("play", [](const Variant& variant, const std::string& fen, const std::string& move) {
        py::gil_scoped_release released;
        const dtb_position pos = read_position(variant, fen);
        return dtb::python::play(pos.variant, dtb::python::fen_of(pos), move);
    });
    // The variants' names, in the order of their codes.
    py::list variants;
    for (int v = 0; v < DTB_VARIANT_COUNT; ++v) variants.append(dtb_variant_name(v));
    m.attr("VARIANTS") = py::tuple(variants);
    m.def("start_fen",
          [](const std::string& variant) { return dtb::python::start_fen(dtb::python::variant_code(variant)); });
}
