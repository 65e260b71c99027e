// dtb show: one position as an SVG board diagram (cli/board_svg.hpp), with
// the move played, the tables' best move and their values in the caption.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/board_svg.hpp"
#include "cli/options.hpp"
#include "cli/table_dirs.hpp"
#include "cli/tables.hpp"
#include "cli/value_words.hpp"
#include "rules/notation.hpp"

namespace dtb {

namespace {

struct ShowOptions {
    std::string variant;
    std::string fen;
    std::string move;
    bool best = false;
    std::vector<std::string> dirs;
    std::string output;
};

template <class V>
int value_or_throw(const Tables& tables, const Position<V>& pos) {
    auto v = tables.value(pos);
    if (const auto* e = std::get_if<QueryError>(&v)) throw std::runtime_error(e->message);
    const auto& value = std::get<std::optional<int>>(v);
    if (!value) throw std::runtime_error(dtb_error_message(tables.get()));  // names the missing table
    return *value;
}

template <class V>
BoardDiagram<V> diagram_for(const ShowOptions& o) {
    BoardDiagram<V> d{parse_fen<V>(o.fen), std::nullopt, std::nullopt, {}};
    const Position<V>& pos = d.position;
    if (!o.move.empty()) d.played = parse_move(pos, o.move);
    d.caption = to_fen(pos) + "  (" + side_name(pos.side_to_move) + " to move)";
    // The values only when asked for: tables named, or the best move wanted.
    if (o.dirs.empty() && !o.best) {
        if (d.played) d.caption += "\nplayed (red): " + move_text(pos, *d.played);
        return d;
    }
    const Tables tables(table_dirs(o.dirs));
    const int value = value_or_throw(tables, pos);
    d.caption += "\n" + value_text(value, pos);
    if (o.best) {
        auto best = tables.best(pos);
        if (const auto* e = std::get_if<QueryError>(&best)) throw std::runtime_error(e->message);
        if (const auto& found = std::get<std::optional<BestMove>>(best)) d.best = found->move;
    }
    const bool same = d.best && d.played && *d.best == *d.played;
    if (d.best && !same) d.caption += "; best (green): " + move_text(pos, *d.best);
    if (d.played)
        d.caption += std::string(same ? "\nplayed and best (blue): " : "\nplayed (red): ") + move_text(pos, *d.played) +
                     ", which " + result_words(value_before(value_or_throw(tables, pos.after(*d.played))));
    return d;
}

void run_show(const ShowOptions& o) {
    const std::string svg =
        with_variant(variant_from_option(o.variant), [&]<class V>() { return board_svg(diagram_for<V>(o)); });
    if (o.output.empty() || o.output == "-") {
        std::cout << svg;
        return;
    }
    errno = 0;
    std::ofstream out(o.output, std::ios::binary);
    out << svg;
    if (!out.flush()) throw std::runtime_error("cannot write " + o.output + os_reason());
}

}  // namespace

void add_show_command(CLI::App& app) {
    auto o = std::make_shared<ShowOptions>();
    CLI::App* cmd = app.add_subcommand(
        "show",
        "Draw a position as an SVG board diagram: White at the bottom, the square names of the variant\n"
        "(a-h/1-8 on the 8x8 board, 1-50 on the 10x10), men and kings (a gold ring), the move played as a red\n"
        "arrow and, with --best, the tables' best move as a green one (one blue arrow when they are the same\n"
        "move); each piece a move captures is ringed and crossed out in its arrow's colour. With --dir or\n"
        "--best the caption gives the values; --best without --dir reads the tables of DTB_PATH, else\n"
        "./tablebases.\n"
        "View it in a browser, or make a PNG: rsvg-convert -o board.png board.svg\n"
        "Examples:\n"
        "  dtb show --variant russian --fen W:WKa1,Kc3,Ke1:BKh8 -o board.svg\n"
        "  dtb show --variant russian --fen W:Wc3,e3:Bd6,f6 --move c3-d4 --best --dir tablebases -o board.svg");
    add_variant_option(cmd, o->variant);
    cmd->add_option("--fen", o->fen, "Position in PDN FEN, side to move first")->required();
    cmd->add_option("--move", o->move, "A move to draw as played (red arrow), in any notation dtb reads");
    cmd->add_flag("--best", o->best,
                  "Draw the tables' best move (green arrow), from the tables of --dir or the default");
    cmd->add_option("--dir", o->dirs,
                    std::string(kTableDirsHelp) + ". Without --dir and --best no tables are read: no values");
    cmd->add_option("-o,--output", o->output, "SVG file to write (default: standard output)");
    cmd->callback([o] { run_show(*o); });
}

}  // namespace dtb
