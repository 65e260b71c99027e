#include "cli/serve_api.hpp"

#include <charconv>
#include <optional>
#include <set>
#include <variant>

#include "cli/position_json.hpp"
#include "cli/position_query.hpp"
#include "cli/table_stats.hpp"
#include "probe/convert.hpp"
#include "rules/notation.hpp"
#include "tables/table_names.hpp"

namespace dtb::serve {

namespace {

// A request the API refuses: the reply says why.
struct Refused {
    Reply reply;
};

// The name of the table file a probe's message names ("russian-KKvK.wdl"),
// if it names one.
std::optional<std::string> table_named_in(const std::string& message) {
    std::size_t start = 0;
    while (start < message.size()) {
        const std::size_t end = std::min(message.find(' ', start), message.size());
        std::string word = message.substr(start, end - start);
        while (!word.empty() && std::string_view("();,:").find(word.back()) != std::string_view::npos) word.pop_back();
        if (parse_table_file_name(word)) return word;
        start = end + 1;
    }
    return std::nullopt;
}

// What a client is told of a table the directories lack: the table, never
// the directories looked in (the probe's own message names them, for the
// one who runs the program, not for every client).
std::string missing_message(const dtb_tablebase* tb, const QueryError& e) {
    const auto file = table_named_in(e.message);
    if (!file) return "a table this position needs is missing from the server's tables";
    if (e.status == DTB_TOO_MANY_PIECES) {
        const TableName name = *parse_table_file_name(*file);
        return "a position with " + std::to_string(name.signature.total()) + " pieces: the largest " +
               std::string(variant_name(name.variant)) + " table here has " +
               std::to_string(dtb_max_pieces(tb, probe::c_variant(name.variant))) + "; no " + *file;
    }
    return "missing table " + *file;
}

// The HTTP status for a query that failed: the request's fault (400), a
// table the directories lack (404), or the tables' own failure (500).
Reply query_failed(const dtb_tablebase* tb, const QueryError& e) {
    if (e.bad_input()) return error_reply(400, e.message);
    if (e.status == DTB_MISSING_TABLE || e.status == DTB_TOO_MANY_PIECES)
        return error_reply(404, missing_message(tb, e));
    return error_reply(500,
                       std::string("the tables could not answer (") + dtb_status_name(e.status) + "): " + e.message);
}

template <class T>
T take(const dtb_tablebase* tb, Answer<T>&& a) {
    if (auto* e = std::get_if<QueryError>(&a)) throw Refused{query_failed(tb, *e)};
    return std::get<T>(std::move(a));
}

std::string join(const std::set<std::string>& names) {
    std::string s;
    for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
    return s;
}

// Every parameter is one this endpoint takes, and none comes twice.
void check_params(const QueryParams& params, const std::set<std::string>& allowed) {
    for (auto it = params.begin(); it != params.end(); it = params.upper_bound(it->first)) {
        if (!allowed.contains(it->first))
            throw Refused{
                error_reply(400, "unknown parameter '" + it->first + "': this endpoint takes " + join(allowed))};
        if (params.count(it->first) > 1)
            throw Refused{error_reply(400, "parameter '" + it->first + "' is given more than once")};
    }
}

std::optional<std::string> param(const QueryParams& params, const std::string& name) {
    const auto it = params.find(name);
    if (it == params.end()) return std::nullopt;
    return it->second;
}

dtb_position fen_param(const dtb_tablebase* tb, const QueryParams& params, int variant) {
    const auto fen = param(params, "fen");
    if (!fen || fen->empty())
        throw Refused{error_reply(400, "missing parameter 'fen': the position in PDN FEN, like W:WKa1,c3:BKh8")};
    if (fen->size() > kMaxFenBytes)
        throw Refused{error_reply(400, "parameter 'fen' is " + std::to_string(fen->size()) +
                                           " characters long: a FEN takes at most " + std::to_string(kMaxFenBytes))};
    return take(tb, position_from_fen(variant, *fen));
}

// A count of moves: digits only, 0 to kMaxMovesPlayed.
std::optional<int> count_param(const QueryParams& params, const std::string& name) {
    const auto text = param(params, name);
    if (!text) return std::nullopt;
    int n = -1;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), n);
    if (text->empty() || ec != std::errc() || end != text->data() + text->size() || n < 0 || n > kMaxMovesPlayed)
        throw Refused{error_reply(400, "parameter '" + name + "' is '" + *text +
                                           "': a count of moves, a whole number from 0 to " +
                                           std::to_string(kMaxMovesPlayed))};
    return n;
}

Reply position_reply(dtb_tablebase* tb, const std::string&, int variant, const QueryParams& params) {
    check_params(params, {"fen"});
    const dtb_position pos = fen_param(tb, params, variant);
    const ProbeReport report = take(tb, probe_report(tb, pos));
    return {200, position_json(report, take(tb, probe_moves(tb, pos)))};
}

Reply line_reply(dtb_tablebase* tb, const std::string&, int variant, const QueryParams& params) {
    check_params(params, {"fen"});
    const dtb_position pos = fen_param(tb, params, variant);
    const ProbeReport report = take(tb, probe_report(tb, pos));
    return {200, line_json(report, take(tb, probe_line(tb, pos, report.value)))};
}

Reply adjudicate_reply(dtb_tablebase* tb, const std::string& name, int variant, const QueryParams& params) {
    check_params(params, {"fen", "moves_played", "king_moves", "conversion_moves"});
    const dtb_position pos = fen_param(tb, params, variant);
    const auto moves = count_param(params, "moves_played");
    if (!moves)
        throw Refused{error_reply(400,
                                  "missing parameter 'moves_played': the moves the stronger side has made "
                                  "since the count started")};
    const MovesPlayed played{*moves, count_param(params, "king_moves").value_or(*moves),
                             count_param(params, "conversion_moves").value_or(*moves)};
    const dtb_adjudication a = take(tb, adjudicate(tb, pos, played));
    Json j = adjudicate_json(name, pos, played, a);
    // As dtb adjudicate --json: with the .dtc tables, best play under these counts.
    if (a.basis == DTB_BASIS_DTC) j["line_to_conversion"] = take(tb, rule_line(tb, pos, played));
    return {200, j};
}

static_assert(kMaxStatsPositions == 5'000'000, "the table endpoint's summary in kEndpoints states the limit");

// The tables' statistics: scanned once per material for the life of the
// server (table_stats.hpp bounds and serialises the scans).
TableStatsCache& stats_cache() {
    static TableStatsCache cache;
    return cache;
}

Json distance_json(int plies) { return plies < 0 ? Json(nullptr) : Json(plies); }

Json table_json(const TableStats& stats) {
    Json tables = Json::array();
    std::uint64_t positions = 0;
    for (const SideToMoveStats& t : stats.tables) {
        positions += t.positions;
        tables.push_back(Json{{"material", t.material.name()},
                              {"positions", t.positions},
                              {"wins", t.wins},
                              {"draws", t.draws},
                              {"losses", t.losses},
                              {"longest_win", distance_json(t.longest_win)},
                              {"longest_loss", distance_json(t.longest_loss)},
                              {"longest_win_fens", t.longest_win_fens},
                              {"longest_loss_fens", t.longest_loss_fens}});
    }
    return Json{{"variant", variant_name(stats.variant)},
                {"material", stats.material.name()},
                {"pieces", stats.material.total()},
                {"positions", positions},
                {"tables", tables}};
}

// The material asked: ?material=KKKvK, or the material of ?fen=, the side to
// move first either way.
MaterialSignature material_param(const dtb_tablebase* tb, const QueryParams& params, int variant) {
    const auto material = param(params, "material");
    if (material && params.contains("fen"))
        throw Refused{error_reply(400, "give either 'fen' or 'material', not both")};
    if (!material) return material_of(fen_param(tb, params, variant));
    const auto sig = MaterialSignature::parse(*material);
    if (!sig)
        throw Refused{error_reply(400, "parameter 'material' is '" + *material +
                                           "': a material like KKKvK (the side to move's kings K and men M, "
                                           "'v', the other side's)")};
    return *sig;
}

Reply table_answer(dtb_tablebase* tb, VariantId variant, const MaterialSignature& sig) {
    if (auto why = impossible_material(variant, sig)) return error_reply(400, *why);
    const std::string name(variant_name(variant));
    if (const int most = dtb_max_pieces(tb, probe::c_variant(variant)); sig.total() > most)
        return error_reply(404, "no table of " + name + " " + sig.name() + ": the largest " + name +
                                    " table here has " + std::to_string(most) + " pieces");
    try {
        return {200, table_json(take(tb, stats_cache().get(tb, variant, sig)))};
    } catch (const Refused& r) {
        return r.reply;
    }
}

Reply table_reply(dtb_tablebase* tb, const std::string&, int variant, const QueryParams& params) {
    check_params(params, {"fen", "material"});
    const MaterialSignature sig = material_param(tb, params, variant);
    Reply reply = table_answer(tb, *probe::variant_from_c(variant), sig);
    // A refusal names the material too: the explorer shows its name whatever the answer.
    if (reply.status != 200) reply.body["material"] = sig.name();
    return reply;
}

// The handler of each of kEndpoints, in the same order.
using Handler = Reply (*)(dtb_tablebase*, const std::string& variant, int code, const QueryParams&);
constexpr Handler kHandlers[] = {position_reply, line_reply, adjudicate_reply, table_reply};
static_assert(std::size(kHandlers) == std::size(kEndpoints), "one handler per endpoint");

// A first position for the explorer's board: a white king in the bottom
// left corner with a man two rows up, a black king in the top right corner.
template <class V>
std::string example_fen() {
    constexpr int half = V::Board::width / 2;
    const std::string corner = std::to_string(V::Board::squares - half + 1);
    const std::string man = std::to_string((V::Board::width - 3) * half + 2);
    return to_fen(parse_fen<V>("W:WK" + corner + "," + man + ":BK" + std::to_string(half)));
}

std::string endpoint_paths(const std::string& variant) {
    std::vector<std::string> paths;
    for (const Endpoint& e : kEndpoints)
        paths.push_back("/api/v1/" + variant + (e.what.empty() ? "" : "/" + std::string(e.what)));
    return choice_list(paths, " and ");
}

}  // namespace

Reply error_reply(int status, const std::string& message) { return {status, Json{{"error", message}}}; }

Reply api_index(const dtb_tablebase* tb) {
    Json variants = Json::array();
    for_each_variant([&]<class V>() {
        variants.push_back(Json{{"variant", V::name},
                                {"max_pieces", dtb_max_pieces(tb, probe::c_variant(V::id))},
                                {"board",
                                 {{"size", V::Board::width},
                                  {"squares", V::Board::squares},
                                  {"algebraic", V::algebraic_notation},
                                  {"initial_fen", V::initial_fen},
                                  {"example_fen", example_fen<V>()}}}});
    });
    Json endpoints = Json::array();
    for (const Endpoint& e : kEndpoints) endpoints.push_back(e.usage);
    return {200, Json{{"variants", variants}, {"endpoints", endpoints}}};
}

Reply api_request(dtb_tablebase* tb, const std::string& variant, const std::string& what, const QueryParams& params) {
    const auto id = parse_variant(variant);
    if (!id) return error_reply(400, "unknown variant '" + variant + "': use " + variant_choices());
    try {
        for (std::size_t i = 0; i < std::size(kEndpoints); ++i)
            if (what == kEndpoints[i].what) return kHandlers[i](tb, variant, probe::c_variant(*id), params);
        return error_reply(
            404, "no such endpoint: /api/v1/" + variant + "/" + what + " (there are " + endpoint_paths(variant) + ")");
    } catch (const Refused& r) {
        return r.reply;
    }
}

}  // namespace dtb::serve
