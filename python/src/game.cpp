#include "python/src/game.hpp"

#include <stdexcept>

#include "dtb/probe.h"
#include "probe/convert.hpp"
#include "python/src/errors.hpp"
#include "rules/notation.hpp"
#include "rules/perft.hpp"

namespace dtb::python {

namespace {

template <class F>
decltype(auto) in_variant(int variant, F&& f) {
    return with_variant(*probe::variant_from_c(variant), std::forward<F>(f));
}

}  // namespace

std::uint64_t perft(int variant, int depth, const std::optional<std::string>& fen, bool keep_duplicates) {
    if (depth < 0) throw std::invalid_argument("perft depth " + std::to_string(depth) + ": 0 or more plies");
    return in_variant(variant, [&]<class V>() {
        Position<V> pos;
        try {
            pos = fen ? parse_fen<V>(*fen) : initial_position<V>();
        } catch (const InputError& e) {
            throw StatusError(DTB_BAD_POSITION, e.what());
        }
        return dtb::perft(pos, depth, keep_duplicates ? Duplicates::Keep : Duplicates::Drop);
    });
}

std::string play(int variant, const std::string& fen, const std::string& move) {
    return in_variant(variant, [&]<class V>() {
        Position<V> pos;
        try {
            pos = parse_fen<V>(fen);
        } catch (const InputError& e) {
            throw StatusError(DTB_BAD_POSITION, e.what());
        }
        try {
            return to_fen(pos.after(parse_move(pos, move)));
        } catch (const InputError& e) {
            throw StatusError(kIllegalMove, e.what());
        }
    });
}

std::string start_fen(int variant) {
    return in_variant(variant, []<class V>() { return to_fen(initial_position<V>()); });
}

}  // namespace dtb::python
