// Fuzz target: parse_fen on arbitrary text, read as both variants.
// A FEN that parses must name a possible position that to_fen writes back
// to the same position, and every legal move there must read back from its
// own move text.
#include <algorithm>

#include "rules/notation.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace dtb {
namespace {

template <class V>
void check_fen(std::string_view text) {
    Position<V> pos;
    try {
        pos = parse_fen<V>(text);
    } catch (const InputError&) {
        return;  // refusing bad input is the job; the message is checked by the unit tests
    }
    fuzz::check((pos.occupied() & ~V::Board::all) == 0, "pieces only on squares of the board");
    fuzz::check((pos.kings & ~pos.occupied()) == 0, "every king is a piece");
    fuzz::check((pos.pieces[White] & pos.pieces[Black]) == 0, "no square holds two pieces");

    const std::string fen = to_fen(pos);
    Position<V> again;
    try {
        again = parse_fen<V>(fen);
    } catch (const InputError& e) {
        fuzz::check(false, "to_fen writes a FEN that parse_fen reads", fen + ": " + e.what());
    }
    fuzz::check(again == pos, "parse_fen(to_fen(p)) == p", std::string(text) + " -> " + fen);

    MoveList moves;
    MoveGenerator<V>::generate(pos, moves);
    for (const Move& m : moves) {
        const std::string written = move_text(pos, m);
        try {
            fuzz::check(parse_move(pos, written) == m, "parse_move(move_text(m)) == m", fen + " " + written);
        } catch (const InputError& e) {
            fuzz::check(false, "parse_move reads what move_text writes", fen + " " + written + ": " + e.what());
        }
    }
}

}  // namespace
}  // namespace dtb

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = dtb::fuzz::as_text(data, size);
    dtb::check_fen<dtb::Russian>(text);
    dtb::check_fen<dtb::International>(text);
    return 0;
}
