// Cutting a PDN stream into games (see pdn_source.hpp).
#include "rules/pdn_source.hpp"

#include <array>

#include "rules/pdn_lexer.hpp"

namespace dtb::pdn {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::array<std::string_view, 8> kResults{"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"};

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }

// Without the spaces, and the literal "\r" "\n" "\t" that some exports
// leave at the ends of lines (the lexer reads them as spaces).
std::string_view trim(std::string_view s) {
    for (;;) {
        if (!s.empty() && is_blank(s.front())) {
            s.remove_prefix(1);
        } else if (!s.empty() && is_blank(s.back())) {
            s.remove_suffix(1);
        } else if (literal_escape_at(s)) {
            s.remove_prefix(2);
        } else if (s.size() >= 2 && literal_escape_at(s.substr(s.size() - 2))) {
            s.remove_suffix(2);
        } else {
            return s;
        }
    }
}

// A tag line, or one that lost its '[' (`Event "X"]`), which the lexer
// reads as a tag too.
bool starts_tag(std::string_view line) {
    line = trim(line);
    return !line.empty() && (line.front() == '[' || is_bracketless_tag(line));
}

// A closing character that belongs to nothing when no comment or variation
// is open: junk, which the reader skips between tags, and no movetext.
bool is_junk(char c) { return c == ']' || c == ')' || c == '}' || c == '"' || c == '\\'; }

// `[Name "value"]` and nothing else on the line.
bool is_whole_tag_line(std::string_view line) {
    line = trim(line);
    if (line.size() < 4 || line.front() != '[' || line.back() != ']') return false;
    const std::size_t quote = line.find('"');
    return quote != std::string_view::npos && line.rfind('"') > quote && line.find('{') == std::string_view::npos;
}

bool ends_with_result(std::string_view line) {
    line = trim(line);
    const std::size_t space = line.find_last_of(" \t");
    const std::string_view last = space == std::string_view::npos ? line : line.substr(space + 1);
    for (std::string_view r : kResults)
        if (last == r) return true;
    return false;
}

}  // namespace

bool Source::read_line(std::string& line) {
    line.clear();
    std::streambuf* buf = in_.rdbuf();
    if (!buf) return false;
    for (;;) {
        const int c = buf->sbumpc();
        if (c == std::char_traits<char>::eof()) {
            if (line.empty()) return false;
            break;
        }
        if (c == '\n') break;
        if (c == '\r') {
            if (buf->sgetc() == '\n') buf->sbumpc();
            break;
        }
        line += char(c);
    }
    if (lines_read_++ == 0 && line.starts_with(kBom)) {
        line.erase(0, kBom.size());
        if (decoder_.encoding() == TextEncoding::automatic) decoder_ = TextDecoder(TextEncoding::utf8);
    }
    line = decoder_.decode(line);
    return true;
}

bool Source::scan(const std::string& line) {
    if (!in_comment_ && variation_depth_ == 0 && is_bracketless_tag(trim(line))) return false;
    bool movetext = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (in_comment_) {
            if (c == '}') in_comment_ = false;
        } else if (c == '{') {
            in_comment_ = true;
        } else if (c == ';' || (c == '%' && i == 0)) {
            break;
        } else if (c == '(') {
            ++variation_depth_;
        } else if (c == ')') {
            if (variation_depth_ > 0) --variation_depth_;
        } else if (c == '[' && variation_depth_ == 0) {
            // A tag: skip to its ']' outside the quotes.
            bool quoted = false;
            for (++i; i < line.size() && (quoted || line[i] != ']'); ++i)
                if (line[i] == '"' && line[i - 1] != '\\') quoted = !quoted;
        } else if (variation_depth_ == 0 && literal_escape_at(std::string_view(line).substr(i))) {
            ++i;
        } else if (!is_blank(c) && !is_junk(c) && variation_depth_ == 0) {
            movetext = true;
        }
    }
    return movetext;
}

std::optional<Stretch> Source::next() {
    Stretch s;
    s.first_line = lines_read_ + 1 - (held_ ? 1 : 0);
    bool movetext = false;
    std::string line;
    for (;;) {
        if (held_) {
            line = std::move(*held_);
            held_.reset();
        } else if (!read_line(line)) {
            break;
        }
        const bool outside = !in_comment_ && variation_depth_ == 0;
        if ((movetext && outside && starts_tag(line)) || (in_comment_ && is_whole_tag_line(line))) {
            held_ = std::move(line);
            in_comment_ = false;
            variation_depth_ = 0;
            return s;
        }
        movetext = scan(line) || movetext;
        s.text += line;
        s.text += '\n';
        if (movetext && !in_comment_ && variation_depth_ == 0 && ends_with_result(line)) return s;
    }
    if (s.text.empty()) return std::nullopt;
    return s;
}

}  // namespace dtb::pdn
