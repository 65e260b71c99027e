// dtb variants, dtb perft, dtb moves.
#include <chrono>

#include "cli/options.hpp"
#include "rules/notation.hpp"
#include "rules/perft.hpp"

namespace dtb {

namespace {

struct PerftOptions {
    std::string variant;
    std::string fen;
    int depth = 0;
    std::string duplicates = "drop";
    bool divide = false;
    bool json = false;
};

Duplicates duplicates_from_option(const std::string& text) {
    return text == "keep" ? Duplicates::Keep : Duplicates::Drop;
}

template <class V>
void run_perft(const PerftOptions& o) {
    const Position<V> pos = o.fen.empty() ? initial_position<V>() : parse_fen<V>(o.fen);
    const Duplicates duplicates = duplicates_from_option(o.duplicates);
    const auto start = std::chrono::steady_clock::now();
    Json divide = Json::array();
    std::uint64_t nodes = 0;
    if (o.divide && o.depth > 0) {
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves, duplicates);
        // Keep mode lists every route: name it by its full path.
        std::vector<CaptureRoute> routes;
        if (duplicates == Duplicates::Keep) routes = MoveGenerator<V>::capture_routes(pos);
        for (std::size_t i = 0; i < moves.size(); ++i) {
            const std::uint64_t n = perft(pos.after(moves[i]), o.depth - 1, duplicates);
            nodes += n;
            const std::string text = routes.empty() ? move_text(pos, moves[i]) : route_text<V>(routes[i]);
            divide.push_back(Json{{"move", text}, {"nodes", n}});
            if (!o.json) std::cout << text << ": " << n << '\n';
        }
    } else {
        nodes = perft(pos, o.depth, duplicates);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (o.json) {
        Json out{
            {"variant", V::name}, {"fen", to_fen(pos)}, {"depth", o.depth}, {"nodes", nodes}, {"seconds", seconds}};
        if (o.divide) out["divide"] = divide;
        print_json(out);
    } else {
        std::cout << "perft(" << o.depth << ") = " << nodes << "  (" << V::name << ", " << to_fen(pos) << ", "
                  << seconds << " s, " << (seconds > 0 ? nodes / seconds / 1e6 : 0.0) << " M nodes/s)\n";
    }
}

struct MovesOptions {
    std::string variant;
    std::string fen;
    std::string duplicates = "drop";
    bool json = false;
};

template <class V>
void run_moves(const MovesOptions& o) {
    const Position<V> pos = parse_fen<V>(o.fen);
    std::vector<std::string> texts;
    if (duplicates_from_option(o.duplicates) == Duplicates::Keep && MoveGenerator<V>::has_capture(pos)) {
        for (const CaptureRoute& route : MoveGenerator<V>::capture_routes(pos)) texts.push_back(route_text<V>(route));
    } else {
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves);
        for (const Move& m : moves) texts.push_back(move_text(pos, m));
    }
    if (o.json) {
        print_json(Json{{"fen", to_fen(pos)}, {"moves", texts}});
        return;
    }
    std::cout << board_diagram(pos) << texts.size() << (texts.size() == 1 ? " legal move" : " legal moves")
              << (texts.empty() ? " (the side to move has lost)" : ":") << '\n';
    for (const std::string& t : texts) std::cout << "  " << t << '\n';
}

// One variant as dtb variants shows it: what the rules say, from its traits.
template <class V>
Json variant_json() {
    Json rules = Json::array();
    for (const DrawRule& r : V::draw_rules)
        rules.push_back(Json{{"rule", r.id}, {"title", r.title}, {"limit", r.limit}});
    return Json{{"variant", V::name},
                {"code", static_cast<int>(V::id)},
                {"board", V::board_text},
                {"size", V::Board::width},
                {"squares", V::Board::squares},
                {"squares_per_row", V::Board::width / 2},
                {"pieces_per_side", V::max_pieces_per_side},
                {"initial_fen", V::initial_fen},
                {"algebraic", V::algebraic_notation},
                {"majority_capture", V::majority_capture},
                {"crowns_during_capture", V::crowns_during_capture},
                {"pdn_game_type", V::pdn_game_type},
                {"draw_rules", rules}};
}

void run_variants(bool json) {
    Json list = Json::array();
    for_each_variant([&]<class V>() { list.push_back(variant_json<V>()); });
    if (json) return print_json(Json{{"variants", list}});
    for (const Json& v : list) {
        std::cout << v["variant"].get<std::string>() << " (" << v["board"].get<std::string>() << ", "
                  << v["pieces_per_side"].get<int>() << " men a side, PDN GameType " << v["pdn_game_type"].get<int>()
                  << "): "
                  << (v["majority_capture"].get<bool>() ? "the most pieces must be taken" : "free choice of capture")
                  << "; a man reaching the last row during a capture "
                  << (v["crowns_during_capture"].get<bool>() ? "goes on as a king" : "stays a man") << "; squares "
                  << (v["algebraic"].get<bool>() ? "a1..h8" : "numbered") << "\n";
        for (const Json& r : v["draw_rules"])
            std::cout << "  " << r["rule"].get<std::string>() << ": " << r["title"].get<std::string>() << "\n";
    }
}

}  // namespace

void add_rules_commands(CLI::App& app) {
    auto variants_json = std::make_shared<bool>(false);
    CLI::App* variants = app.add_subcommand(
        "variants",
        "List the variants dtb knows: board, men, capture rules, notation, PDN GameType and move-count draw rules.\n"
        "Their names are what --variant takes. Example: dtb variants --json");
    variants->add_flag("--json", *variants_json, "One JSON object: variants, each with the fields the text shows");
    variants->callback([variants_json] { run_variants(*variants_json); });

    auto perft_options = std::make_shared<PerftOptions>();
    CLI::App* perft = app.add_subcommand(
        "perft",
        "Count the leaves of the legal move tree to a depth: the standard check of a move generator.\n"
        "Example: dtb perft --variant russian --depth 8");
    add_variant_option(perft, perft_options->variant);
    perft->add_option("--fen", perft_options->fen, "Start position (PDN FEN); default: the initial position");
    perft->add_option("--depth", perft_options->depth, "Plies to search")->required()->check(CLI::Range(0, 40));
    perft
        ->add_option("--duplicates", perft_options->duplicates,
                     "drop: capture routes with the same start, end and captured pieces count once; keep: every route")
        ->check(CLI::IsMember({"drop", "keep"}));
    perft->add_flag("--divide", perft_options->divide, "Also count below each move of the start position");
    perft->add_flag("--json", perft_options->json, "One JSON object: variant, fen, depth, nodes, seconds");
    perft->callback([perft_options] {
        with_variant(variant_from_option(perft_options->variant), [&]<class V>() { run_perft<V>(*perft_options); });
    });

    auto moves_options = std::make_shared<MovesOptions>();
    CLI::App* moves = app.add_subcommand("moves",
                                         "List the legal moves of a position.\n"
                                         "Example: dtb moves --variant russian --fen W:Wc3:Bd4,f6");
    add_variant_option(moves, moves_options->variant);
    moves->add_option("--fen", moves_options->fen, "Position (PDN FEN)")->required();
    moves
        ->add_option("--duplicates", moves_options->duplicates,
                     "drop: one entry per distinct move; keep: every capture route, with its full path")
        ->check(CLI::IsMember({"drop", "keep"}));
    moves->add_flag("--json", moves_options->json, "One JSON object: fen, moves");
    moves->callback([moves_options] {
        with_variant(variant_from_option(moves_options->variant), [&]<class V>() { run_moves<V>(*moves_options); });
    });
}

}  // namespace dtb
