// dtb adjudicate: the move-count draw rules (rules/draw_rules.hpp) applied
// to a position with the tables, to the games of a PDN file, or over a
// whole table as a report.
//
//   --fen FEN --moves-played K   goes through dtb_adjudicate_position
//                                (dtb/adjudication.h), the call an engine
//                                makes, so that what the program prints is
//                                what engines get;
//   --pdn FILE                   replays each game (rules/game_replay.hpp;
//                                counts only; with --dir also the tables'
//                                answers with the game's counts, exact to
//                                the ply: where the count began, the move
//                                that let a win slip, the end of the record:
//                                adjudication/facade.hpp's review_game);
//   --report SIG                 counts the positions of a table won within
//                                each limit the rules set for its material
//                                (adjudication/facade.hpp's material_report).
//
// The answers are computed in adjudication/ as values, through its C API and
// its facade on the C handle; this file puts them into words and JSON.
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "adjudication/facade.hpp"
#include "cli/c_api.hpp"
#include "cli/draw_rule_text.hpp"
#include "cli/options.hpp"
#include "cli/pdn_input.hpp"
#include "cli/position_json.hpp"
#include "cli/position_query.hpp"
#include "cli/table_dirs.hpp"
#include "dtb/adjudication.h"
#include "dtb/probe.h"
#include "rules/game_replay.hpp"
#include "rules/notation.hpp"
#include "rules/pdn.hpp"

namespace dtb {

namespace {

// What the command line asked for.
struct AdjudicateCommandOptions {
    std::string variant;
    std::vector<std::string> dirs;
    std::string fen;
    std::optional<int> moves_played;
    std::optional<int> king_moves;
    std::optional<int> conversion_moves;
    std::string pdn;
    std::string encoding = "auto";
    std::string report;
    bool json = false;
};

const char* color_word(Color c) { return c == White ? "white" : "black"; }

// The adjudication of one position through the tables' facade.
class Adjudicator {
public:
    explicit Adjudicator(const std::vector<std::string>& dirs) : tables_(table_dirs(dirs)), tb_(tables_.get()) {}

    // The adjudication, or throws: InputError for a bad position (exit 2),
    // runtime_error when the tables cannot answer (exit 1).
    dtb_adjudication adjudicate(const dtb_position& pos, int moves, int king_moves, int conversion_moves) const {
        dtb_adjudication a;
        const dtb_counts counts = adjudication::counts_in_moves(moves, king_moves, conversion_moves);
        const int s = dtb_adjudicate_position(tb_, &pos, &counts, &a);
        if (s == DTB_BAD_POSITION || s == DTB_BAD_ARGUMENT) throw InputError(dtb_error_message(tb_));
        if (s != DTB_OK) throw std::runtime_error(dtb_error_message(tb_));
        return a;
    }

    // Best play under the counts to the next conversion (dtb_rule_line).
    std::vector<std::string> line_to_conversion(const dtb_position& pos, const MovesPlayed& played) const {
        auto line = rule_line(tb_, pos, played);
        if (const auto* e = std::get_if<QueryError>(&line)) throw std::runtime_error(e->message);
        return std::get<std::vector<std::string>>(line);
    }

private:
    Tables tables_;
    dtb_tablebase* tb_;
};

// --pdn and --report read many positions: a 256 MiB cache.
constexpr std::size_t kManyPositionsCache = std::size_t{256} << 20;

dtb_position c_position(int variant, const std::string& fen) {
    dtb_position pos;
    char err[1024];
    if (dtb_position_from_fen(variant, fen.c_str(), &pos, err, sizeof err) != DTB_OK) throw InputError(err);
    return pos;
}

// --------------------------------------------------------------------------
// --fen

void print_adjudication(const dtb_position& pos, const std::string& fen, const MovesPlayed& played,
                        const dtb_adjudication& a) {
    std::cout << "Position:  " << fen << " (" << (pos.side_to_move == DTB_WHITE ? "White" : "Black") << " to move), "
              << played.moves << " moves played since the count started";
    if (played.king_moves != played.moves) std::cout << ", " << played.king_moves << " king moves in a row";
    if (played.conversion_moves != played.moves)
        std::cout << ", " << played.conversion_moves << " since the last capture or crowning";
    std::cout << '\n';
    std::cout << "Rules:\n";
    for (std::size_t i = 0; i < a.n_rules; ++i) {
        const dtb_draw_rule& r = a.rules[i];
        std::cout << "  " << (r.ends_first ? "* " : "  ") << std::left << std::setw(28) << r.id << r.title << ": ";
        if (r.applies)
            std::cout << r.limit << " moves, " << r.moves_made << " played, " << r.moves_left << " left"
                      << (int(i) == a.rule ? "  <- ends the game first"
                          : r.ends_first   ? "  <- at the same move"
                                           : "");
        else
            std::cout << "does not apply (" << dtb_rule_note(r.why_not) << ")";
        std::cout << '\n';
    }
    if (a.rule >= 0) {
        std::cout << "Stronger:  " << (a.stronger_side == DTB_WHITE ? "White" : "Black") << " (" << wdl_word(a.wdl)
                  << " with best play";
        if (a.moves_needed >= 0)
            std::cout << ", " << moves_text(a.moves_needed) << " needed; DTW " << a.dtw << " plies";
        std::cout << ")\n";
        std::cout << "Winnable:  " << (a.winnable ? "yes" : "no") << (a.exact ? "" : " (not proven: see below)")
                  << '\n';
        if (a.basis == DTB_BASIS_DTC)
            std::cout << "DTC:       "
                      << (a.dtc >= 0 ? std::to_string(a.dtc) + " plies to the next conversion with every count fresh"
                                     : std::string("drawn under the counts with every count fresh"))
                      << '\n';
    }
    std::cout << "Verdict:   " << verdict_text(a) << '\n';
}

void run_fen(const AdjudicateCommandOptions& o) {
    if (!o.moves_played)
        throw InputError("--moves-played is required with --fen: the stronger side's moves since the count started");
    const int moves = *o.moves_played;
    const MovesPlayed played{moves, o.king_moves.value_or(moves), o.conversion_moves.value_or(moves)};
    const int variant = c_variant(o.variant);
    const dtb_position pos = c_position(variant, o.fen);
    Adjudicator tables(o.dirs);
    const dtb_adjudication a = tables.adjudicate(pos, played.moves, played.king_moves, played.conversion_moves);
    // From the .dtc tables: how the game goes on under these counts to its next conversion.
    std::vector<std::string> line;
    if (a.basis == DTB_BASIS_DTC) line = tables.line_to_conversion(pos, played);
    if (!o.json) {
        print_adjudication(pos, fen_of(pos), played, a);
        if (!line.empty())
            std::cout << "Line:      " << numbered_line(line, pos.side_to_move == DTB_WHITE)
                      << " (best play under these counts, to the next capture or crowning)\n";
        return;
    }
    Json j = adjudicate_json(o.variant, pos, played, a);
    if (a.basis == DTB_BASIS_DTC) j["line_to_conversion"] = line;
    print_json(j);
}

// --------------------------------------------------------------------------
// --pdn

// One game of the file: its replay and, with the tables, their answers
// with the counts as they stood in the game.
template <class V>
struct GameResult {
    int number = 0;
    const PdnGame<V>* game = nullptr;
    GameReplay<V> replay;
    // With --dir: the tables' answers (review_game).
    adjudication::GameReview review;
};

// The ply-th ply of the game, as its record writes it.
template <class V>
std::string ply_text(const PdnGame<V>& game, int ply) {
    const PdnPly<V>& p = game.plies[std::size_t(ply - 1)];
    return move_text(p.before, p.move);
}

template <class V>
Json ply_json(const PdnGame<V>& game, int ply) {
    const auto [move_number, side] = move_of_ply(ply, game.start.side_to_move);
    return Json{{"ply", ply}, {"move_number", move_number}, {"side", color_word(side)}, {"move", ply_text(game, ply)}};
}

Json moment_json(const adjudication::GameMoment& m) {
    Json j{{"fen", m.fen},
           {"ply", m.ply},
           {"counts", {{"plies_since_conversion", m.conversion_plies}, {"plies_of_kings_only", m.king_plies}}}};
    if (m.answer) {
        Json a = adjudication_json(*m.answer);
        a.erase("rules_considered");
        j.update(a);
    } else {
        j["error"] = m.error;
    }
    return j;
}

template <class V>
Json draw_json(const GameResult<V>& g) {
    const DrawReached& draw = *g.replay.draw;
    const DrawRule& r = V::draw_rules[draw.rule];
    const Color first = g.game->start.side_to_move;
    const auto [move_number, side] = move_of_ply(draw.ply, first);
    Json also = Json::array();
    for (std::size_t i : draw.also) also.push_back(V::draw_rules[i].id);
    Json j{{"draw_rule", r.id},
           {"rule_title", r.title},
           {"move_number", move_number},
           {"side", color_word(side)},
           {"ply", draw.ply},
           {"move", ply_text(*g.game, draw.ply)},
           {"reason", reason_text<V>(draw, first)},
           {"also", also},
           {"plies_after", int(g.game->plies.size()) - draw.ply}};
    if (r.count != DrawCount::repetitions) {
        const auto [n, s] = move_of_ply(std::max(draw.count_start_ply, 1), first);
        j["count_started"] = draw.count_start_ply == 0
                                 ? Json{{"ply", 0}, {"move_number", nullptr}, {"side", nullptr}}
                                 : Json{{"ply", draw.count_start_ply}, {"move_number", n}, {"side", color_word(s)}};
    } else {
        j["count_started"] = nullptr;
    }
    if (g.review.at_start) {
        j["at_count_start"] = moment_json(*g.review.at_start);
        Json slips = nullptr;
        if (g.review.slips) {
            slips = Json::array();
            for (int ply : *g.review.slips) slips.push_back(ply_json(*g.game, ply));
        }
        j["wins_slipped"] = slips;
    }
    return j;
}

template <class V>
Json game_json(const GameResult<V>& g, bool asked) {
    Json tags = Json::object();
    for (const PdnTag& t : g.game->tags) tags[t.name] = t.value;
    Json j{{"game", g.number}, {"tags", tags}, {"plies", g.game->plies.size()}, {"result", g.game->result}};
    if (g.replay.draw) {
        j.update(draw_json(g));
    } else {
        j["draw_rule"] = nullptr;
        j["move_number"] = nullptr;
        j["side"] = nullptr;
        j["reason"] = "no draw by rule in the " + std::to_string(g.game->plies.size()) + " plies of the record";
        if (asked) j["at_end"] = g.review.at_end ? moment_json(*g.review.at_end) : Json(nullptr);
    }
    return j;
}

std::string moment_text(const adjudication::GameMoment& m) {
    return "(" + m.fen + "): " + (m.answer ? verdict_text(*m.answer) : "the tables could not say: " + m.error);
}

template <class V>
void print_game(const GameResult<V>& g) {
    const PdnGame<V>& game = *g.game;
    std::cout << "Game " << g.number;
    for (const char* tag : {"Event", "White", "Black"})
        if (auto v = game.tag(tag))
            std::cout << (std::string(tag) == "Event" ? ": " : ", ") << tag << " \"" << *v << '"';
    std::cout << " (" << game.plies.size() << " plies, result " << game.result << ")\n";
    const auto move_words = [&](int ply) {
        const auto [n, side] = move_of_ply(ply, game.start.side_to_move);
        std::ostringstream out;
        out << "move " << n << " (" << side_name(side) << ", " << n << (side == White ? ". " : "... ")
            << ply_text(game, ply) << ")";
        return out.str();
    };
    if (!g.replay.draw) {
        std::cout << "  No draw by rule.\n";
        if (g.review.at_end) std::cout << "  At the end of the record " << moment_text(*g.review.at_end) << '\n';
        return;
    }
    const DrawReached& draw = *g.replay.draw;
    std::cout << "  Draw by rule " << V::draw_rules[draw.rule].id << " at " << move_words(draw.ply) << ": "
              << reason_text<V>(draw, game.start.side_to_move) << ".\n";
    for (std::size_t i : draw.also) std::cout << "  Also by rule " << V::draw_rules[i].id << " at that move.\n";
    if (int after = int(game.plies.size()) - draw.ply; after > 0)
        std::cout << "  (The record goes on for " << after << (after == 1 ? " more ply.)\n" : " more plies.)\n");
    if (g.review.at_start) std::cout << "  Where the count began " << moment_text(*g.review.at_start) << '\n';
    if (g.review.slips)
        for (int ply : *g.review.slips)
            std::cout << "  The win slipped at " << move_words(ply)
                      << ": after it the counts left the stronger side no win.\n";
}

template <class V>
void run_pdn_for(const AdjudicateCommandOptions& o) {
    std::unique_ptr<Tables> tables;  // null: no --dir
    if (!o.dirs.empty()) tables = std::make_unique<Tables>(o.dirs, kManyPositionsCache);
    int drawn = 0;
    const auto count = for_each_pdn_game<V>(o.pdn, o.encoding, o.json, [&](int number, const PdnGame<V>& game) {
        GameResult<V> g;
        g.number = number;
        g.game = &game;
        g.replay = replay_game(game);
        if (g.replay.draw) ++drawn;
        if (tables) g.review = adjudication::review_game(tables->get(), game, g.replay);
        if (o.json)
            print_json(game_json(g, tables != nullptr));
        else
            print_game(g);
    });
    if (!o.json)
        std::cout << count.games << " games, " << drawn << " reached a draw by rule"
                  << (count.unread ? ", " + std::to_string(count.unread) + " could not be read" : "") << '\n';
    finish_pdn_input(o.pdn, count);
}

// --------------------------------------------------------------------------
// --report

const char* class_name(adjudication::PositionClass c) {
    switch (c) {
        case adjudication::PositionClass::all:
            return "all positions";
        case adjudication::PositionClass::stronger_king_on_road:
            return "a king of the stronger side on the main road";
        case adjudication::PositionClass::lone_king_on_road:
            return "the lone king on the main road";
    }
    return "";
}

template <class V>
Json report_json(const adjudication::MaterialReport& report) {
    Json sides = Json::array();
    for (const adjudication::ReportSide& side : report.sides) {
        Json rows = Json::array();
        for (const adjudication::ReportRow& row : side.rows) {
            Json within = Json::object();
            for (const auto& [l, n] : row.within) within[std::to_string(l)] = n;
            rows.push_back(Json{{"positions_with", class_name(row.which)},
                                {"positions", row.positions},
                                {"won", row.won},
                                {"won_within", within},
                                {"drawn", row.drawn},
                                {"lost", row.lost},
                                {"longest_win_moves", row.won ? Json(row.longest) : Json(nullptr)}});
        }
        sides.push_back(Json{
            {"to_move", side.stronger_to_move ? "stronger" : "other"}, {"table", side.table.name()}, {"rows", rows}});
    }
    Json rules = Json::array();
    for (std::size_t i : report.rules)
        rules.push_back(Json{{"rule", V::draw_rules[i].id}, {"limit_moves", V::draw_rules[i].limit}});
    return Json{{"variant", V::name},
                {"signature", report.strong_first.name()},
                {"rules", rules},
                {"moves",
                 "won_within counts positions whose stronger side needs at most that many of its own "
                 "moves: (DTW + 1) / 2 when it is to move, DTW / 2 when the other side is"},
                {"sides", sides}};
}

void print_report_side(const adjudication::MaterialReport& report, const adjudication::ReportSide& side) {
    std::cout << "\nWith " << (side.stronger_to_move ? "the stronger side" : "the other side") << " to move ("
              << side.table.name() << "):\n";
    std::cout << "  " << std::left << std::setw(46) << "positions" << std::right << std::setw(10) << "count"
              << std::setw(10) << "won";
    for (int l : report.limits) std::cout << std::setw(10) << ("<=" + std::to_string(l));
    std::cout << std::setw(10) << "drawn" << std::setw(10) << "lost" << std::setw(9) << "longest" << '\n';
    for (const adjudication::ReportRow& row : side.rows) {
        std::cout << "  " << std::left << std::setw(46) << class_name(row.which) << std::right << std::setw(10)
                  << row.positions << std::setw(10) << row.won;
        for (const auto& [l, n] : row.within) std::cout << std::setw(10) << n;
        std::cout << std::setw(10) << row.drawn << std::setw(10) << row.lost << std::setw(9)
                  << (row.won ? std::to_string(row.longest) : "-") << '\n';
    }
}

template <class V>
void print_report(const adjudication::MaterialReport& report) {
    const MaterialSignature& sig = report.strong_first;
    std::cout << V::name << " " << sig.name() << ": the stronger side ("
              << std::string(sig.kings[0], 'K') + std::string(sig.men[0], 'M')
              << ") needs (DTW + 1) / 2 of its own moves when it is to move, DTW / 2 when the other side is.\n";
    std::cout << "Rules for this material:";
    for (std::size_t i = 0; i < report.rules.size(); ++i) {
        const DrawRule& r = V::draw_rules[report.rules[i]];
        std::cout << (i ? "; " : " ") << r.id << ": " << moves_text(r.limit);
    }
    std::cout << '\n';
    for (const adjudication::ReportSide& side : report.sides) print_report_side(report, side);
    std::cout << "\n(\"<=N\": won within N moves of the stronger side; \"longest\": the most moves a win needs.)\n";
}

template <class V>
void run_report_for(const AdjudicateCommandOptions& o) {
    const auto sig = MaterialSignature::parse(o.report);
    if (!sig) throw InputError("--report " + o.report + ": not a material signature (like KKKvK)");
    const Tables tables(table_dirs(o.dirs), kManyPositionsCache);
    const adjudication::MaterialReport report = adjudication::material_report(tables.get(), V::id, *sig);
    if (o.json)
        print_json(report_json<V>(report));
    else
        print_report<V>(report);
}

void run_adjudicate(const AdjudicateCommandOptions& o) {
    const int modes = int(!o.fen.empty()) + int(!o.pdn.empty()) + int(!o.report.empty());
    if (modes != 1) throw InputError("give exactly one of --fen, --pdn and --report");
    if ((!o.fen.empty() || !o.report.empty()) && o.variant.empty())
        throw InputError("--variant is required with --fen and --report: the rules to play by (" + variant_choices() +
                         ")");
    if (o.moves_played.value_or(0) < 0 || o.king_moves.value_or(0) < 0 || o.conversion_moves.value_or(0) < 0)
        throw InputError("--moves-played, --king-moves and --conversion-moves count moves: 0 or more");
    if ((o.moves_played || o.king_moves || o.conversion_moves) && o.fen.empty())
        throw InputError("--moves-played, --king-moves and --conversion-moves go with --fen");
    if (!o.fen.empty()) return run_fen(o);
    if (!o.pdn.empty()) return with_variant(pdn_variant(o.pdn, o.variant), [&]<class V>() { run_pdn_for<V>(o); });
    with_variant(variant_from_option(o.variant), [&]<class V>() { run_report_for<V>(o); });
}

}  // namespace

void add_adjudicate_commands(CLI::App& app) {
    auto o = std::make_shared<AdjudicateCommandOptions>();
    CLI::App* cmd = app.add_subcommand(
        "adjudicate",
        "Apply the move-count draw rules (Russian 2.1.9.1.3-.9, international 3.5).\n"
        "--fen: which rule ends the game first, the moves it leaves the stronger side (its limit less\n"
        "--moves-played), and whether that side can still win within them, from the tables' DTW (the winner\n"
        "needs (DTW+1)/2 of its moves when to move, DTW/2 otherwise), said exactly or marked not proven.\n"
        "With the .dtc tables (dtb gen --dtc) every answer is exact (basis dtc): they hold the values under\n"
        "the counts, the distance to conversion (docs/VALUES.md).\n"
        "--pdn: replays every game of a file and reports the move at which a draw by rule was reached or\n"
        "could be claimed (threefold repetition); tables are optional (read only with --dir), and the variant\n"
        "is --variant or else the file's GameType tag. With --dir the tables judge the game\n"
        "with its counts as they stood, to the ply: where the deciding count began (could the stronger side\n"
        "still win?), each move that let a win under the counts slip, and for a game with no draw its last\n"
        "position if a count runs there. A game that cannot be read is reported on its own and the rest are\n"
        "read; the status is then 2, after all games (--encoding for old files).\n"
        "--report SIG: how many positions of a table are won, and won within each limit, for both sides\n"
        "to move.\n"
        "The tables of --fen and --report: --dir, else the directories of DTB_PATH (separated by ':'), else\n"
        "./tablebases.\n"
        "Examples:\n"
        "  dtb adjudicate --variant russian --dir tablebases --fen W:WKf8,Ke7,Kh6:BKb8 --moves-played 3\n"
        "  dtb adjudicate --variant russian --pdn examples/games.pdn --dir tablebases --json\n"
        "  dtb adjudicate --variant russian --dir tablebases --report KKKvK");
    add_variant_option(cmd, o->variant, false,
                       " (required with --fen and --report; with --pdn the default is the "
                       "variant the file's GameType tag names)");
    cmd->add_option("--dir", o->dirs,
                    std::string(kTableDirsHelp) + ". With --pdn, tables are read only when --dir names them");
    cmd->add_option("--fen", o->fen, "Position in PDN FEN, side to move first");
    cmd->add_option("--moves-played", o->moves_played,
                    "With --fen: moves the stronger side has made since the count started (since the material "
                    "first stood on the board)");
    cmd->add_option("--king-moves", o->king_moves,
                    "With --fen: moves in a row with only kings moved and nothing captured, for 2.1.9.1.8 and "
                    "3.5's 25 moves, if not the same as --moves-played (a man move restarts that count)");
    cmd->add_option("--conversion-moves", o->conversion_moves,
                    "With --fen: moves since the last capture or crowning, for 2.1.9.1.5, if not the same as "
                    "--moves-played (a capture or crowning restarts that count, not the lone-king counts)");
    cmd->add_option("--pdn", o->pdn, "PDN file of games to replay");
    add_encoding_option(cmd, o->encoding);
    cmd->add_option("--report", o->report, "Material signature to report on, like KKKvK");
    cmd->add_flag("--json", o->json,
                  "JSON: with --fen one object (rule, limit_moves, moves_left, winnable, moves_needed, verdict, ...); "
                  "with --pdn one object per game (a game that could not be read: an object with an \"error\" field); "
                  "with --report one object");
    cmd->callback([o] { run_adjudicate(*o); });
}

}  // namespace dtb
