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
// Every error says where: "line 14, column 7: unterminated comment", "line
// 3, column 20: game 3, move 12 (black) 'e5:g3': illegal move ...". No input
// makes the reader crash.
#pragma once

#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/notation.hpp"
#include "rules/position.hpp"
#include "rules/text_encoding.hpp"

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

// Where and why a game could not be read.
struct PdnError {
    int game = 0;              // its number in the file, from 1
    int line = 0, column = 0;  // where, in the file
    std::string move;          // the move written there; empty when the error is not at a move
    int move_number = 0;       // with `move`: its number in the record
    Color side = White;        // with `move`: who played it
    std::string reason;        // what is wrong
    std::vector<PdnTag> tags;  // the tags read of the game, to tell which it was
    bool names_game = true;    // false for a syntax error, which the message gives by place only

    // "line 5, column 10: game 3, move 2 (black) 'e5:g3': illegal move ...".
    std::string message() const;
};

// Something the reader skipped or read leniently within a game (a literal
// "\r" after a tag, a tag line without its '['), where it first occurred.
struct PdnWarning {
    int line = 0, column = 0;  // where, in the file (the first time, if several)
    std::string what;          // what was skipped or how it was read
    int count = 1;             // how many times in the game

    // "line 2, column 12: a literal '\r' (a backslash and 'r') is read as a space (8 times in this game)".
    std::string message() const;
};

// One game of a file as read: the game, or why it could not be.
template <class V>
struct PdnEntry {
    int number = 0;  // the game's number in the file, from 1
    std::optional<PdnGame<V>> game;
    PdnError error;  // when there is no game
    // With an error: the game as far as it was read, its tags and the moves
    // before the one that failed (result "*"). Empty for an error between games.
    PdnGame<V> partial;
    std::vector<PdnWarning> warnings;  // of this game, read or not
};

struct PdnReadOptions {
    TextEncoding encoding = TextEncoding::automatic;  // automatic: UTF-8 (a byte-order mark is skipped) or guessed
};

// Reads the games of a stream one at a time, each on its own: a game that
// cannot be read (bad syntax, an illegal, ambiguous or unknown "-" move, a
// GameType of the other variant) is one entry with one error, the rest of
// that game is skipped up to its result or the next game's tags, and the
// next game is read as usual: the reader finds its place again at the next
// game, never inside one. Only one game is held in memory at a time.
//
// Lenient about writing (each case is in docs/PDN.md): a byte-order mark;
// Latin-1, CP1251 and CP866 text; line ends "\n", "\r\n" or "\r"; a
// literal "\r", "\n" or "\t" outside tags; "[Empty]" and "[[Event"; a tag
// line without its '[' or its ']'; a stray ']', '"', '\\', '}' or ')'
// between the tags of a game; a space after a move's separator ("1- 7",
// "35x 4"); a result written "-", "½-½" or as a score ("4-6") at the end of
// a game; a tag section with no moves followed by the next game's (after an
// empty line, or starting again from its first tag); "a3b4" with no
// separator; a capture named by the squares it stops on or passes, or
// settled by the next move. What was skipped or read leniently is in the
// entry's warnings; none of it splits a game or costs one.
// Strict about the rules: every move must be legal in V.
template <class V>
class PdnReader {
public:
    explicit PdnReader(std::istream& in, PdnReadOptions options = {});
    ~PdnReader();
    PdnReader(const PdnReader&) = delete;
    PdnReader& operator=(const PdnReader&) = delete;

    // The next game or error; nullopt at the end of the stream.
    std::optional<PdnEntry<V>> next();
    // The encoding the text is read in (automatic until a line needed one).
    TextEncoding encoding() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Every game of `text`, read by PdnReader; the first error is thrown as an
// InputError with its message.
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

// As above, with comments[i] written as {comment} after ply i (none where
// it is empty or missing): how dtb analyze gives its values to any PDN
// reader.
template <class V>
std::string write_pdn_game(const PdnGame<V>& game, const std::vector<std::string>& comments);

// The games one after another, a blank line between them.
template <class V>
std::string write_pdn_games(const std::vector<PdnGame<V>>& games);

}  // namespace dtb
