// Text encodings (see text_encoding.hpp). The code pages are converted by
// iconv (POSIX; glibc has it built in), so no code table is written out here.
#include "rules/text_encoding.hpp"

#include <iconv.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>

namespace dtb {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

bool is_ascii(std::string_view s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return (unsigned char)c < 0x80; });
}

// The length of the UTF-8 sequence at s[i], or 0 when it is not one.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) { return (unsigned char)s[k]; };
    const unsigned char c = b(i);
    if (c < 0x80) return 1;
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    const bool overlong = (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000);
    if (overlong || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

std::string repair_utf8(std::string_view s) {
    std::string out;
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = utf8_sequence(s, i);
        if (n == 0) {
            out += kReplacement;
            ++i;
        } else {
            out += s.substr(i, n);
            i += n;
        }
    }
    return out;
}

const char* iconv_name(TextEncoding e) {
    switch (e) {
        case TextEncoding::latin1:
            return "ISO-8859-1";
        case TextEncoding::cp1251:
            return "CP1251";
        case TextEncoding::cp866:
            return "CP866";
        default:
            return "UTF-8";
    }
}

// One byte at a time, so that a byte the code page leaves undefined (0x98
// in CP1251) costs only itself.
std::string convert(std::string_view bytes, TextEncoding from) {
    iconv_t cd = iconv_open("UTF-8", iconv_name(from));
    if (cd == iconv_t(-1)) return repair_utf8(bytes);
    std::string out;
    for (char c : bytes) {
        if ((unsigned char)c < 0x80) {
            out += c;
            continue;
        }
        char in_byte = c;
        std::array<char, 8> buffer{};
        char* in = &in_byte;
        std::size_t in_left = 1;
        char* o = buffer.data();
        std::size_t out_left = buffer.size();
        if (iconv(cd, &in, &in_left, &o, &out_left) == std::size_t(-1)) {
            out += kReplacement;
            iconv(cd, nullptr, nullptr, nullptr, nullptr);
        } else {
            out.append(buffer.data(), std::size_t(o - buffer.data()));
        }
    }
    iconv_close(cd);
    return out;
}

}  // namespace

std::optional<TextEncoding> parse_text_encoding(std::string_view name) {
    const std::string n = lower(name);
    if (n == "auto") return TextEncoding::automatic;
    if (n == "utf-8" || n == "utf8") return TextEncoding::utf8;
    if (n == "latin-1" || n == "latin1" || n == "iso-8859-1" || n == "iso8859-1" || n == "cp1252" ||
        n == "windows-1252")
        return TextEncoding::latin1;
    if (n == "cp1251" || n == "windows-1251" || n == "win1251") return TextEncoding::cp1251;
    if (n == "cp866" || n == "ibm866" || n == "dos-866") return TextEncoding::cp866;
    return std::nullopt;
}

std::string_view encoding_name(TextEncoding e) {
    switch (e) {
        case TextEncoding::automatic:
            return "auto";
        case TextEncoding::utf8:
            return "utf-8";
        case TextEncoding::latin1:
            return "latin-1";
        case TextEncoding::cp1251:
            return "cp1251";
        case TextEncoding::cp866:
            return "cp866";
    }
    return "auto";
}

bool is_valid_utf8(std::string_view s) {
    for (std::size_t i = 0; i < s.size();) {
        const std::size_t n = utf8_sequence(s, i);
        if (n == 0) return false;
        i += n;
    }
    return true;
}

TextEncoding guess_legacy_encoding(std::string_view bytes) {
    int cp866_letters = 0, cp1251_letters = 0, high = 0, together = 0;
    const auto is_high = [&](std::size_t i) { return i < bytes.size() && (unsigned char)bytes[i] >= 0x80; };
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        const unsigned char c = (unsigned char)bytes[i];
        if (c < 0x80) continue;
        ++high;
        if (c <= 0xAF || (c >= 0xE0 && c <= 0xF1)) ++cp866_letters;
        if (c >= 0xC0 || c == 0xA8 || c == 0xB8) ++cp1251_letters;
        if ((i > 0 && is_high(i - 1)) || is_high(i + 1)) ++together;
    }
    if (cp866_letters > cp1251_letters) return TextEncoding::cp866;
    return 2 * together > high ? TextEncoding::cp1251 : TextEncoding::latin1;
}

std::string to_utf8(std::string_view bytes, TextEncoding from) {
    if (is_ascii(bytes)) return std::string(bytes);
    if (from == TextEncoding::utf8 || from == TextEncoding::automatic) return repair_utf8(bytes);
    return convert(bytes, from);
}

std::string TextDecoder::decode(std::string_view line) {
    if (is_ascii(line)) return std::string(line);
    if (encoding_ != TextEncoding::automatic) return to_utf8(line, encoding_);
    // A line that is valid UTF-8 is read as UTF-8 even after a legacy line:
    // collections are often joined from exports of different ages, and text
    // in a code page is almost never valid UTF-8 by chance (a Cyrillic or
    // accented letter is followed by a letter, not by a continuation byte).
    if (is_valid_utf8(line)) return std::string(line);
    if (detected_ == TextEncoding::automatic) detected_ = guess_legacy_encoding(line);
    return to_utf8(line, detected_);
}

}  // namespace dtb
