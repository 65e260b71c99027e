// Cuts a PDN stream into stretches of text that hold whole games (usually
// one each), decoded to UTF-8, so that a reader keeps one game in memory
// however long the file. Used by PdnReader (rules/pdn.hpp).
//
// A stretch ends before a tag line that follows movetext, and after a line
// whose last word is a result. Lines end at "\n", "\r\n" or a lone "\r".
// Junk is no movetext (a literal "\r" after a tag, a stray ']'), and a tag
// line that lost its '[' is a tag line, so that neither splits a game.
// Comments and variations are followed across lines, so that a '[' or a
// result inside them cuts nothing; but a line that is a whole tag ends an
// unclosed comment's stretch, so that one missing '}' costs one game.
#pragma once

#include <istream>
#include <optional>
#include <string>

#include "rules/text_encoding.hpp"

namespace dtb::pdn {

struct Stretch {
    std::string text;    // decoded lines, each ending in '\n'
    int first_line = 1;  // the line number of its first line in the file
};

class Source {
public:
    Source(std::istream& in, TextEncoding encoding) : in_(in), decoder_(encoding) {}

    std::optional<Stretch> next();
    // The encoding the text is read in ("auto" until a line needed one).
    TextEncoding encoding() const { return decoder_.encoding(); }

private:
    bool read_line(std::string& line);
    // Follows comments and variations through a line; says whether it holds movetext.
    bool scan(const std::string& line);

    std::istream& in_;
    TextDecoder decoder_;
    int lines_read_ = 0;
    std::optional<std::string> held_;  // a line that begins the next stretch
    bool in_comment_ = false;
    int variation_depth_ = 0;
};

}  // namespace dtb::pdn
