// Fuzz target: read_target (cli/http_target.cpp), how dtb serve reads a
// request's path and query, on arbitrary bytes. It never throws; what it
// reads holds no NUL byte; and a reading, percent-encoded again, reads back
// as itself, so that no two spellings of a query can mean different things
// to the server and to the API.
#include <cctype>

#include "cli/http_target.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace dtb {
namespace {

std::string encode(const std::string& s, bool keep_slash) {
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (const unsigned char c : s) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~' || (keep_slash && c == '/')) {
            out += char(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

void check_target(std::string_view raw) {
    std::variant<serve::RequestTarget, serve::UnreadableTarget> read;
    try {
        read = serve::read_target(raw);
    } catch (...) {
        fuzz::check(false, "read_target never throws");
    }
    if (const auto* bad = std::get_if<serve::UnreadableTarget>(&read)) {
        fuzz::check(!bad->reason.empty(), "a refusal says why");
        return;
    }
    const serve::RequestTarget& target = std::get<serve::RequestTarget>(read);
    fuzz::check(target.path.find('\0') == std::string::npos, "no NUL in the path");
    std::string again = encode(target.path, true);
    char separator = '?';
    for (const auto& [name, value] : target.params) {
        fuzz::check(name.find('\0') == std::string::npos && value.find('\0') == std::string::npos,
                    "no NUL in a parameter");
        again += separator + encode(name, false) + "=" + encode(value, false);
        separator = '&';
    }
    const auto reread = serve::read_target(again);
    const auto* same = std::get_if<serve::RequestTarget>(&reread);
    fuzz::check(same != nullptr, "a reading, encoded again, reads", again);
    fuzz::check(same->path == target.path, "the path reads back as itself", again);
    // A parameter with an empty name and value ("?=") reads back as one; an
    // empty pair between two '&' does not exist: the two agree.
    fuzz::check(same->params == target.params, "the parameters read back as themselves", again);
}

}  // namespace
}  // namespace dtb

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    dtb::check_target(dtb::fuzz::as_text(data, size));
    return 0;
}
