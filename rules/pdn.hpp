// PDN game records (Portable Draughts Notation, the draughts form of chess's
// PGN): reading any number of games from a text, and writing a game back.
//
// A game is a tag section ([Event "..."], [FEN "..."], [GameType "25"], ...)
// followed by movetext: move numbers, moves, comments {...} and ; to the end
// of the line, variations (...) (skipped), NAGs $n, annotations like ! or ?!,
// and a result (1-0 0-1 1/2-1/2 2-0 0-2 1-1 0-0 *) that ends the game.
//
// Moves are read in every form parse_move reads (c3-d4, c3:e5, c3xe5, full
// capture paths, numbers), and for Russian also in the shortened form of
// game records (rule 2.1.6.2): "ed4" is the only plain move from file e
// to d4, "b:d6" the only capture from file b to d6.
//
// Every error is an InputError that says where: "line 14, column 7:
// unterminated comment", "line 3, column 20: game 3, move 12 (black)
// 'e5:g3': illegal move ...". No input makes the reader crash.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/notation.hpp"
#include "rules/position.hpp"

namespace dtb {

struct PdnTag {
    std::string name;   // "Event"
    std::string value;  // unescaped: \" and \\ have become " and \ .
    friend bool operator==(const PdnTag&, const PdnTag&) = default;
};

// One move of a game and what the record said about it.
template <class V>
struct PdnPly {
    Move move;
    std::string text;        // as written in the record: "ed4", "c3xe5", "32-28"
    Position<V> before;      // the position the move was played in
    std::string annotation;  // "!", "?", "!!", "??", "!?", "?!", or empty
    std::vector<int> nags;   // numeric annotation glyphs: $3 is 3
};

template <class V>
struct PdnGame {
    std::vector<PdnTag> tags;  // in the order written
    Position<V> start = initial_position<V>();
    std::vector<PdnPly<V>> plies;
    std::string result = "*";  // the termination marker; "*" when unknown or missing

    // The value of a tag, if the game has it.
    std::optional<std::string> tag(std::string_view name) const {
        for (const PdnTag& t : tags)
            if (t.name == name) return t.value;
        return std::nullopt;
    }

    Position<V> final_position() const { return plies.empty() ? start : plies.back().before.after(plies.back().move); }
};

// Every game of `text`, read by the rules of V. A GameType tag for the other
// variant, or an unknown GameType, is an error; so is every illegal,
// ambiguous or malformed move. Throws InputError.
template <class V>
std::vector<PdnGame<V>> read_pdn_games(std::string_view text);

// The game as PDN: its tags (a GameType tag added when it has none, FEN and
// SetUp written from `start`), a blank line, then the movetext in the
// variant's notation (move_text), numbered, with annotations and NAGs,
// ending with the result, in lines of at most 80 columns. Reading the text
// back gives the same start, moves, annotations and result. Throws
// InputError for what PDN cannot hold (a tag value with a line break, an
// illegal move, an unknown result).
template <class V>
std::string write_pdn_game(const PdnGame<V>& game);

// The games one after another, a blank line between them.
template <class V>
std::string write_pdn_games(const std::vector<PdnGame<V>>& games);

}  // namespace dtb
