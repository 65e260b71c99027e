#include "cli/http_target.hpp"

#include <optional>

namespace dtb::serve {

namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// `text` percent-decoded, or the reason it cannot be; `what` names the part
// of the target in that reason.
std::variant<std::string, UnreadableTarget> decode(std::string_view text, bool plus_is_space, const std::string& what) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (c == '%') {
            const int high = i + 2 < text.size() ? hex_digit(text[i + 1]) : -1;
            const int low = i + 2 < text.size() ? hex_digit(text[i + 2]) : -1;
            if (i + 2 >= text.size() || high < 0 || low < 0)
                return UnreadableTarget{what + " has a '%' not followed by two hexadecimal digits (at character " +
                                        std::to_string(i + 1) + ")"};
            c = static_cast<char>(high * 16 + low);
            i += 2;
        } else if (c == '+' && plus_is_space) {
            c = ' ';
        }
        if (c == '\0') return UnreadableTarget{what + " holds a NUL byte (%00)"};
        out += c;
    }
    return out;
}

}  // namespace

std::variant<RequestTarget, UnreadableTarget> read_target(std::string_view raw) {
    // A fragment is never sent by a browser; if a client sends one, it is not part of the query.
    raw = raw.substr(0, raw.find('#'));
    const std::size_t question = raw.find('?');
    RequestTarget target;
    auto path = decode(raw.substr(0, question), false, "the path");
    if (auto* bad = std::get_if<UnreadableTarget>(&path)) return *bad;
    target.path = std::get<std::string>(std::move(path));
    if (question == std::string_view::npos) return target;

    std::string_view query = raw.substr(question + 1);
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        const std::string_view pair = query.substr(0, amp);
        query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
        if (pair.empty()) continue;  // "a=1&&b=2"
        const std::size_t equals = pair.find('=');
        auto name = decode(pair.substr(0, equals), true, "a parameter's name");
        if (auto* bad = std::get_if<UnreadableTarget>(&name)) return *bad;
        const std::string& key = std::get<std::string>(name);
        std::string value;
        if (equals != std::string_view::npos) {
            auto decoded = decode(pair.substr(equals + 1), true, "parameter '" + key + "'");
            if (auto* bad = std::get_if<UnreadableTarget>(&decoded)) return *bad;
            value = std::get<std::string>(std::move(decoded));
        }
        target.params.emplace(key, std::move(value));
    }
    return target;
}

}  // namespace dtb::serve
