// The target of an HTTP request ("/api/v1/russian?fen=W:WKa1:BKh8"), read
// into a path and its query parameters, apart from any server, so that
// what the API sees is decided in one place and tested on its own.
//
// The rules, chosen to leave nothing to guess:
// - parameters are separated by '&' only: a ';' is part of a value;
// - names and values are percent-decoded, '+' reads as a space (as an
//   HTML form writes one);
// - a name given twice is kept twice (the API refuses it, naming it);
// - a percent sign not followed by two hex digits, or a NUL byte anywhere
//   after decoding, makes the target unreadable: a NUL would end the text
//   early wherever it is passed on as a C string.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <variant>

namespace dtb::serve {

// The query parameters of a request (a name may come more than once).
using QueryParams = std::multimap<std::string, std::string>;

struct RequestTarget {
    std::string path;  // decoded, without the query
    QueryParams params;
};

// The request target's reading, or why it cannot be read.
struct UnreadableTarget {
    std::string reason;
};

std::variant<RequestTarget, UnreadableTarget> read_target(std::string_view raw);

}  // namespace dtb::serve
