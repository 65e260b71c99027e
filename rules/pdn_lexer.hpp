// The tokens of one stretch of PDN text (usually one game, cut out by
// pdn::Source): tags, move numbers, words (moves and results), NAGs and
// annotations. Comments {...}, ; and % lines, variations (...) and "..."
// carry no moves and are skipped. Used by rules/pdn.cpp only.
//
// What real files contain and the lexer takes in its stride: a literal
// "\r", "\n" or "\t" (backslash and letter) outside tags, and a no-break
// space, are spaces; "[Empty]" (a tag with no value) is dropped; "[[Event"
// is "[Event"; a line `Event "X"]` or `[Event "X"` is a tag; a move written
// with a space after its separator ("1- 7", "35x 4") is one word. What it
// reads leniently it also notes (take_notes), for the reader's warnings.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dtb::pdn {

// Character classes and small readers, shared with rules/pdn.cpp.
bool is_space(char c);
bool is_digit(char c);
bool is_tag_name_char(char c);
// A run of digits as a number no larger than `max`; nullopt otherwise.
std::optional<int> parse_bounded(std::string_view digits, int max);
// The length of a literal "\r", "\n" or "\t" at the start of `s` (2), or 0.
std::size_t literal_escape_at(std::string_view s);
// Whether `rest`, the rest of a line from its first character that is not
// a space, is a tag that lost its '[': `Name "value"]` or `Name "value"`,
// and nothing after it but spaces and literal escapes.
bool is_bracketless_tag(std::string_view rest);
inline constexpr std::array<std::string_view, 6> kAnnotations{"!", "?", "!!", "??", "!?", "?!"};
inline constexpr int kMaxNag = 255;  // PGN defines glyphs 0..255

enum class TokenKind { Tag, MoveNumber, Word, Nag, Annotation, End };

struct Token {
    TokenKind kind = TokenKind::End;
    std::size_t offset = 0;    // where the token starts in the text
    std::string text;          // as written (a move with its inner space removed); a tag's name
    std::string value;         // a tag's value, unescaped
    int number = 0;            // a move number or a NAG
    bool after_blank = false;  // an empty line stands between it and the token before
};

// What is wrong, and where in the text.
struct SyntaxError {
    std::size_t offset;
    std::string what;
    bool in_tag = false;  // inside a tag: the error belongs to the game the tag begins or continues
    char stray = 0;       // a closing character that belongs to nothing (junk, if between tags)
};

// Something read leniently: where, what, and a key that is the same for
// every note of the same kind, so that the reader counts them as one (empty:
// each note on its own).
struct LexNote {
    std::size_t offset;
    std::string key;
    std::string what;
};

class Lexer {
public:
    explicit Lexer(std::string_view text) : text_(text) {}

    // The next token. Throws SyntaxError; after one, next() goes on past
    // the place of the error.
    Token next();
    // The token after the next, without using it up (errors read as End).
    Token peek() const;

    [[noreturn]] void fail(std::size_t offset, const std::string& what) const {
        throw SyntaxError{offset, what, false};
    }
    // The notes made since the last call.
    std::vector<LexNote> take_notes() { return std::exchange(notes_, {}); }

    // "line 14, column 7" of an offset, the text's first line being `first_line`.
    std::string location(std::size_t offset, int first_line) const;
    int line_of(std::size_t offset, int first_line) const;
    int column_of(std::size_t offset) const;

private:
    bool nbsp_at(std::size_t at) const;
    bool skip_space();  // whether an empty line was skipped
    void skip_line();
    void skip_comment();
    void skip_variation();
    bool at_line_start() const;  // only spaces before pos_ on its line
    // A tag from pos_: at '[' when `bracketed`, else at the name of a line
    // that is_bracketless_tag.
    Token read_tag(bool bracketed);
    Token read_nag();
    Token read_annotation();
    Token read_number_or_word();

    std::string_view text_;
    std::size_t pos_ = 0;
    std::vector<LexNote> notes_;
};

}  // namespace dtb::pdn
