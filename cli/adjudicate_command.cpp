// dtb adjudicate: the move-count draw rules (rules/draw_rules.hpp) applied
// to a position with the tables, to the games of a PDN file, or over a
// whole table as a report.
//
//   --fen FEN --moves-played K   goes through dtb_adjudicate (dtb/probe.h),
//                                the call an engine makes, so that what the
//                                program prints is what engines get;
//   --pdn FILE                   replays each game with DrawTracker (counts
//                                only; with --dir also the tables' answer
//                                where the count began);
//   --report SIG                 counts the positions of a table won within
//                                each limit the rules set for its material.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "dtb/probe.h"
#include "cli/c_api.hpp"
#include "probe/adjudicate.hpp"
#include "probe/tablebase.hpp"
#include "cli/options.hpp"
#include "rules/draw_tracker.hpp"
#include "rules/notation.hpp"
#include "rules/pdn.hpp"

namespace dtb {

namespace {

struct AdjudicateOptions {
    std::string variant;
    std::vector<std::string> dirs;
    std::string fen;
    std::optional<int> moves_played;
    std::optional<int> king_moves;
    std::string pdn;
    std::string report;
    bool json = false;
};

using probe::detail::moves_text;
using probe::detail::side_name;
const char* color_word(Color c) { return c == White ? "white" : "black"; }

// A handle on the tables through the C API, closed at the end.
class Tables {
public:
    explicit Tables(const std::vector<std::string>& dirs) : tables_(dirs), tb_(tables_.get()) {}

    // The adjudication, or throws: InputError for a bad position (exit 2),
    // runtime_error when the tables cannot answer (exit 1).
    dtb_adjudication adjudicate(const dtb_position& pos, int moves, int king_moves) const {
        dtb_adjudication a;
        const int s = dtb_adjudicate(tb_, &pos, moves, king_moves, &a);
        if (s == DTB_BAD_POSITION || s == DTB_BAD_ARGUMENT) throw InputError(dtb_error_message(tb_));
        if (s != DTB_OK) throw std::runtime_error(dtb_error_message(tb_));
        return a;
    }

private:
    OpenTables tables_;
    dtb_tablebase* tb_;
};

dtb_position c_position(int variant, const std::string& fen) {
    dtb_position pos;
    char err[1024];
    if (dtb_position_from_fen(variant, fen.c_str(), &pos, err, sizeof err) != DTB_OK) throw InputError(err);
    return pos;
}

Json adjudication_json(const dtb_adjudication& a) {
    Json rules = Json::array();
    for (std::size_t i = 0; i < a.n_rules; ++i) {
        const dtb_draw_rule& r = a.rules[i];
        Json j{{"rule", r.id}, {"title", r.title}, {"limit_moves", r.limit}, {"applies", r.applies != 0}};
        if (r.applies) {
            j["moves_played"] = r.moves_made;
            j["moves_left"] = r.moves_left;
            j["ends_first"] = r.ends_first != 0;
        } else {
            j["why_not"] = r.note;
        }
        rules.push_back(j);
    }
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
        {"verdict", a.verdict},
        {"basis", a.basis},
        {"stronger_side", a.stronger_side < 0 ? Json(nullptr) : Json(a.stronger_side == DTB_WHITE ? "white" : "black")},
        {"wdl", has_rule ? Json(wdl_word(a.wdl)) : Json(nullptr)},
        {"dtw", a.dtw >= 0 ? Json(a.dtw) : Json(nullptr)},
        {"also_ending_then", also},
        {"rules_considered", rules}};
}

// --------------------------------------------------------------------------
// --fen

void run_fen(const AdjudicateOptions& o) {
    if (!o.moves_played)
        throw InputError("--moves-played is required with --fen: the stronger side's moves since the count started");
    const int moves = *o.moves_played;
    const int king_moves = o.king_moves.value_or(moves);
    const int variant = c_variant(o.variant);
    const dtb_position pos = c_position(variant, o.fen);
    Tables tables(o.dirs);
    const dtb_adjudication a = tables.adjudicate(pos, moves, king_moves);
    char fen[512];
    dtb_position_to_fen(&pos, fen, sizeof fen);
    if (o.json) {
        Json j{{"variant", o.variant}, {"fen", fen}, {"moves_played", moves}, {"king_moves_played", king_moves}};
        j.update(adjudication_json(a));
        print_json(j);
        return;
    }
    std::cout << "Position:  " << fen << " (" << (pos.side_to_move == DTB_WHITE ? "White" : "Black") << " to move), "
              << moves << " moves played since the count started";
    if (king_moves != moves) std::cout << ", " << king_moves << " king moves in a row";
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
            std::cout << "does not apply (" << r.note << ")";
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
    }
    std::cout << "Verdict:   " << a.verdict << '\n';
}

// --------------------------------------------------------------------------
// --pdn

// Move number and side of the ply-th ply (1-based) of a game that starts
// with `first` to move.
std::pair<int, Color> move_of_ply(int ply, Color first) {
    const int q = ply - 1 + (first == Black ? 1 : 0);
    return {q / 2 + 1, q % 2 == 0 ? White : Black};
}

// "move 19 (White)", or "the start of the game".
std::string after_ply_text(int ply, Color first) {
    if (ply == 0) return "the start of the game";
    const auto [number, side] = move_of_ply(ply, first);
    return "move " + std::to_string(number) + " (" + side_name(side) + ")";
}

template <class V>
std::string reason_text(const DrawReached& d, Color first) {
    const DrawRule& r = V::draw_rules[d.rule];
    const std::string since = after_ply_text(d.count_start_ply, first);
    switch (r.count) {
        case DrawCount::stronger_side_moves:
            return std::string(side_name(*d.stronger)) + "'s move " + std::to_string(r.limit) + " since " + since +
                   ", when " + std::string(r.title) + " stood on the board, did not capture the lone king";
        case DrawCount::moves_without_conversion:
            return moves_text(r.limit) + " of each side with no capture and no crowning since " + since +
                   ", both sides having kings (" + std::string(r.title) + ")";
        case DrawCount::king_moves:
            return moves_text(r.limit) + " of each side with only kings moved and nothing captured since " + since;
        case DrawCount::repetitions:
            return "this position stands for the " + std::to_string(d.moves_counted) +
                   (d.moves_counted == 3 ? "rd" : "th") +
                   " time with the same side to move: a draw may be claimed (2.1.9.2)";
    }
    return {};
}

template <class V>
void run_pdn_for(const AdjudicateOptions& o) {
    std::ifstream in(o.pdn, std::ios::binary);
    if (!in) throw InputError("cannot read " + o.pdn);
    std::stringstream text;
    text << in.rdbuf();
    const std::vector<PdnGame<V>> games = read_pdn_games<V>(text.str());
    std::optional<Tables> tables;
    if (!o.dirs.empty()) tables.emplace(o.dirs);
    const int variant = c_variant(o.variant);

    int number = 0, drawn = 0;
    for (const PdnGame<V>& game : games) {
        ++number;
        DrawTracker<V> tracker(game.start);
        std::optional<DrawReached> draw;
        std::string move_written;
        for (const PdnPly<V>& ply : game.plies) {
            draw = tracker.play(ply.move);
            if (draw) {
                move_written = move_text(ply.before, ply.move);
                break;
            }
        }
        const Color first = game.start.side_to_move;
        Json tags = Json::object();
        for (const PdnTag& t : game.tags) tags[t.name] = t.value;
        Json j{{"game", number}, {"tags", tags}, {"plies", game.plies.size()}, {"result", game.result}};
        std::optional<dtb_adjudication> at_start;
        std::string start_fen;
        if (draw) {
            ++drawn;
            const DrawRule& r = V::draw_rules[draw->rule];
            const auto [move_number, side] = move_of_ply(draw->ply, first);
            j["draw_rule"] = r.id;
            j["rule_title"] = r.title;
            j["move_number"] = move_number;
            j["side"] = color_word(side);
            j["ply"] = draw->ply;
            j["move"] = move_written;
            j["reason"] = reason_text<V>(*draw, first);
            Json also = Json::array();
            for (std::size_t i : draw->also) also.push_back(V::draw_rules[i].id);
            j["also"] = also;
            j["plies_after"] = int(game.plies.size()) - draw->ply;
            if (r.count != DrawCount::repetitions) {
                const auto [n, s] = move_of_ply(std::max(draw->count_start_ply, 1), first);
                j["count_started"] =
                    draw->count_start_ply == 0
                        ? Json{{"ply", 0}, {"move_number", nullptr}, {"side", nullptr}}
                        : Json{{"ply", draw->count_start_ply}, {"move_number", n}, {"side", color_word(s)}};
            } else {
                j["count_started"] = nullptr;
            }
            // With the tables: could the stronger side still win when the
            // count began?
            if (tables && r.count != DrawCount::repetitions) {
                const std::size_t at = std::size_t(draw->count_start_ply);
                const Position<V> start = at < game.plies.size() ? game.plies[at].before : game.final_position();
                start_fen = to_fen(start);
                try {
                    at_start = tables->adjudicate(c_position(variant, start_fen), 0, 0);
                    Json a = adjudication_json(*at_start);
                    a.erase("rules_considered");
                    j["at_count_start"] = Json{{"fen", start_fen}};
                    j["at_count_start"].update(a);
                } catch (const std::exception& e) {
                    j["at_count_start"] = Json{{"fen", start_fen}, {"error", e.what()}};
                }
            }
        } else {
            j["draw_rule"] = nullptr;
            j["move_number"] = nullptr;
            j["side"] = nullptr;
            j["reason"] = "no draw by rule in the " + std::to_string(game.plies.size()) + " plies of the record";
        }
        if (o.json) {
            print_json(j);
            continue;
        }
        std::cout << "Game " << number;
        for (const char* tag : {"Event", "White", "Black"})
            if (auto v = game.tag(tag))
                std::cout << (std::string(tag) == "Event" ? ": " : ", ") << tag << " \"" << *v << '"';
        std::cout << " (" << game.plies.size() << " plies, result " << game.result << ")\n";
        if (!draw) {
            std::cout << "  No draw by rule.\n";
            continue;
        }
        const auto [move_number, side] = move_of_ply(draw->ply, first);
        std::cout << "  Draw by rule " << V::draw_rules[draw->rule].id << " at move " << move_number << " ("
                  << side_name(side) << ", " << move_number << (side == White ? ". " : "... ") << move_written
                  << "): " << reason_text<V>(*draw, first) << ".\n";
        for (std::size_t i : draw->also) std::cout << "  Also by rule " << V::draw_rules[i].id << " at that move.\n";
        if (int after = int(game.plies.size()) - draw->ply; after > 0)
            std::cout << "  (The record goes on for " << after << (after == 1 ? " more ply.)\n" : " more plies.)\n");
        if (j.contains("at_count_start")) {
            const Json& s = j["at_count_start"];
            std::cout << "  Where the count began (" << s["fen"].get<std::string>() << "): "
                      << (s.contains("error") ? "the tables could not say: " + s["error"].get<std::string>()
                                              : s["verdict"].get<std::string>())
                      << '\n';
        }
    }
    if (!o.json) std::cout << number << " games, " << drawn << " reached a draw by rule\n";
}

// --------------------------------------------------------------------------
// --report

template <class V>
void run_report_for(const AdjudicateOptions& o) {
    const auto sig = MaterialSignature::parse(o.report);
    if (!sig) throw InputError("--report " + o.report + ": not a material signature (like KKKvK)");
    std::vector<std::filesystem::path> dirs(o.dirs.begin(), o.dirs.end());
    auto tb = probe::Tablebase::open(dirs, std::size_t{256} << 20);
    if (!tb) throw std::runtime_error(tb.error().message);
    const probe::Search<V> search(**tb);

    // The stronger side is the signature's first side (White in the table
    // of `sig`), unless that is the lone king.
    const bool first_is_lone = sig->kings[0] == 1 && sig->men[0] == 0 && sig->pieces(1) > 1;
    const MaterialSignature strong_first = first_is_lone ? sig->mirror() : *sig;

    // The rules that cover the material (board conditions aside) and the
    // classes of positions their board conditions name.
    std::set<int, std::greater<>> limits;
    std::vector<const DrawRule*> rules;
    bool road_strong = false, road_lone = false;
    {
        const auto index = PositionIndex<V>(strong_first);
        const Position<V> sample = index.unrank(0);  // White: the stronger side
        for (const DrawRule& r : V::draw_rules) {
            if (r.count == DrawCount::repetitions || !material_covers(r, sample, lone_king_opponent(sample))) continue;
            limits.insert(r.limit);
            rules.push_back(&r);
            road_strong |= r.board == BoardCondition::stronger_king_on_main_road;
            road_lone |= r.board == BoardCondition::lone_king_on_main_road;
        }
        // The shortest count of the variant too: the wins any count leaves
        // room for (3.5's 5 moves, 2.1.9.1.5 and .7's 5).
        limits.insert(shortest_limit(V::draw_rules));
    }
    constexpr Bitboard road = main_road<typename V::Board>();

    // Which positions a row counts.
    enum class Class { all, stronger_king_on_road, lone_king_on_road };
    struct Row {
        Row(Class c, std::string n) : which(c), name(std::move(n)) {}
        Class which;
        std::string name;
        std::uint64_t positions = 0, won = 0, drawn = 0, lost = 0;
        std::map<int, std::uint64_t, std::greater<>> within;  // limit -> won within it
        int longest = 0;                                      // moves
    };
    Json sides = Json::array();
    if (!o.json) {
        std::cout << V::name << " " << strong_first.name() << ": the stronger side ("
                  << std::string(strong_first.kings[0], 'K') + std::string(strong_first.men[0], 'M')
                  << ") needs (DTW + 1) / 2 of its own moves when it is to move, DTW / 2 when the other side is.\n";
        std::cout << "Rules for this material:";
        for (std::size_t i = 0; i < rules.size(); ++i)
            std::cout << (i ? "; " : " ") << rules[i]->id << ": " << moves_text(rules[i]->limit);
        std::cout << '\n';
    }
    for (const bool stronger_to_move : {true, false}) {
        const MaterialSignature table = stronger_to_move ? strong_first : strong_first.mirror();
        const PositionIndex<V> index(table);
        typename PositionIndex<V>::Cursor cursor(index);
        std::vector<Row> rows{Row(Class::all, "all positions")};
        if (road_strong)
            rows.emplace_back(Class::stronger_king_on_road, "a king of the stronger side on the main road");
        if (road_lone) rows.emplace_back(Class::lone_king_on_road, "the lone king on the main road");
        for (Row& row : rows)
            for (int l : limits) row.within[l] = 0;
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const Position<V> pos = cursor.at(i);  // White to move
            const Color strong = stronger_to_move ? White : Black;
            auto value = search.value(pos);
            if (!value) throw std::runtime_error(value.error().message);
            const int wdl = stronger_to_move ? probe::wdl_of(*value) : -probe::wdl_of(*value);
            const int need = wdl > 0 ? (stronger_to_move ? (*value + 1) / 2 : *value / 2) : 0;
            for (Row& row : rows) {
                const bool counted = row.which == Class::all ||
                                     (row.which == Class::stronger_king_on_road && (pos.kings_of(strong) & road)) ||
                                     (row.which == Class::lone_king_on_road && (pos.kings_of(opponent(strong)) & road));
                if (!counted) continue;
                ++row.positions;
                if (wdl > 0) {
                    ++row.won;
                    row.longest = std::max(row.longest, need);
                    for (auto& [l, n] : row.within)
                        if (need <= l) ++n;
                } else if (wdl == 0) {
                    ++row.drawn;
                } else {
                    ++row.lost;
                }
            }
        }
        const std::string who = stronger_to_move ? "the stronger side to move (" + table.name() + ")"
                                                 : "the other side to move (" + table.name() + ")";
        Json jrows = Json::array();
        for (const Row& row : rows) {
            Json within = Json::object();
            for (const auto& [l, n] : row.within) within[std::to_string(l)] = n;
            jrows.push_back(Json{{"positions_with", row.name},
                                 {"positions", row.positions},
                                 {"won", row.won},
                                 {"won_within", within},
                                 {"drawn", row.drawn},
                                 {"lost", row.lost},
                                 {"longest_win_moves", row.won ? Json(row.longest) : Json(nullptr)}});
        }
        sides.push_back(
            Json{{"to_move", stronger_to_move ? "stronger" : "other"}, {"table", table.name()}, {"rows", jrows}});
        if (o.json) continue;
        std::cout << "\nWith " << who << ":\n";
        std::cout << "  " << std::left << std::setw(46) << "positions" << std::right << std::setw(10) << "count"
                  << std::setw(10) << "won";
        for (int l : limits) std::cout << std::setw(10) << ("<=" + std::to_string(l));
        std::cout << std::setw(10) << "drawn" << std::setw(10) << "lost" << std::setw(9) << "longest" << '\n';
        for (const Row& row : rows) {
            std::cout << "  " << std::left << std::setw(46) << row.name << std::right << std::setw(10) << row.positions
                      << std::setw(10) << row.won;
            for (const auto& [l, n] : row.within) std::cout << std::setw(10) << n;
            std::cout << std::setw(10) << row.drawn << std::setw(10) << row.lost << std::setw(9)
                      << (row.won ? std::to_string(row.longest) : "-") << '\n';
        }
    }
    if (o.json) {
        Json jrules = Json::array();
        for (const DrawRule* r : rules) jrules.push_back(Json{{"rule", r->id}, {"limit_moves", r->limit}});
        print_json(Json{{"variant", V::name},
                        {"signature", strong_first.name()},
                        {"rules", jrules},
                        {"moves",
                         "won_within counts positions whose stronger side needs at most that many of its own "
                         "moves: (DTW + 1) / 2 when it is to move, DTW / 2 when the other side is"},
                        {"sides", sides}});
    } else {
        std::cout << "\n(\"<=N\": won within N moves of the stronger side; \"longest\": the most moves a win needs.)\n";
    }
}

void run_adjudicate(const AdjudicateOptions& o) {
    const int modes = int(!o.fen.empty()) + int(!o.pdn.empty()) + int(!o.report.empty());
    if (modes != 1) throw InputError("give exactly one of --fen, --pdn and --report");
    if ((!o.fen.empty() || !o.report.empty()) && o.dirs.empty())
        throw InputError("--dir is required with --fen and --report: the tables to read");
    if (o.moves_played.value_or(0) < 0 || o.king_moves.value_or(0) < 0)
        throw InputError("--moves-played and --king-moves count moves: 0 or more");
    if ((o.moves_played || o.king_moves) && o.fen.empty())
        throw InputError("--moves-played and --king-moves go with --fen");
    if (!o.fen.empty()) return run_fen(o);
    with_variant(variant_from_option(o.variant), [&]<class V>() {
        if (!o.pdn.empty())
            run_pdn_for<V>(o);
        else
            run_report_for<V>(o);
    });
}

}  // namespace

void add_adjudicate_commands(CLI::App& app) {
    auto o = std::make_shared<AdjudicateOptions>();
    CLI::App* cmd = app.add_subcommand(
        "adjudicate",
        "Apply the move-count draw rules (Russian 2.1.9.1.3-.9, international 3.5).\n"
        "--fen: which rule ends the game first, the moves it leaves the stronger side (its limit less\n"
        "--moves-played), and whether that side can still win within them, from the tables' DTW (the winner\n"
        "needs (DTW+1)/2 of its moves when to move, DTW/2 otherwise), said exactly or marked not proven.\n"
        "--pdn: replays every game of a file and reports the move at which a draw by rule was reached or\n"
        "could be claimed (threefold repetition); tables are optional. --report SIG: how many positions of\n"
        "a table are won, and won within each limit, for both sides to move.\n"
        "Exit status: 0 answered, 1 a table was missing or damaged, 2 bad input.\n"
        "Examples:\n"
        "  dtb adjudicate --variant russian --dir tables --fen W:WKf8,Ke7,Kh6:BKb8 --moves-played 3\n"
        "  dtb adjudicate --variant russian --pdn games.pdn --json\n"
        "  dtb adjudicate --variant russian --dir tables --report KKKvK");
    add_variant_option(cmd, o->variant);
    cmd->add_option("--dir", o->dirs, "Directory holding the .wdl, .dtw and .json files (repeat for several)");
    cmd->add_option("--fen", o->fen, "Position in PDN FEN, side to move first");
    cmd->add_option("--moves-played", o->moves_played,
                    "With --fen: moves the stronger side has made since the count started (since the material "
                    "first stood on the board)");
    cmd->add_option("--king-moves", o->king_moves,
                    "With --fen: moves in a row with only kings moved and nothing captured, for 2.1.9.1.8 and "
                    "3.5's 25 moves, if not the same as --moves-played (a man move restarts that count)");
    cmd->add_option("--pdn", o->pdn, "PDN file of games to replay");
    cmd->add_option("--report", o->report, "Material signature to report on, like KKKvK");
    cmd->add_flag("--json", o->json,
                  "JSON: with --fen one object (rule, limit_moves, moves_left, winnable, moves_needed, verdict, ...); "
                  "with --pdn one object per game; with --report one object");
    cmd->callback([o] { run_adjudicate(*o); });
}

}  // namespace dtb
