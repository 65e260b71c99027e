// PDN files as dtb adjudicate --pdn and dtb analyze read them: opened,
// decoded (--encoding), read game by game with rules/pdn.hpp, and the games
// that could not be read reported (text on stderr, or JSON objects with an
// `error` field) without stopping the rest. After the last game,
// finish_pdn_input throws InputError (exit 2) if any game was not read.
#pragma once

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "cli/options.hpp"
#include "rules/pdn.hpp"
#include "rules/text_encoding.hpp"

namespace dtb {

inline CLI::Option* add_encoding_option(CLI::App* command, std::string& encoding) {
    return command
        ->add_option("--encoding", encoding,
                     std::string("Text encoding of the PDN file: ") + kEncodingNames +
                         " (default auto: UTF-8 with or without a byte-order mark, else the code page is guessed)")
        ->default_val("auto");
}

inline Json tags_json(const std::vector<PdnTag>& tags) {
    Json j = Json::object();
    for (const PdnTag& t : tags) j[t.name] = t.value;
    return j;
}

// A game that could not be read, as JSON: "game", "error" (the whole
// message), then its parts.
inline Json pdn_error_json(int number, const PdnError& e) {
    const bool at_move = !e.move.empty();
    return Json{{"game", number},
                {"error", e.message()},
                {"line", e.line},
                {"column", e.column},
                {"move", at_move ? Json(e.move) : Json(nullptr)},
                {"move_number", at_move ? Json(e.move_number) : Json(nullptr)},
                {"side", at_move ? Json(e.side == White ? "white" : "black") : Json(nullptr)},
                {"reason", e.reason},
                {"tags", tags_json(e.tags)}};
}

// "Game 3 (Event "X", White "A", Black "B")": the tags that say which game.
inline std::string game_title(int number, const std::vector<PdnTag>& tags) {
    std::string title = "Game " + std::to_string(number);
    std::string said;
    for (const char* name : {"Event", "Date", "White", "Black"})
        for (const PdnTag& t : tags)
            if (t.name == name && !t.value.empty()) said += (said.empty() ? "" : ", ") + t.name + " \"" + t.value + '"';
    return said.empty() ? title : title + " (" + said + ")";
}

struct PdnInputCount {
    int games = 0;
    int unread = 0;
};

// Reads every game of `path`, calling `on_game` for each game read; games
// that could not be read are printed (JSON on stdout with --json, else text
// on stderr). Throws runtime_error when the file cannot be opened (exit 1).
template <class V>
PdnInputCount for_each_pdn_game(const std::string& path, const std::string& encoding, bool json,
                                const std::function<void(int, const PdnGame<V>&)>& on_game) {
    const auto enc = parse_text_encoding(encoding);
    if (!enc) throw InputError("--encoding " + encoding + ": not an encoding dtb reads (" + kEncodingNames + ")");
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw std::runtime_error("cannot read " + path + ": a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path);
    PdnReader<V> reader(in, PdnReadOptions{*enc});
    PdnInputCount count;
    while (auto entry = reader.next()) {
        ++count.games;
        if (entry->game) {
            on_game(entry->number, *entry->game);
            continue;
        }
        ++count.unread;
        if (json)
            print_json(pdn_error_json(entry->number, entry->error));
        else
            std::cerr << path << ": " << game_title(entry->number, entry->error.tags)
                      << " could not be read: " << entry->error.message() << '\n';
    }
    return count;
}

// After the last game: status 2 if any game could not be read.
inline void finish_pdn_input(const std::string& path, const PdnInputCount& count) {
    if (count.unread > 0)
        throw InputError(path + ": " + std::to_string(count.unread) + " of " + std::to_string(count.games) +
                         (count.games == 1 ? " game" : " games") + " could not be read");
}

}  // namespace dtb
