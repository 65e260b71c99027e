// dtb analyze: every game of a PDN file replayed against the tables
// (cli/game_analysis.hpp decides; this file renders): text for people,
// --json for programs, --pdn-out with the values as {comments}, and
// --diagrams with one SVG board per turning point (cli/board_svg.hpp).
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli/board_svg.hpp"
#include "cli/c_api.hpp"
#include "cli/draw_rule_text.hpp"
#include "cli/game_analysis.hpp"
#include "cli/options.hpp"
#include "cli/pdn_input.hpp"
#include "cli/table_dirs.hpp"
#include "cli/value_words.hpp"

namespace dtb {

namespace {

struct AnalyzeOptions {
    std::string file;
    std::string variant;
    std::vector<std::string> dirs;
    std::string encoding = "auto";
    bool json = false;
    std::string pdn_out;
    std::string diagrams;
};

const char* color_word(Color c) { return c == White ? "white" : "black"; }

// "won", "drawn", "lost": a value's class for the side it belongs to.
const char* state_word(int value) {
    const int o = outcome_of(value);
    return o > 0 ? "won" : o == 0 ? "drawn" : "lost";
}

// "47. 28-22" or "47... 28-22".
template <class V>
std::string numbered(const AnalyzedPly<V>& p) {
    return std::to_string(p.number.number) + (p.number.side == White ? ". " : "... ") + p.move_text;
}

template <class V>
std::string counts_text(const std::vector<RuleCount>& counts) {
    std::string text;
    for (const RuleCount& c : counts)
        text += (text.empty() ? "" : "; ") + std::string(V::draw_rules[c.rule].id) + ": " + std::to_string(c.moves) +
                " of " + std::to_string(V::draw_rules[c.rule].limit) + " moves";
    return text;
}

// The count nearest its limit: the one a reader watches.
template <class V>
RuleCount nearest_end(const std::vector<RuleCount>& counts) {
    const auto left = [](const RuleCount& c) { return V::draw_rules[c.rule].limit - c.moves; };
    return *std::min_element(counts.begin(), counts.end(),
                             [&](const RuleCount& a, const RuleCount& b) { return left(a) < left(b); });
}

// "won -> drawn at move 47 (White): 28-22; 33-28 wins in 9 plies".
template <class V>
std::string turn_text(const AnalyzedPly<V>& p) {
    const TurningPoint& t = *p.turn;
    return std::string(state_word(t.before)) + " -> " + state_word(t.after) + " at move " +
           std::to_string(p.number.number) + " (" + side_name(p.number.side) + "): " + p.move_text + "; " +
           t.best_move + " " + result_words(t.best_value);
}

// " (a draw under the move-count rules: a count-drawn win)" where the
// counts change a value (they only take wins away, so to a draw); "" where
// they keep it or the .dtc tables are not there. `value`: the tables' value
// without the counts; `rule_wdl`: under them.
std::string rule_value_note(int value, const std::optional<int>& rule_wdl) {
    if (!rule_wdl || *rule_wdl == outcome_of(value)) return "";
    return std::string(" (a draw under the move-count rules: a ") + rule_class_word(outcome_of(value), *rule_wdl) + ")";
}

// "won -> drawn under the move-count rules at move 47 (White): 28-22".
template <class V>
std::string rule_turn_text(const AnalyzedPly<V>& p) {
    const char* words[] = {"lost", "drawn", "won"};
    return std::string(words[*p.rule_turn + 1]) + " -> " + words[-*p.rule_wdl + 1] +
           " under the move-count rules at move " + std::to_string(p.number.number) + " (" + side_name(p.number.side) +
           "): " + p.move_text;
}

// "draw by rule" for a count that ended the game; a repetition only lets
// a draw be claimed.
template <class V>
const char* draw_words(const DrawReached& d) {
    return V::draw_rules[d.rule].count == DrawCount::repetitions ? "a draw may be claimed by rule" : "draw by rule";
}

// The side to move after ply p.
template <class V>
Color to_move_after(const AnalyzedPly<V>& p) {
    return p.after.side_to_move;
}

// "16... g7-h8 17. a7-b8 h8-g7": the plies a record gives after the game
// ended, numbered as the record numbers them.
template <class V>
std::string plies_after_end(const GameAnalysis<V>& a) {
    std::string text;
    bool first = true;
    for (const AnalyzedPly<V>& p : a.plies) {
        if (!p.after_end) continue;
        text += first ? numbered(p) : p.number.side == White ? " " + numbered(p) : " " + p.move_text;
        first = false;
    }
    return text;
}

// The plies after the one that ended the game by a move-count rule.
template <class V>
int plies_after_draw(const GameAnalysis<V>& a) {
    return a.draw ? int(a.plies.size()) - a.draw->ply : 0;
}

// "drawn by rule 2.1.9.1.4 at move 16 (White)".
template <class V>
std::string drawn_text(const DrawReached& d, Color first) {
    return "drawn by rule " + std::string(V::draw_rules[d.rule].id) + " at " + after_ply_text(d.ply, first);
}

// ---------------------------------------------------------------------------
// Text

template <class V>
void print_analysis(int number, const PdnGame<V>& game, const GameAnalysis<V>& a) {
    std::cout << game_title(number, game.tags) << ": " << plies_text(long(game.plies.size())) << ", result "
              << game.result << '\n';
    if (!a.in_tables_from) {
        if (a.error.empty()) std::cout << "  Never inside the tables.\n";
    } else {
        const int from = *a.in_tables_from;
        const Position<V>& pos = from == 0 ? game.start : a.plies[std::size_t(from - 1)].after;
        std::cout << "  In the tables from "
                  << (from == 0 ? "the start" : "after " + numbered(a.plies[std::size_t(from - 1)])) << " ("
                  << to_fen(pos) << "): " << value_text(*a.start_value, pos)
                  << rule_value_note(*a.start_value, a.start_rule_wdl) << ".\n";
        for (std::size_t i = std::size_t(from); i < a.plies.size(); ++i) {
            const AnalyzedPly<V>& p = a.plies[i];
            if (p.after_end) break;  // said once, below
            std::cout << "  " << std::left << std::setw(22) << numbered(p)
                      << (p.value ? value_text(*p.value, p.after) + rule_value_note(*p.value, p.rule_wdl)
                                  : std::string("(not in the tables)"));
            if (!p.counts.empty()) std::cout << "   [" << counts_text<V>({nearest_end<V>(p.counts)}) << "]";
            std::cout << '\n';
            if (p.turn) std::cout << "    ** " << turn_text(p) << '\n';
            if (p.rule_turn) std::cout << "    ** " << rule_turn_text(p) << '\n';
            if (p.draw)
                std::cout << "    == " << draw_words<V>(*p.draw) << " " << V::draw_rules[p.draw->rule].id << ": "
                          << reason_text<V>(*p.draw, game.start.side_to_move) << '\n';
        }
    }
    if (const int after = plies_after_draw(a); after > 0)
        std::cout << "  The game is " << drawn_text<V>(*a.draw, game.start.side_to_move) << "; the record goes on for "
                  << plies_text(after) << ", played after the end and not analysed: " << plies_after_end(a) << '\n';
    if (!a.error.empty()) std::cout << "  The tables stopped answering: " << a.error << '\n';
    std::cout << "  " << count_text(a.turning_points, "turning point", "turning points");
    if (a.start_rule_wdl)
        std::cout << ", " << count_text(a.rule_turning_points, "turning point", "turning points")
                  << " under the move-count rules";
    if (a.claimable)
        std::cout << "; a draw could be claimed by rule " << V::draw_rules[a.claimable->rule].id << " after "
                  << after_ply_text(a.claimable->ply, game.start.side_to_move);
    if (a.draw)
        std::cout << "; the game ended by rule " << V::draw_rules[a.draw->rule].id << " after "
                  << after_ply_text(a.draw->ply, game.start.side_to_move);
    if (a.no_move)
        std::cout << "; after " << after_ply_text(a.no_move->ply, game.start.side_to_move) << ", "
                  << no_move_text(game.final_position());
    std::cout << ".\n";
}

// ---------------------------------------------------------------------------
// JSON

Json value_json(const std::optional<int>& value, Color to_move) {
    if (!value) return nullptr;
    return Json{{"side_to_move", color_word(to_move)},
                {"wdl", outcome_of(*value) > 0    ? "win"
                        : outcome_of(*value) == 0 ? "draw"
                                                  : "loss"},
                {"dtw", *value == kDraw ? Json(nullptr) : Json(*value)}};
}

template <class V>
Json ply_json(const AnalyzedPly<V>& p, Color first) {
    Json counts = Json::array();
    for (const RuleCount& c : p.counts)
        counts.push_back(
            Json{{"rule", V::draw_rules[c.rule].id}, {"moves", c.moves}, {"limit", V::draw_rules[c.rule].limit}});
    Json j{{"ply", p.ply},
           {"move_number", p.number.number},
           {"side", color_word(p.number.side)},
           {"move", p.move_text},
           {"fen_after", to_fen(p.after)},
           {"value", value_json(p.value, to_move_after(p))},
           {"counts", counts},
           {"turning_point", nullptr},
           {"rule_wdl", p.rule_wdl ? Json(wdl_word(*p.rule_wdl)) : Json(nullptr)},
           {"rule_turning_point", nullptr},
           {"draw_by_rule", nullptr},
           {"after_game_end", p.after_end}};
    if (p.turn)
        j["turning_point"] = Json{{"from", state_word(p.turn->before)},
                                  {"to", state_word(p.turn->after)},
                                  {"best_move", p.turn->best_move},
                                  {"best_value", value_json(p.turn->best_value, p.number.side)},
                                  {"text", turn_text(p)}};
    if (p.rule_turn)
        j["rule_turning_point"] =
            Json{{"from", wdl_word(*p.rule_turn)}, {"to", wdl_word(-*p.rule_wdl)}, {"text", rule_turn_text(p)}};
    if (p.draw)
        j["draw_by_rule"] = Json{{"rule", V::draw_rules[p.draw->rule].id},
                                 {"ends_game", V::draw_rules[p.draw->rule].count != DrawCount::repetitions},
                                 {"reason", reason_text<V>(*p.draw, first)}};
    return j;
}

// How the game ended within its record: by a move-count rule (the plies
// after it were not analysed) or with the side to move unable to move;
// null when it did neither.
template <class V>
Json game_end_json(const PdnGame<V>& game, const GameAnalysis<V>& a) {
    const Color first = game.start.side_to_move;
    if (a.draw) {
        const auto [number, side] = move_of_ply(a.draw->ply, first);
        return Json{{"by", "draw_by_rule"},
                    {"rule", V::draw_rules[a.draw->rule].id},
                    {"ply", a.draw->ply},
                    {"move_number", number},
                    {"side", color_word(side)},
                    {"plies_after", plies_after_draw(a)},
                    {"text", drawn_text<V>(*a.draw, first)}};
    }
    if (a.no_move) {
        const Position<V> end = game.final_position();
        return Json{{"by", a.no_move->no_piece ? "no_piece" : "no_move"},
                    {"ply", a.no_move->ply},
                    {"loser", color_word(a.no_move->loser)},
                    {"winner", color_word(opponent(a.no_move->loser))},
                    {"text", no_move_text(end)}};
    }
    return nullptr;
}

template <class V>
Json analysis_json(int number, const PdnGame<V>& game, const GameAnalysis<V>& a) {
    Json moves = Json::array();
    const std::size_t from = std::size_t(a.in_tables_from.value_or(int(a.plies.size())));
    for (std::size_t i = from; i < a.plies.size(); ++i) moves.push_back(ply_json(a.plies[i], game.start.side_to_move));
    Json in_tables = nullptr;
    if (a.in_tables_from) {
        const int f = *a.in_tables_from;
        const Position<V>& pos = f == 0 ? game.start : a.plies[std::size_t(f - 1)].after;
        in_tables = Json{{"ply", f},
                         {"fen", to_fen(pos)},
                         {"value", value_json(a.start_value, pos.side_to_move)},
                         {"rule_wdl", a.start_rule_wdl ? Json(wdl_word(*a.start_rule_wdl)) : Json(nullptr)}};
    }
    return Json{{"game", number},
                {"tags", tags_json(game.tags)},
                {"plies", game.plies.size()},
                {"result", game.result},
                {"in_tables_from", in_tables},
                {"turning_points", a.turning_points},
                {"rule_turning_points", a.start_rule_wdl ? Json(a.rule_turning_points) : Json(nullptr)},
                {"draw_by_rule", a.draw ? Json(V::draw_rules[a.draw->rule].id) : Json(nullptr)},
                {"draw_claimable_by", a.claimable ? Json(V::draw_rules[a.claimable->rule].id) : Json(nullptr)},
                {"moves", moves},
                {"tables_error", a.error.empty() ? Json(nullptr) : Json(a.error)},
                {"game_end", game_end_json(game, a)}};
}

// ---------------------------------------------------------------------------
// PDN: the game again, each analysed move followed by its value.

template <class V>
std::string analysed_pdn(const PdnGame<V>& game, const GameAnalysis<V>& a) {
    std::vector<std::string> comments(game.plies.size());
    for (std::size_t i = 0; i < a.plies.size(); ++i) {
        const AnalyzedPly<V>& p = a.plies[i];
        std::string c;
        if (p.after_end) {
            if (i == std::size_t(a.draw->ply)) c = "played after the game had ended";
            comments[i] = c;
            continue;
        }
        if (p.value) c = value_text(*p.value, p.after);
        if (p.value && !p.counts.empty()) c += " [" + counts_text<V>({nearest_end<V>(p.counts)}) + "]";
        if (p.value) c += rule_value_note(*p.value, p.rule_wdl);
        if (p.turn) c += ". " + turn_text(p);
        if (p.rule_turn) c += ". " + rule_turn_text(p);
        if (p.draw)
            c += (c.empty() ? "" : ". ") + std::string(draw_words<V>(*p.draw)) + " " +
                 std::string(V::draw_rules[p.draw->rule].id) +
                 (V::draw_rules[p.draw->rule].count == DrawCount::repetitions ? "" : ": the game ended here");
        comments[i] = c;
    }
    return write_pdn_game(game, comments);
}

// ---------------------------------------------------------------------------
// Diagrams

// Three lines: where, what changed, the two moves drawn.
template <class V>
std::string diagram_caption(int number, const AnalyzedPly<V>& p) {
    const TurningPoint& t = *p.turn;
    return "Game " + std::to_string(number) + ", move " + std::to_string(p.number.number) + " (" +
           side_name(p.number.side) + " to move): " + state_word(t.before) + " -> " + state_word(t.after) +
           "\nplayed (red): " + p.move_text + ", which " + result_words(t.after) + "\nbest (green): " + t.best_move +
           ", which " + result_words(t.best_value);
}

template <class V>
void write_diagrams(const std::string& dir, int number, const GameAnalysis<V>& a, const PdnGame<V>& game) {
    for (const AnalyzedPly<V>& p : a.plies) {
        if (!p.turn) continue;
        const PdnPly<V>& played = game.plies[std::size_t(p.ply - 1)];
        BoardDiagram<V> d{played.before, played.move, parse_move(played.before, p.turn->best_move),
                          diagram_caption(number, p)};
        const std::filesystem::path path =
            std::filesystem::path(dir) / ("game" + std::to_string(number) + "-ply" + std::to_string(p.ply) + ".svg");
        errno = 0;
        std::ofstream out(path);
        out << board_svg(d);
        if (!out) throw std::runtime_error("cannot write " + path.string() + os_reason());
    }
}

template <class V>
void run_analyze_for(const AnalyzeOptions& o) {
    const Tables tables(table_dirs(o.dirs), std::size_t{256} << 20);
    const int max_pieces = tables.max_pieces(V::id);
    std::ofstream pdn_out;
    if (!o.pdn_out.empty()) {
        errno = 0;
        pdn_out.open(o.pdn_out, std::ios::binary);
        if (!pdn_out) throw std::runtime_error("cannot write " + o.pdn_out + os_reason());
    }
    if (!o.diagrams.empty()) std::filesystem::create_directories(o.diagrams);
    bool first_out = true;
    int table_failures = 0;
    const auto count = for_each_pdn_game<V>(o.file, o.encoding, o.json, [&](int number, const PdnGame<V>& game) {
        const GameAnalysis<V> a = analyze_game(game, tables, max_pieces);
        if (!a.error.empty()) ++table_failures;
        if (o.json)
            print_json(analysis_json(number, game, a));
        else
            print_analysis(number, game, a);
        if (pdn_out.is_open()) {
            pdn_out << (first_out ? "" : "\n") << analysed_pdn(game, a);
            first_out = false;
        }
        if (!o.diagrams.empty()) write_diagrams(o.diagrams, number, a, game);
    });
    if (pdn_out.is_open() && !pdn_out.flush()) throw std::runtime_error("cannot write " + o.pdn_out);
    // Tables that could not answer are a failure (1), before bad input (2).
    if (table_failures > 0)
        throw std::runtime_error("the tables could not answer for " + count_text(table_failures, "game", "games") +
                                 " (see above)");
    finish_pdn_input(o.file, count);
}

}  // namespace

void add_show_command(CLI::App& app);

// dtb analyze, and dtb show, which draws one position as analyze draws its
// turning points.
void add_analyze_commands(CLI::App& app) {
    auto o = std::make_shared<AnalyzeOptions>();
    CLI::App* cmd = app.add_subcommand(
        "analyze",
        "Replay every game of a PDN file against the tables. From the first position whose material the tables\n"
        "hold, gives after every move the value for the side to move (win, draw or loss, and DTW: plies to the\n"
        "end), marks each move that changed the game's value (won -> drawn, drawn -> lost, ...) with the best\n"
        "move instead, and the move-count draw rules' counts, with the move at which a rule ended the game.\n"
        "With the .dtc tables (dtb gen --dtc), every value is judged under the move-count rules too, with the\n"
        "game's counts: a count-drawn win is said so, and a move that throws a win away under the counts is a\n"
        "turning point under them.\n"
        "Once a move-count rule has ended the game, the moves the record gives after it are listed as played\n"
        "after the end, not analysed. A record that ends with the side to move unable to move says who won.\n"
        "A game that cannot be read is reported on its own and the rest are analysed (status 2 at the end).\n"
        "The variant is --variant, else the file's GameType tag (25 russian, 20 international, 26 brazilian).\n"
        "The tables: --dir, else the directories of DTB_PATH (separated by ':'), else ./tablebases.\n"
        "Examples:\n"
        "  dtb analyze games.pdn --variant russian --dir tablebases\n"
        "  DTB_PATH=/data/tablebases dtb analyze games.pdn --pdn-out annotated.pdn --diagrams turns");
    cmd->add_option("file", o->file, "PDN file of games")->required();
    add_variant_option(cmd, o->variant, false, " (default: the variant the file's GameType tag names)");
    cmd->add_option("--dir", o->dirs, kTableDirsHelp);
    add_encoding_option(cmd, o->encoding);
    cmd->add_flag(
        "--json", o->json,
        "One JSON object per game: game, tags, plies, result, in_tables_from (ply, fen, value, rule_wdl), "
        "turning_points, rule_turning_points, draw_by_rule, moves (ply, move, value, counts, turning_point, "
        "rule_wdl, rule_turning_point, draw_by_rule, after_game_end), tables_error, game_end "
        "(null, or how the game ended: by a draw rule, or a side with no move); a game that could not be read: "
        "an object with an \"error\" field");
    cmd->add_option("--pdn-out", o->pdn_out, "Write the games again with each analysed move's value as a {comment}");
    cmd->add_option("--diagrams", o->diagrams,
                    "Directory to write one SVG board per turning point (gameN-plyM.svg): the move played and the "
                    "best move as arrows");
    cmd->callback([o] { with_variant(pdn_variant(o->file, o->variant), [&]<class V>() { run_analyze_for<V>(*o); }); });
    add_show_command(app);
}

}  // namespace dtb
