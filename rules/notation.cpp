#include "rules/notation.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

#include "rules/route_squares.hpp"
#include "rules/variant.hpp"

namespace dtb {

namespace {

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// Reads a positive decimal number; nullopt on anything else.
std::optional<int> parse_number(std::string_view text) {
    if (text.empty() || text.size() > 3) return std::nullopt;
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

}  // namespace

template <class V>
std::string square_name(BitIndex b) {
    using Board = typename V::Board;
    const Square sq = Board::square_of(b);
    if constexpr (V::algebraic_notation) {
        std::string name(1, char('a' + Board::file_of(sq)));
        name += std::to_string(Board::rank_of(sq));
        return name;
    } else {
        return std::to_string(Board::pdn_number(sq));
    }
}

template <class V>
int square_number(BitIndex b) {
    return V::Board::pdn_number(V::Board::square_of(b));
}

template <class V>
std::optional<BitIndex> parse_square(std::string_view text) {
    using Board = typename V::Board;
    if (text.empty()) return std::nullopt;
    std::optional<Square> sq;
    if (std::isdigit(static_cast<unsigned char>(text[0]))) {
        const auto n = parse_number(text);
        if (n) sq = Board::square_numbered(*n);
    } else if (V::algebraic_notation && text.size() >= 2 && text.size() <= 3) {
        const char file_char = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
        const auto rank = parse_number(text.substr(1));
        if (file_char >= 'a' && file_char < 'a' + Board::width && rank) sq = Board::square_at(file_char - 'a', *rank);
    }
    if (!sq) return std::nullopt;
    return Board::bit_of(*sq);
}

template <class V>
Position<V> initial_position() {
    return parse_fen<V>(V::initial_fen);
}

template <class V>
void check_position(const Position<V>& pos) {
    using Board = typename V::Board;
    for (Color c : {White, Black}) {
        const char* who = c == White ? "white" : "black";
        if (popcount(pos.pieces[c]) > V::max_pieces_per_side)
            throw InputError(std::string("too many ") + who + " pieces: " + std::to_string(popcount(pos.pieces[c])) +
                             " (a side has at most " + std::to_string(V::max_pieces_per_side) + ")");
        const Bitboard misplaced = pos.men(c) & Board::promotion_row(c);
        if (misplaced)
            throw InputError(std::string(who) + " man on " + square_name<V>(lowest_bit_index(misplaced)) +
                             ", its crowning row: it would be a king");
    }
    if (pos.pieces[White] & pos.pieces[Black])
        throw InputError("square " + square_name<V>(lowest_bit_index(pos.pieces[White] & pos.pieces[Black])) +
                         " holds two pieces");
}

namespace {

// Why `text` names no square of V's board. A light square of an algebraic
// board is said to be one: a1..h8 names it, but no piece stands there.
template <class V>
std::string not_a_square(std::string_view text) {
    using Board = typename V::Board;
    if constexpr (V::algebraic_notation) {
        if (text.size() >= 2 && text.size() <= 3) {
            const int file = std::tolower(static_cast<unsigned char>(text[0])) - 'a';
            const auto rank = parse_number(text.substr(1));
            if (file >= 0 && file < Board::width && rank && *rank >= 1 && *rank <= Board::width)
                return quoted(text) + " is a light square of the " + std::string(V::name) +
                       " board; pieces stand on the dark squares";
        }
    }
    return "not a square of the " + std::string(V::name) + " board: " + quoted(text);
}

// Reads one PDN FEN: the side to move, then ':'-separated sections, each a
// colour's list of squares ("W" or "B" and [K]square or [K]square-square
// items separated by ',') or a move counter ("H" or "F" and a number) that
// some programs add and that is read and ignored.
template <class V>
class FenReader {
public:
    explicit FenReader(std::string_view fen) : fen_(fen) {}

    Position<V> read() {
        if (fen_.empty()) throw InputError("bad FEN: it is empty");
        const char side = upper(fen_[0]);
        if (side != 'W' && side != 'B') throw fail(0, "expected the side to move, 'W' or 'B'");
        pos_.side_to_move = side == 'W' ? White : Black;
        for (std::size_t i = 1; i < fen_.size();) i = read_section(i);
        // "W" alone is no position; "W:W:B" is an empty board, said on purpose.
        if (!seen_[White] && !seen_[Black])
            throw InputError("bad FEN " + quoted(fen_) + ": no piece lists; expected ':W' and ':B' lists, like " +
                             std::string(V::initial_fen));
        try {
            check_position(pos_);
        } catch (const InputError& e) {
            throw InputError("impossible position in FEN " + quoted(fen_) + ": " + e.what());
        }
        return pos_;
    }

private:
    static char upper(char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); }

    InputError fail(std::size_t at, const std::string& what) const {
        return InputError("bad FEN " + quoted(fen_) + " at character " + std::to_string(at + 1) + ": " + what);
    }

    // Reads the section whose ':' is at `i`; returns where the next begins.
    std::size_t read_section(std::size_t i) {
        if (fen_[i] != ':') throw fail(i, "expected ':' before a colour's list of squares");
        ++i;
        if (i >= fen_.size()) throw fail(i, "expected 'W' or 'B' after ':'");
        const char tag = upper(fen_[i]);
        const std::size_t end = std::min(fen_.find(':', i), fen_.size());
        if (tag == 'H' || tag == 'F') {
            if (!parse_number(trim(fen_.substr(i + 1, end - i - 1))))
                throw fail(i, std::string("expected a number after '") + tag + "'");
            return end;
        }
        if (tag != 'W' && tag != 'B') throw fail(i, "expected 'W' or 'B' to start a colour's list of squares");
        const Color color = tag == 'W' ? White : Black;
        if (seen_[color])
            throw fail(i, std::string("the ") + (color == White ? "white" : "black") + " pieces are listed twice");
        seen_[color] = true;
        read_squares(color, i + 1, end);
        return end;
    }

    // The items of one colour's list, in fen_[begin, end).
    void read_squares(Color color, std::size_t begin, std::size_t end) {
        for (std::size_t item_start = begin; item_start < end;) {
            const std::size_t item_end = std::min(fen_.find(',', item_start), end);
            std::string_view item = fen_.substr(item_start, item_end - item_start);
            std::size_t at = item_start;
            while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front()))) {
                item.remove_prefix(1);
                ++at;
            }
            item = trim(item);
            if (item.empty()) {
                if (item_end == end && item_start == begin) return;  // a colour with no pieces
                throw fail(at, "empty entry in the list of squares");
            }
            read_item(color, item, at);
            item_start = item_end + 1;
        }
    }

    // One item, [K]square or [K]square-square (a range in PDN order), which
    // starts at character `at`.
    void read_item(Color color, std::string_view item, std::size_t at) {
        using Board = typename V::Board;
        Piece piece = Piece::Man;
        if (item[0] == 'K' || item[0] == 'k') {
            piece = Piece::King;
            item.remove_prefix(1);
            ++at;
        }
        const std::size_t dash = item.find('-');
        const std::string_view first_text = item.substr(0, dash);
        const auto first = parse_square<V>(first_text);
        if (!first) throw fail(at, not_a_square<V>(first_text));
        Square last = Board::square_of(*first);
        if (dash != std::string_view::npos) {
            const std::string_view last_text = item.substr(dash + 1);
            const auto last_bit = parse_square<V>(last_text);
            if (!last_bit) throw fail(at + dash + 1, not_a_square<V>(last_text));
            last = Board::square_of(*last_bit);
            if (last < Board::square_of(*first)) throw fail(at, "range " + quoted(item) + " runs backwards");
        }
        for (Square sq = Board::square_of(*first); sq <= last; ++sq.index) {
            const BitIndex b = Board::bit_of(sq);
            if (pos_.occupied() & bit(b)) throw fail(at, "square " + square_name<V>(b) + " is listed twice");
            pos_.put(color, piece, b);
        }
    }

    std::string_view fen_;
    Position<V> pos_;
    bool seen_[2] = {false, false};
};

}  // namespace

template <class V>
Position<V> parse_fen(std::string_view fen_text) {
    std::string_view fen = trim(fen_text);
    // Some programs end the FEN with '.' ("W:W31-50:B1-20.").
    if (fen.size() > 1 && fen.back() == '.') fen = trim(fen.substr(0, fen.size() - 1));
    return FenReader<V>(fen).read();
}

template <class V>
std::string to_fen(const Position<V>& pos) {
    using Board = typename V::Board;
    std::string fen(1, pos.side_to_move == White ? 'W' : 'B');
    for (Color c : {White, Black}) {
        fen += c == White ? ":W" : ":B";
        // 0: not a piece of c, 1: a man, 2: a king.
        const auto kind_at = [&](int s) {
            const Bitboard b = bit(Board::bit_of(Square{s}));
            return !(pos.pieces[c] & b) ? 0 : (pos.kings & b) ? 2 : 1;
        };
        std::string list;
        for (int sq = 0; sq < Board::squares; ++sq) {
            const int kind = kind_at(sq);
            if (kind == 0) continue;
            const auto name = [&](int s) { return square_name<V>(Board::bit_of(Square{s})); };
            const std::string prefix = kind == 2 ? "K" : "";
            // Numbered squares: runs of consecutive squares of the same kind.
            int end = sq;
            if (!V::algebraic_notation)
                while (end + 1 < Board::squares && kind_at(end + 1) == kind) ++end;
            list += (list.empty() ? "" : ",") + prefix + name(sq);
            if (end == sq + 1) list += "," + prefix + name(end);
            if (end > sq + 1) list += "-" + name(end);
            sq = end;
        }
        fen += list;
    }
    return fen;
}

namespace {

// The squares a route's text names: its start, turning squares and end.
template <class V>
std::vector<BitIndex> written_squares(const CaptureRoute& route) {
    std::vector<BitIndex> path;
    for (const std::uint8_t b : route.path) path.push_back(BitIndex{b});
    std::vector<BitIndex> squares{path.front()};
    for (std::size_t i = 1; i + 1 < path.size(); ++i) {
        const auto [f0, r0] = file_rank<V>(path[i - 1]);
        const auto [f1, r1] = file_rank<V>(path[i]);
        const auto [f2, r2] = file_rank<V>(path[i + 1]);
        const bool turns = sign(f1 - f0) != sign(f2 - f1) || sign(r1 - r0) != sign(r2 - r1);
        if (turns) squares.push_back(path[i]);
    }
    squares.push_back(path.back());
    return squares;
}

}  // namespace

template <class V>
std::string route_text(const CaptureRoute& route) {
    std::string text;
    for (BitIndex sq : written_squares<V>(route))
        text += (text.empty() ? std::string() : std::string(1, capture_mark<V>())) + square_name<V>(sq);
    return text;
}

template <class V>
std::string move_text(const Position<V>& pos, const Move& m) {
    const std::string from = square_name<V>(BitIndex{m.from}), to = square_name<V>(BitIndex{m.to});
    if (!m.is_capture()) return from + "-" + to;
    MoveList moves;
    MoveGenerator<V>::generate(pos, moves);
    // Start and end suffice when the piece has no other capture. When it has
    // several, the rules write each in full, turning squares included, even
    // one whose end no other shares (rule 2.1.6.2, diagram 8: "d2:g5:d8:a5"
    // beside d2:h6:f8:c5:a7 and d2:g5:e7:c5:a7; "in such positions the full
    // record is required").
    const auto same_piece = [&](const Move& other) { return other.from == m.from; };
    if (std::count_if(moves.begin(), moves.end(), same_piece) <= 1) return from + capture_mark<V>() + to;
    for (const CaptureRoute& route : MoveGenerator<V>::capture_routes(pos))
        if (route.move == m) return route_text<V>(route);
    throw InputError("move_text: not a legal move here");
}

template <class V>
Move parse_move(const Position<V>& pos, std::string_view text_in) {
    const std::string_view text = trim(text_in);
    std::vector<BitIndex> squares;
    std::size_t start = 0;
    for (std::size_t i = 0; i <= text.size(); ++i) {
        if (i < text.size() && text[i] != '-' && text[i] != ':' && text[i] != 'x' && text[i] != 'X') continue;
        const std::string_view token = text.substr(start, i - start);
        const auto sq = parse_square<V>(token);
        if (!sq)
            throw InputError("bad move " + quoted(text) + ": " + quoted(token) + " is not a square of the " +
                             std::string(V::name) + " board");
        squares.push_back(*sq);
        start = i + 1;
    }
    if (squares.size() < 2)
        throw InputError("bad move " + quoted(text) + ": expected at least two squares, like 'c3-d4'");

    MoveList moves;
    MoveGenerator<V>::generate(pos, moves);
    const std::vector<CaptureRoute> routes = MoveGenerator<V>::capture_routes(pos);
    const BitIndex from = squares.front(), to = squares.back();
    std::vector<Move> matches;
    const auto add = [&](const Move& m) {
        if (std::find(matches.begin(), matches.end(), m) == matches.end()) matches.push_back(m);
    };
    // A text that names exactly a route's start, turning squares and end is
    // that route, even where another route with the same ends passes the
    // same squares: "c5:a3" beside "c5:e3:h6:f8:a3", "20:29:12:3" beside
    // "20:42:26:3" (which crosses 29 and 12). This is how route_text and
    // move_text write captures, so their texts always read back.
    for (const CaptureRoute& route : routes)
        if (written_squares<V>(route) == squares) add(route.move);
    if (matches.empty() && squares.size() == 2) {
        for (const Move& m : moves)
            if (BitIndex{m.from} == from && BitIndex{m.to} == to) add(m);
    } else if (matches.empty()) {
        // Game records may also write squares where the piece did not turn:
        // the written intermediate squares must be passed in order.
        for (const CaptureRoute& route : routes) {
            if (BitIndex{route.move.from} != from || BitIndex{route.move.to} != to) continue;
            const std::vector<BitIndex> passed = traversed_squares<V>(route);
            std::size_t k = 1;
            for (std::size_t j = 1; j < passed.size() && k + 1 < squares.size(); ++j)
                if (passed[j] == squares[k]) ++k;
            if (k + 1 == squares.size()) add(route.move);
        }
    }
    if (matches.size() == 1) return matches.front();
    std::string listed;
    for (const Move& m : (matches.empty() ? std::vector<Move>(moves.begin(), moves.end()) : matches))
        listed += (listed.empty() ? "" : ", ") + move_text(pos, m);
    if (matches.empty())
        throw InputError("illegal move " + quoted(text) + " in " + to_fen(pos) +
                         "; legal moves: " + (listed.empty() ? "none" : listed));
    throw InputError("ambiguous move " + quoted(text) + " in " + to_fen(pos) + ": it could be " + listed +
                     "; write the turning squares");
}

template <class V>
std::string board_diagram(const Position<V>& pos) {
    using Board = typename V::Board;
    std::ostringstream out;
    for (int rank = Board::width; rank >= 1; --rank) {
        if constexpr (V::algebraic_notation) {
            out << (rank < 10 ? " " : "") << rank << " ";
        } else {  // the row's first and last numbers: " 1- 5" .. "46-50"
            const int first = (Board::width - rank) * Board::per_row + 1, last = first + Board::per_row - 1;
            out << (first < 10 ? " " : "") << first << '-' << (last < 10 ? " " : "") << last << " ";
        }
        for (int file = 0; file < Board::width; ++file) {
            const std::optional<Square> sq = Board::square_at(file, rank);
            char c = '.';
            if (!sq) {
                c = ' ';
            } else {
                const Bitboard b = bit(Board::bit_of(*sq));
                const bool king = (pos.kings & b) != 0;
                if (pos.pieces[White] & b) c = king ? 'W' : 'w';
                if (pos.pieces[Black] & b) c = king ? 'B' : 'b';
            }
            out << ' ' << c;
        }
        out << '\n';
    }
    if constexpr (V::algebraic_notation) {
        out << "   ";
        for (int file = 0; file < Board::width; ++file) out << ' ' << char('a' + file);
        out << '\n';
    }
    out << (pos.side_to_move == White ? "White" : "Black") << " to move\n";
    return out.str();
}

#define DTB_INSTANTIATE_NOTATION(V)                                     \
    template std::string square_name<V>(BitIndex);                      \
    template int square_number<V>(BitIndex);                            \
    template std::optional<BitIndex> parse_square<V>(std::string_view); \
    template Position<V> initial_position<V>();                         \
    template Position<V> parse_fen<V>(std::string_view);                \
    template std::string to_fen<V>(const Position<V>&);                 \
    template void check_position<V>(const Position<V>&);                \
    template std::string move_text<V>(const Position<V>&, const Move&); \
    template std::string route_text<V>(const CaptureRoute&);            \
    template Move parse_move<V>(const Position<V>&, std::string_view);  \
    template std::string board_diagram<V>(const Position<V>&);

DTB_FOR_EACH_VARIANT(DTB_INSTANTIATE_NOTATION)

}  // namespace dtb
