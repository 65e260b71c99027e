// The PDN lexer (see pdn_lexer.hpp).
#include "rules/pdn_lexer.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>

namespace dtb::pdn {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_tag_name_char(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

std::optional<int> parse_bounded(std::string_view digits, int max) {
    if (digits.empty() || digits.size() > 9) return std::nullopt;
    int value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc() || end != digits.data() + digits.size() || value > max) return std::nullopt;
    return value;
}

std::size_t literal_escape_at(std::string_view s) {
    return s.size() >= 2 && s[0] == '\\' && std::string_view("rnt").find(s[1]) != std::string_view::npos ? 2 : 0;
}

namespace {

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

bool is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_line_space(char c) { return is_space(c) && c != '\n'; }
bool is_move_separator(char c) { return c == '-' || c == 'x' || c == 'X' || c == ':'; }

bool ends_word(char c) { return is_space(c) || std::string_view("{}()[];$!?\".\\").find(c) != std::string_view::npos; }

// Whether `s` holds nothing up to its first line end but spaces and
// literal escapes.
bool blank_to_line_end(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size() && s[i] != '\n') {
        if (const std::size_t n = literal_escape_at(s.substr(i))) {
            i += n;
        } else if (is_line_space(s[i])) {
            ++i;
        } else {
            return false;
        }
    }
    return true;
}

}  // namespace

bool is_bracketless_tag(std::string_view s) {
    if (s.empty() || !is_letter(s[0])) return false;
    std::size_t i = 0;
    while (i < s.size() && is_tag_name_char(s[i])) ++i;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i == s.size() || s[i] != '"') return false;
    for (++i;; ++i) {
        if (i >= s.size() || s[i] == '\n') return false;
        if (s[i] == '\\' && i + 1 < s.size() && (s[i + 1] == '"' || s[i + 1] == '\\')) {
            ++i;
            continue;
        }
        if (s[i] == '"') break;
    }
    ++i;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i < s.size() && s[i] == ']') ++i;
    return blank_to_line_end(s.substr(i));
}

int Lexer::line_of(std::size_t offset, int first_line) const {
    const auto end = text_.begin() + std::ptrdiff_t(std::min(offset, text_.size()));
    return first_line + int(std::count(text_.begin(), end, '\n'));
}

int Lexer::column_of(std::size_t offset) const {
    offset = std::min(offset, text_.size());
    const std::size_t newline = offset == 0 ? std::string_view::npos : text_.rfind('\n', offset - 1);
    return int(offset - (newline == std::string_view::npos ? 0 : newline + 1)) + 1;
}

std::string Lexer::location(std::size_t offset, int first_line) const {
    return "line " + std::to_string(line_of(offset, first_line)) + ", column " + std::to_string(column_of(offset));
}

// A no-break space (U+00A0, as UTF-8), which word processors put between
// a move number and its move.
bool Lexer::nbsp_at(std::size_t at) const {
    return at + 1 < text_.size() && text_[at] == '\xC2' && text_[at + 1] == '\xA0';
}

// Whitespace, no-break spaces, and the literal "\r" "\n" "\t" some
// exports leave in the text (noted: they are junk, if harmless).
bool Lexer::skip_space() {
    int newlines = 0;
    bool blank = false;
    while (pos_ < text_.size()) {
        const char c = text_[pos_];
        if (literal_escape_at(text_.substr(pos_))) {
            const std::string escape(text_.substr(pos_, 2));
            notes_.push_back(
                LexNote{pos_, "literal " + escape,
                        "a literal " + quoted(escape) + " (a backslash and '" + escape[1] + "') is read as a space"});
            pos_ += 2;
        } else if (nbsp_at(pos_)) {
            pos_ += 2;
        } else if (is_space(c)) {
            if (c == '\n' && ++newlines >= 2) blank = true;
            ++pos_;
        } else {
            break;
        }
    }
    return blank;
}

Token Lexer::next() {
    bool blank = false;
    try {
        for (;;) {
            blank = skip_space() || blank;
            if (pos_ == text_.size()) return Token{TokenKind::End, pos_, {}, {}, 0, blank};
            const char c = text_[pos_];
            const bool line_start = pos_ == 0 || text_[pos_ - 1] == '\n';
            Token t;
            if (c == '{') {
                skip_comment();
                continue;
            } else if (c == ';' || (c == '%' && line_start)) {  // '%' at a line start: PGN escape line
                skip_line();
                continue;
            } else if (c == '(') {
                skip_variation();
                continue;
            } else if (c == '.') {
                while (pos_ < text_.size() && text_[pos_] == '.') ++pos_;  // "1. ... 18-23"
                continue;
            } else if (c == '[' || (is_letter(c) && at_line_start() && is_bracketless_tag(text_.substr(pos_)))) {
                try {
                    t = read_tag(c == '[');
                } catch (SyntaxError& e) {
                    e.in_tag = true;
                    throw;
                }
                if (t.kind == TokenKind::End) continue;  // "[Empty]": a tag with no value says nothing
            } else if (c == '$') {
                t = read_nag();
            } else if (c == '!' || c == '?') {
                t = read_annotation();
            } else if (c == ')' || c == ']' || c == '}' || c == '"' || c == '\\') {
                throw SyntaxError{
                    pos_,
                    std::string("unexpected '") + c + "'" + (c == ')' ? ": no '(' opened a variation before it" : ""),
                    false, c};
            } else {
                t = read_number_or_word();
            }
            t.after_blank = blank;
            return t;
        }
    } catch (const SyntaxError& e) {
        pos_ = std::min(text_.size(), std::max(pos_, e.offset + 1));
        throw;
    }
}

Token Lexer::peek() const {
    Lexer copy = *this;
    try {
        return copy.next();
    } catch (const SyntaxError&) {
        return Token{};
    }
}

void Lexer::skip_line() {
    while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
}

void Lexer::skip_comment() {
    const std::size_t close = text_.find('}', pos_ + 1);
    if (close == std::string_view::npos) fail(pos_, "unterminated comment: no '}' closes this '{'");
    pos_ = close + 1;
}

// Variations nest and may hold comments, whose brackets do not count.
void Lexer::skip_variation() {
    const std::size_t start = pos_;
    int depth = 0;
    while (pos_ < text_.size()) {
        const char c = text_[pos_];
        if (c == '{') {
            skip_comment();
        } else if (c == ';') {
            skip_line();
        } else {
            ++pos_;
            if (c == '(') ++depth;
            if (c == ')' && --depth == 0) return;
        }
    }
    fail(start, "unterminated variation: no ')' closes this '('");
}

bool Lexer::at_line_start() const {
    std::size_t at = pos_;
    while (at > 0 && is_line_space(text_[at - 1])) --at;
    return at == 0 || text_[at - 1] == '\n';
}

// A tag; an End token for a tag with a name and no value ("[Empty]").
// Without its '[' (or its ']' at the end of its line) it is still read, and
// noted.
Token Lexer::read_tag(bool bracketed) {
    const std::size_t start = pos_;
    if (bracketed) {
        ++pos_;
        while (pos_ < text_.size() && (is_space(text_[pos_]) || text_[pos_] == '[')) ++pos_;  // "[[Event"
    }
    const std::size_t name_start = pos_;
    while (pos_ < text_.size() && is_tag_name_char(text_[pos_])) ++pos_;
    const std::string name(text_.substr(name_start, pos_ - name_start));
    if (name.empty()) fail(pos_, "expected a tag name (letters, digits, '_') after '['");
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
    if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return Token{};
    }
    if (pos_ == text_.size() || text_[pos_] != '"')
        fail(pos_, "expected the value of tag " + quoted(name) + " in double quotes");
    const std::size_t quote = pos_++;
    std::string value;
    for (;;) {
        if (pos_ == text_.size() || text_[pos_] == '\n')
            fail(quote, "the value of tag " + quoted(name) + " has no closing '\"' on its line");
        const char c = text_[pos_++];
        if (c == '"') break;
        if (c == '\\' && pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\\')) {
            value += text_[pos_++];
            continue;
        }
        value += c;
    }
    std::size_t close = pos_;
    while (close < text_.size() && is_space(text_[close])) ++close;
    const bool closed = close < text_.size() && text_[close] == ']';
    if (!closed && !blank_to_line_end(text_.substr(pos_))) fail(close, "expected ']' to close tag " + quoted(name));
    if (closed) pos_ = close + 1;
    if (!bracketed || !closed)
        notes_.push_back(LexNote{start,
                                 {},
                                 "tag " + quoted(name) + " has no " +
                                     (bracketed ? "']' after it"
                                      : closed  ? "'[' before it"
                                                : "'[' nor ']'") +
                                     "; read as a tag"});
    return Token{TokenKind::Tag, start, name, std::move(value), 0, false};
}

Token Lexer::read_nag() {
    const std::size_t start = pos_++;
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    const std::string_view digits = text_.substr(start + 1, pos_ - start - 1);
    if (digits.empty()) fail(start, "expected a number after '$' (a NAG, like $3)");
    const auto n = parse_bounded(digits, kMaxNag);
    if (!n) fail(start, "NAG $" + std::string(digits) + " is out of range (0 to " + std::to_string(kMaxNag) + ")");
    return Token{TokenKind::Nag, start, std::string(text_.substr(start, pos_ - start)), {}, *n, false};
}

Token Lexer::read_annotation() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && (text_[pos_] == '!' || text_[pos_] == '?')) ++pos_;
    const std::string_view mark = text_.substr(start, pos_ - start);
    if (std::find(kAnnotations.begin(), kAnnotations.end(), mark) == kAnnotations.end())
        fail(start, "unknown move annotation " + quoted(mark) + "; PDN has ! ? !! ?? !? ?!");
    return Token{TokenKind::Annotation, start, std::string(mark), {}, 0, false};
}

// "12." is a move number; anything else up to a delimiter is a word (a
// move or a result), checked by whoever reads it. A word that ends in a
// separator and is followed, after spaces on the same line, by a square
// ("1- 7", "35x 4") is one move.
Token Lexer::read_number_or_word() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    if (pos_ > start && pos_ < text_.size() && text_[pos_] == '.') {
        const std::string_view digits = text_.substr(start, pos_ - start);
        const auto n = parse_bounded(digits, 99999);
        if (!n) fail(start, "move number " + std::string(digits) + " is too large");
        while (pos_ < text_.size() && text_[pos_] == '.') ++pos_;
        return Token{TokenKind::MoveNumber, start, std::string(digits), {}, *n, false};
    }
    pos_ = start;
    std::string word;
    for (;;) {
        const std::size_t part = pos_;
        while (pos_ < text_.size() && !ends_word(text_[pos_]) && !nbsp_at(pos_)) ++pos_;
        word += text_.substr(part, pos_ - part);
        if (word.size() < 2 || !is_move_separator(word.back())) break;
        const char before = word[word.size() - 2];
        if (!is_digit(before) && !is_letter(before)) break;
        std::size_t gap = pos_;
        while (gap < text_.size() && (text_[gap] == ' ' || text_[gap] == '\t')) ++gap;
        if (gap == pos_ || gap == text_.size() || !(is_digit(text_[gap]) || is_letter(text_[gap]))) break;
        pos_ = gap;
    }
    return Token{TokenKind::Word, start, std::move(word), {}, 0, false};
}

}  // namespace dtb::pdn
