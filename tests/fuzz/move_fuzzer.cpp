// Fuzz target: parse_move on arbitrary text in a fixed set of positions.
// The first byte picks the position ('0' the first, '1' the next, ...), the
// rest is the move text. A move that parses must be legal there, and its own
// move text must name it.
#include <algorithm>
#include <array>
#include <optional>

#include "rules/notation.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace dtb {
namespace {

// Positions with what move text has to tell apart: plain moves, captures,
// captures that share start and end, kings, crowning, Black to move.
constexpr std::array<std::string_view, 5> kRussian{
    "W:W21-32:B1-12",
    "W:WKd8:Be7,e5,f4,d2,f2",  // d8:g1 two ways: d8:f6:d4:g1, d8:g5:e3:g1
    "W:Wc5:Bd6,f6,b4,d4,f4",   // a man's capture round a ring back to its start
    "B:Wa3,e3,b2,h2,a1,c1,g1,d2:Bb8,d8,f8,h8,a7,e7,g7,b6,h6,c5,Kh4",
    "W:WKa1,Kh2,c7:BKb8,Kf8,e5,d4,g5",
};
constexpr std::array<std::string_view, 5> kInternational{
    "W:W31-50:B1-20",
    "W:WK30:B7,14,21,24,31",  // 30:10 and 30:5 two ways each
    "W:W17,33,35,36,38-50:B1-16,20,26",
    "B:W27,28,32,33,K47:B12,17,18,22,K3",
    "W:WK46,K5,28:BK1,K50,23,19",
};

template <class V>
void check_move(std::string_view fen, std::string_view text) {
    const Position<V> pos = parse_fen<V>(fen);
    std::optional<Move> parsed;
    try {
        parsed = parse_move(pos, text);
    } catch (const InputError&) {
        return;
    }
    const Move m = *parsed;
    MoveList legal;
    MoveGenerator<V>::generate(pos, legal);
    fuzz::check(std::find(legal.begin(), legal.end(), m) != legal.end(), "a parsed move is legal",
                std::string(fen) + " " + std::string(text));
    const std::string written = move_text(pos, m);
    fuzz::check(parse_move(pos, written) == m, "a move's own text names it", std::string(fen) + " " + written);
}

}  // namespace
}  // namespace dtb

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::size_t count = dtb::kRussian.size() + dtb::kInternational.size();
    const std::size_t index = static_cast<unsigned char>(data[0] - '0') % count;
    const std::string_view text = dtb::fuzz::as_text(data + 1, size - 1);
    if (index < dtb::kRussian.size())
        dtb::check_move<dtb::Russian>(dtb::kRussian[index], text);
    else
        dtb::check_move<dtb::International>(dtb::kInternational[index - dtb::kRussian.size()], text);
    return 0;
}
