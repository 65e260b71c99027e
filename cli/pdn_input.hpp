// PDN files as dtb adjudicate --pdn and dtb analyze read them: opened,
// decoded (--encoding), read game by game with rules/pdn.hpp, and the games
// that could not be read reported (text on stderr, or JSON objects with an
// `error` field) without stopping the rest. After the last game,
// finish_pdn_input throws InputError (exit 2) if any game was not read.
// pdn_variant decides which variant's rules read the file: --variant, or
// the file's GameType tag.
#pragma once

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
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

// The file opened for reading, or a runtime_error (exit 1) that says why
// not, in the system's words: "cannot read x.pdn: No such file or directory".
inline std::ifstream open_pdn_file(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw std::runtime_error("cannot read " + path + ": a directory");
    errno = 0;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path + os_reason());
    return in;
}

// The first GameType tag of a PDN text: its value and line.
struct GameTypeTag {
    std::string value;
    int line = 0;
};

// Looks for [GameType "N"], stopping at the first. The text is read in
// pieces that each follow a '[', so that no more than a game's text is
// held; the tag is ASCII in every encoding dtb reads, so the bytes need no
// decoding here. Lines end with "\n", "\r\n" or "\r", as the reader's do.
inline std::optional<GameTypeTag> first_game_type_tag(std::istream& in) {
    int line = 1;
    bool after_cr = false;
    const auto count_lines = [&](const std::string& text) {
        for (char c : text) {
            if (c == '\n' && !after_cr) ++line;
            if (c == '\r') ++line;
            after_cr = c == '\r';
        }
    };
    std::string piece;
    std::getline(in, piece, '[');  // before the first tag
    count_lines(piece);
    while (std::getline(in, piece, '[')) {
        std::size_t i = piece.find_first_not_of(" \t");
        if (i != std::string::npos && piece.compare(i, 8, "GameType") == 0 &&
            (i = piece.find_first_not_of(" \t", i + 8)) != std::string::npos && piece[i] == '"') {
            const std::size_t close = piece.find_first_of("\"\r\n", i + 1);
            if (close != std::string::npos && piece[close] == '"')
                return GameTypeTag{piece.substr(i + 1, close - i - 1), line};
        }
        count_lines(piece);
        after_cr = false;  // a '[' came between
    }
    return std::nullopt;
}

// The name of the variant a GameType value names ("25", "20,W,10,10,N2,0":
// the first field); empty for a number no variant of dtb has, or no number.
inline std::string variant_named_by_game_type(const std::string& value) {
    const std::size_t begin = value.find_first_not_of(" \t");
    if (begin == std::string::npos) return "";
    const std::size_t end = value.find_first_not_of("0123456789", begin);
    const std::string digits = value.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    if (digits.empty() || digits.size() > 3) return "";
    const std::size_t rest = end == std::string::npos ? std::string::npos : value.find_first_not_of(" \t", end);
    if (rest != std::string::npos && value[rest] != ',') return "";
    const auto id = variant_of_game_type(std::stoi(digits));
    return id ? std::string(variant_name(*id)) : "";
}

// The variant whose rules read the games of `path`: `option` (--variant)
// when given, else the one the file's first GameType tag names. Bad input
// (exit 2) when neither names one, or when they disagree; a file that
// cannot be opened is a failure (exit 1), as for reading it.
inline VariantId pdn_variant(const std::string& path, const std::string& option) {
    std::ifstream in = open_pdn_file(path);
    const std::optional<GameTypeTag> tag = first_game_type_tag(in);
    const std::string tagged = tag ? variant_named_by_game_type(tag->value) : "";
    const std::string where =
        tag ? path + ", line " + std::to_string(tag->line) + ": [GameType \"" + tag->value + "\"]" : "";
    if (!option.empty()) {
        if (!tagged.empty() && tagged != option)
            throw InputError("--variant " + option + " disagrees with the file: " + where + " is " + tagged + " (" +
                             game_types_text() + "); give --variant " + tagged +
                             ", or leave --variant out to read the variant from the GameType tag");
        return variant_from_option(option);
    }
    if (!tagged.empty()) return variant_from_option(tagged);
    if (tag)
        throw InputError(where + " names no variant dtb reads (GameType " + game_types_text() + "): give --variant " +
                         choice_list(kVariantNames));
    throw InputError(path + " has no GameType tag to say which variant its games are (GameType " + game_types_text() +
                     "): give --variant " + choice_list(kVariantNames));
}

struct PdnInputCount {
    int games = 0;
    int unread = 0;
};

// Reads every game of `path`, calling `on_game` for each game read; games
// that could not be read are printed (JSON on stdout with --json, else text
// on stderr), and what the reader skipped or read leniently is a warning on
// stderr. Throws runtime_error when the file cannot be opened (exit 1).
template <class V>
PdnInputCount for_each_pdn_game(const std::string& path, const std::string& encoding, bool json,
                                const std::function<void(int, const PdnGame<V>&)>& on_game) {
    const auto enc = parse_text_encoding(encoding);
    if (!enc) throw InputError("--encoding " + encoding + ": not an encoding dtb reads (" + kEncodingNames + ")");
    std::ifstream in = open_pdn_file(path);
    PdnReader<V> reader(in, PdnReadOptions{*enc});
    PdnInputCount count;
    while (auto entry = reader.next()) {
        ++count.games;
        // What the reader skipped or read leniently, on stderr: the JSON on
        // stdout stays one object per game.
        for (const PdnWarning& w : entry->warnings)
            std::cerr << path << ": " << game_title(entry->number, entry->game ? entry->game->tags : entry->error.tags)
                      << ": warning: " << w.message() << '\n';
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
