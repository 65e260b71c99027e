// The text encodings of PDN files met in practice: UTF-8 (with or without a
// byte-order mark) and the 8-bit code pages of older databases, Latin-1
// (western Europe) and the Cyrillic CP1251 (Windows) and CP866 (DOS).
// Everything the reader hands on is UTF-8.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace dtb {

enum class TextEncoding { automatic, utf8, latin1, cp1251, cp866 };

// "auto", "utf-8", "latin-1", "cp1251", "cp866" and the usual aliases
// ("utf8", "iso-8859-1", "windows-1251", "ibm866", ...), any case.
std::optional<TextEncoding> parse_text_encoding(std::string_view name);

// "utf-8", "latin-1", "cp1251", "cp866", "auto".
std::string_view encoding_name(TextEncoding e);

// The names --encoding accepts, for help and errors.
inline constexpr const char* kEncodingNames = "auto, utf-8, latin-1, cp1251, cp866";

bool is_valid_utf8(std::string_view bytes);

// The 8-bit code page that most likely wrote `bytes` (text that is not
// UTF-8): CP866 when its letters (0x80-0xAF, 0xE0-0xEF) explain more bytes
// than CP1251's (0xC0-0xFF); CP1251 when the high bytes stand together in
// words (Cyrillic words are all high bytes); else Latin-1, whose accented
// letters stand one at a time among ASCII ones ("Müller", "Hervé").
TextEncoding guess_legacy_encoding(std::string_view bytes);

// `bytes` in `from` as UTF-8. Invalid UTF-8, and the few bytes a code page
// leaves undefined, become U+FFFD: text never stops a reader.
std::string to_utf8(std::string_view bytes, TextEncoding from);

// Decodes a text line by line. With `automatic`, lines that are valid UTF-8
// pass as they are; the first line that is not decides the code page
// (guess_legacy_encoding), which then reads every later line that is not
// UTF-8 (a file joined from a new and an old export keeps both readable).
// A forced encoding reads every line.
class TextDecoder {
public:
    explicit TextDecoder(TextEncoding encoding) : encoding_(encoding) {}
    std::string decode(std::string_view line);
    // The encoding in use: `automatic` until a line needed a decision.
    TextEncoding encoding() const { return encoding_ == TextEncoding::automatic ? detected_ : encoding_; }

private:
    TextEncoding encoding_;
    TextEncoding detected_ = TextEncoding::automatic;
};

}  // namespace dtb
