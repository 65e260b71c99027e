// Helpers for the rules tests: legal moves as sorted lists of texts, so that
// an expectation reads like the rules text it comes from.
#pragma once

#include <algorithm>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "rules/movegen.hpp"
#include "rules/notation.hpp"

namespace dtb::test {

inline std::vector<std::string> sorted(std::vector<std::string> texts) {
    std::sort(texts.begin(), texts.end());
    return texts;
}

// Every legal move of the position, as move_text writes it, sorted.
template <class V>
std::vector<std::string> move_texts(const Position<V>& pos) {
    MoveList moves;
    MoveGenerator<V>::generate(pos, moves);
    std::vector<std::string> texts;
    for (const Move& m : moves) texts.push_back(move_text(pos, m));
    return sorted(texts);
}

template <class V>
std::vector<std::string> move_texts(std::string_view fen) {
    return move_texts(parse_fen<V>(fen));
}

// Every capture route (duplicates kept), as route_text writes it, sorted.
template <class V>
std::vector<std::string> route_texts(std::string_view fen) {
    std::vector<std::string> texts;
    for (const CaptureRoute& route : MoveGenerator<V>::capture_routes(parse_fen<V>(fen)))
        texts.push_back(route_text<V>(route));
    return sorted(texts);
}

// Number of moves generate() lists with the given duplicates mode.
template <class V>
std::size_t move_count(std::string_view fen, Duplicates duplicates) {
    MoveList moves;
    MoveGenerator<V>::generate(parse_fen<V>(fen), moves, duplicates);
    return moves.size();
}

// The squares named, as a bitboard ("captured: c3, f2, f4").
template <class V>
Bitboard squares(std::initializer_list<std::string_view> names) {
    Bitboard b = 0;
    for (std::string_view name : names) b |= bit(parse_square<V>(name).value());
    return b;
}

// The position after the move written `text`, as a FEN in the canonical
// form to_fen writes (so that the expectation can be written in any form).
template <class V>
std::string fen_after(std::string_view fen, std::string_view text) {
    const Position<V> pos = parse_fen<V>(fen);
    return to_fen(pos.after(parse_move(pos, text)));
}

template <class V>
std::string canonical(std::string_view fen) {
    return to_fen(parse_fen<V>(fen));
}

}  // namespace dtb::test
