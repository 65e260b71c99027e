#include "python/src/position.hpp"

#include <cctype>
#include <stdexcept>
#include <utility>

#include "python/src/errors.hpp"

namespace dtb::python {

namespace {

constexpr int kRussianSquares = 32;

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

// Splits `s` at each `sep` and calls f on every part.
template <class F>
void for_each_part(std::string_view s, char sep, F&& f) {
    for (std::size_t begin = 0;;) {
        const std::size_t end = s.find(sep, begin);
        f(s.substr(begin, end == std::string_view::npos ? std::string_view::npos : end - begin));
        if (end == std::string_view::npos) return;
        begin = end + 1;
    }
}

}  // namespace

int variant_code(std::string_view name) {
    if (name == "russian") return DTB_RUSSIAN;
    if (name == "international") return DTB_INTERNATIONAL;
    throw std::invalid_argument("unknown variant '" + std::string(name) + "': use 'russian' or 'international'");
}

// Mirrors the sections of rules/notation.cpp's FEN reader: the side to
// move, then ':'-separated sections, each a colour letter and [K]square or
// [K]square-square items; 'H' and 'F' sections are move counters.
std::optional<int> variant_of_squares(std::string_view fen) {
    bool algebraic = false;
    bool above_russian = false;
    const auto square = [&](std::string_view text) {
        text = trim(text);
        if (!text.empty() && text.back() == '.') text.remove_suffix(1);  // "W:W31-50:B1-20."
        if (text.empty()) return;
        if (std::isalpha(static_cast<unsigned char>(text.front()))) {
            algebraic = true;
            return;
        }
        int n = 0;
        for (char c : text) {
            if (!std::isdigit(static_cast<unsigned char>(c)) || n > 1000) break;
            n = n * 10 + (c - '0');
        }
        if (n > kRussianSquares) above_russian = true;
    };
    bool side = true;
    for_each_part(fen, ':', [&](std::string_view section) {
        section = trim(section);
        if (std::exchange(side, false) || section.empty()) return;
        const char tag = static_cast<char>(std::toupper(static_cast<unsigned char>(section.front())));
        if (tag != 'W' && tag != 'B') return;
        for_each_part(section.substr(1), ',', [&](std::string_view item) {
            item = trim(item);
            if (!item.empty() && (item.front() == 'K' || item.front() == 'k')) item.remove_prefix(1);
            for_each_part(item, '-', square);
        });
    });
    if (algebraic == above_russian) return std::nullopt;
    return algebraic ? DTB_RUSSIAN : DTB_INTERNATIONAL;
}

dtb_position read_position(const std::optional<std::string>& variant, const std::string& fen) {
    std::optional<int> code = variant ? std::optional(variant_code(*variant)) : variant_of_squares(fen);
    if (!code) {
        // Say so rather than guess, when either reader accepts it; a FEN
        // neither reads gets the Russian reader's message (it reads both
        // notations).
        dtb_position pos;
        char err[1024];
        const bool russian = dtb_position_from_fen(DTB_RUSSIAN, fen.c_str(), &pos, err, sizeof err) == DTB_OK;
        if (!russian && dtb_position_from_fen(DTB_INTERNATIONAL, fen.c_str(), &pos, nullptr, 0) != DTB_OK)
            throw StatusError(DTB_BAD_POSITION, err);
        throw StatusError(DTB_BAD_POSITION, "cannot tell the variant of FEN '" + fen +
                                                "': its squares are numbers up to 32, which both variants use; "
                                                "pass variant='russian' or variant='international'");
    }
    dtb_position pos;
    char err[1024];
    if (dtb_position_from_fen(*code, fen.c_str(), &pos, err, sizeof err) != DTB_OK)
        throw StatusError(DTB_BAD_POSITION, err);
    return pos;
}

std::string fen_of(const dtb_position& pos) {
    char text[512];
    dtb_position_to_fen(&pos, text, sizeof text);
    return text;
}

}  // namespace dtb::python
