// Reading a record's move text (see pdn_moves.hpp).
#include "rules/pdn_moves.hpp"

#include <algorithm>

#include "rules/movegen.hpp"
#include "rules/route_squares.hpp"

namespace dtb {

namespace {

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_separator(char c) { return c == '-' || c == ':' || c == 'x' || c == 'X'; }

template <class V>
std::string list_moves(const Position<V>& pos, const std::vector<Move>& moves) {
    std::string listed;
    for (const Move& m : moves) listed += (listed.empty() ? "" : ", ") + move_text(pos, m);
    return listed.empty() ? "none" : listed;
}

template <class V>
std::vector<Move> legal_moves(const Position<V>& pos) {
    MoveList moves;
    MoveGenerator<V>::generate(pos, moves);
    return std::vector<Move>(moves.begin(), moves.end());
}

// Rule 2.1.6.2: "ed4" is the plain move from file e to d4, "b:d6" the
// capture from file b to d6. Only the algebraic notation has these.
template <class V>
std::optional<Move> short_move(const Position<V>& pos, std::string_view w) {
    if constexpr (!V::algebraic_notation) {
        return std::nullopt;
    } else {
        using Board = typename V::Board;
        const auto is_file = [](char c) { return c >= 'a' && c < 'a' + Board::width; };
        int file = 0;
        bool capture = false;
        std::string_view to_text;
        if (w.size() == 3 && is_file(w[0]) && is_file(w[1]) && is_digit(w[2])) {
            file = w[0] - 'a';
            to_text = w.substr(1);
        } else if (w.size() == 4 && is_file(w[0]) && (w[1] == ':' || w[1] == 'x') && is_file(w[2]) && is_digit(w[3])) {
            file = w[0] - 'a';
            capture = true;
            to_text = w.substr(2);
        } else {
            return std::nullopt;
        }
        const auto to = parse_square<V>(to_text);
        if (!to)
            throw InputError("bad move " + quoted(w) + ": " + quoted(to_text) + " is not a square of the " +
                             std::string(V::name) + " board");
        const std::vector<Move> moves = legal_moves(pos);
        std::vector<Move> matches;
        for (const Move& m : moves)
            if (Board::file_of(Board::square_of(BitIndex{m.from})) == file && BitIndex{m.to} == *to &&
                m.is_capture() == capture)
                matches.push_back(m);
        if (matches.size() == 1) return matches.front();
        const std::string kind = capture ? "capture" : "plain move";
        if (matches.empty())
            throw InputError("no legal " + kind + " from file " + std::string(1, char('a' + file)) + " to " +
                             std::string(to_text) + " in " + to_fen(pos) + "; legal moves: " + list_moves(pos, moves));
        throw InputError("shortened " + kind + " " + quoted(w) + " is ambiguous in " + to_fen(pos) + ": it could be " +
                         list_moves(pos, matches) + "; write it in full");
    }
}

// "a3b4" -> "a3-b4", "c1a3c5" -> "c1-a3-c5": squares written with no
// separator (PDN 3.0). Only the algebraic notation can be split so.
template <class V>
std::string with_separators(std::string_view w) {
    if constexpr (!V::algebraic_notation) {
        return std::string(w);
    } else {
        if (w.size() < 4 || w.size() % 2 != 0) return std::string(w);
        std::string out;
        for (std::size_t i = 0; i < w.size(); i += 2) {
            if (!(w[i] >= 'a' && w[i] <= 'z') || !is_digit(w[i + 1])) return std::string(w);
            out += (out.empty() ? "" : "-") + std::string(w.substr(i, 2));
        }
        return out;
    }
}

std::vector<BitIndex> stops(const CaptureRoute& route) {
    std::vector<BitIndex> squares;
    for (const std::uint8_t b : route.path) squares.push_back(BitIndex{b});
    return squares;
}

// Whether the written squares, less their ends, occur in `along` in order.
bool in_order(const std::vector<BitIndex>& written, const std::vector<BitIndex>& along) {
    std::size_t k = 1;
    for (std::size_t j = 1; j < along.size() && k + 1 < written.size(); ++j)
        if (along[j] == written[k]) ++k;
    return k + 1 == written.size();
}

void add(std::vector<Move>& moves, const Move& m) {
    if (std::find(moves.begin(), moves.end(), m) == moves.end()) moves.push_back(m);
}

// The squares of `text`, or nullopt when one is not a square (parse_move
// then says which).
template <class V>
std::optional<std::vector<BitIndex>> squares_of(std::string_view text) {
    std::vector<BitIndex> squares;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && !is_separator(text[i])) continue;
        const auto sq = parse_square<V>(text.substr(start, i - start));
        if (!sq) return std::nullopt;
        squares.push_back(*sq);
        start = i + 1;
    }
    if (squares.size() < 2) return std::nullopt;
    return squares;
}

}  // namespace

template <class V>
std::vector<Move> pdn_move_candidates(const Position<V>& pos, std::string_view text) {
    if (const auto m = short_move(pos, text)) return {*m};
    const std::string written = with_separators<V>(text);
    const auto squares = squares_of<V>(written);
    if (!squares) return {parse_move(pos, written)};  // throws what is wrong with it
    const BitIndex from = squares->front(), to = squares->back();
    const std::vector<CaptureRoute> routes = MoveGenerator<V>::capture_routes(pos);
    std::vector<Move> found;
    // parse_move settles exact texts, turning squares included.
    try {
        found.push_back(parse_move(pos, written));
        return found;
    } catch (const InputError&) {
    }
    const auto same_ends = [&](const CaptureRoute& r) {
        return BitIndex{r.move.from} == from && BitIndex{r.move.to} == to;
    };
    if (squares->size() == 2) {
        for (const Move& m : legal_moves(pos))
            if (BitIndex{m.from} == from && BitIndex{m.to} == to) add(found, m);
    } else {
        for (const CaptureRoute& r : routes)
            if (same_ends(r) && in_order(*squares, stops(r))) add(found, r.move);
        if (found.empty())
            for (const CaptureRoute& r : routes)
                if (same_ends(r) && in_order(*squares, traversed_squares<V>(r))) add(found, r.move);
    }
    if (found.empty()) parse_move(pos, written);  // throws: illegal, with the legal moves
    return found;
}

template <class V>
std::string ambiguous_move_message(const Position<V>& pos, std::string_view text, const std::vector<Move>& moves) {
    return "ambiguous move " + quoted(text) + " in " + to_fen(pos) + ": it could be " + list_moves(pos, moves);
}

#define DTB_INSTANTIATE_PDN_MOVES(V)                                                         \
    template std::vector<Move> pdn_move_candidates<V>(const Position<V>&, std::string_view); \
    template std::string ambiguous_move_message<V>(const Position<V>&, std::string_view, const std::vector<Move>&);

DTB_FOR_EACH_VARIANT(DTB_INSTANTIATE_PDN_MOVES)

}  // namespace dtb
