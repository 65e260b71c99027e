#include "rules/notation.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>

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
std::string square_name(int bit_index) {
    using Board = typename V::Board;
    const int sq = Board::square_of(bit_index);
    if constexpr (V::algebraic_notation) {
        std::string name(1, char('a' + Board::file_of(sq)));
        name += std::to_string(Board::rank_of(sq));
        return name;
    } else {
        return std::to_string(sq + 1);
    }
}

template <class V>
int square_number(int bit_index) {
    return V::Board::square_of(bit_index) + 1;
}

template <class V>
std::optional<int> parse_square(std::string_view text) {
    using Board = typename V::Board;
    if (text.empty()) return std::nullopt;
    if (std::isdigit(static_cast<unsigned char>(text[0]))) {
        const auto n = parse_number(text);
        if (!n || *n < 1 || *n > Board::squares) return std::nullopt;
        return Board::bit_of(*n - 1);
    }
    if (!V::algebraic_notation || text.size() < 2 || text.size() > 3) return std::nullopt;
    const char file_char = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
    const auto rank = parse_number(text.substr(1));
    if (file_char < 'a' || file_char >= 'a' + Board::width || !rank) return std::nullopt;
    const int sq = Board::square_at(file_char - 'a', *rank);
    if (sq < 0) return std::nullopt;
    return Board::bit_of(sq);
}

template <class V>
Position<V> initial_position() {
    return parse_fen<V>(V::Board::width == 8 ? "W:W21-32:B1-12" : "W:W31-50:B1-20");
}

template <class V>
void check_position(const Position<V>& pos) {
    using Board = typename V::Board;
    const int max_per_side = Board::per_row * (Board::width / 2 - 1);
    for (Color c : {White, Black}) {
        const char* who = c == White ? "white" : "black";
        if (popcount(pos.pieces[c]) > max_per_side)
            throw InputError(std::string("too many ") + who + " pieces: " + std::to_string(popcount(pos.pieces[c])) +
                             " (a side has at most " + std::to_string(max_per_side) + ")");
        const Bitboard misplaced = pos.men(c) & Board::promotion_row(c);
        if (misplaced)
            throw InputError(std::string(who) + " man on " + square_name<V>(lowest_bit(misplaced)) +
                             ", its crowning row: it would be a king");
    }
    if (pos.pieces[White] & pos.pieces[Black])
        throw InputError("square " + square_name<V>(lowest_bit(pos.pieces[White] & pos.pieces[Black])) +
                         " holds two pieces");
}

template <class V>
Position<V> parse_fen(std::string_view fen_text) {
    std::string_view fen = trim(fen_text);
    // Some programs end the FEN with '.' ("W:W31-50:B1-20.").
    if (fen.size() > 1 && fen.back() == '.') fen = trim(fen.substr(0, fen.size() - 1));
    auto fail = [&](std::size_t at, const std::string& what) -> InputError {
        return InputError("bad FEN " + quoted(fen) + " at character " + std::to_string(at + 1) + ": " + what);
    };
    if (fen.empty()) throw InputError("bad FEN: it is empty");

    Position<V> pos;
    std::size_t i = 0;
    const char side = static_cast<char>(std::toupper(static_cast<unsigned char>(fen[0])));
    if (side != 'W' && side != 'B') throw fail(0, "expected the side to move, 'W' or 'B'");
    pos.side_to_move = side == 'W' ? White : Black;
    i = 1;

    bool seen[2] = {false, false};
    while (i < fen.size()) {
        if (fen[i] != ':') throw fail(i, "expected ':' before a colour's list of squares");
        ++i;
        if (i >= fen.size()) throw fail(i, "expected 'W' or 'B' after ':'");
        const char tag = static_cast<char>(std::toupper(static_cast<unsigned char>(fen[i])));
        const std::size_t section_end = std::min(fen.find(':', i), fen.size());
        if (tag == 'H' || tag == 'F') {  // move counters some programs add: read and ignored
            if (!parse_number(trim(fen.substr(i + 1, section_end - i - 1))))
                throw fail(i, std::string("expected a number after '") + tag + "'");
            i = section_end;
            continue;
        }
        if (tag != 'W' && tag != 'B') throw fail(i, "expected 'W' or 'B' to start a colour's list of squares");
        const Color color = tag == 'W' ? White : Black;
        if (seen[color]) throw fail(i, std::string("the ") + (color == White ? "white" : "black") + " pieces are listed twice");
        seen[color] = true;
        ++i;
        // Items: [K]square or [K]square-square (a range), separated by ','.
        std::size_t item_start = i;
        while (item_start < section_end) {
            std::size_t item_end = std::min(fen.find(',', item_start), section_end);
            if (item_end == std::string_view::npos) item_end = section_end;
            std::string_view item = fen.substr(item_start, item_end - item_start);
            std::size_t at = item_start;
            while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front()))) {
                item.remove_prefix(1);
                ++at;
            }
            item = trim(item);
            if (item.empty()) {
                if (item_end == section_end && item_start == i) break;  // a colour with no pieces
                throw fail(at, "empty entry in the list of squares");
            }
            Piece piece = Piece::Man;
            if (item[0] == 'K' || item[0] == 'k') {
                piece = Piece::King;
                item.remove_prefix(1);
                ++at;
            }
            const std::size_t dash = item.find('-');
            const std::string_view first_text = item.substr(0, dash);
            const auto first = parse_square<V>(first_text);
            if (!first) throw fail(at, "not a square of the " + std::string(V::name) + " board: " + quoted(first_text));
            int last_number = square_number<V>(*first);
            if (dash != std::string_view::npos) {
                const std::string_view last_text = item.substr(dash + 1);
                const auto last = parse_square<V>(last_text);
                if (!last) throw fail(at + dash + 1, "not a square: " + quoted(last_text));
                last_number = square_number<V>(*last);
                if (last_number < square_number<V>(*first))
                    throw fail(at, "range " + quoted(item) + " runs backwards");
            }
            for (int n = square_number<V>(*first); n <= last_number; ++n) {
                const int b = V::Board::bit_of(n - 1);
                if (pos.occupied() & bit(b)) throw fail(at, "square " + square_name<V>(b) + " is listed twice");
                pos.put(color, piece, b);
            }
            item_start = item_end + 1;
        }
        i = section_end;
    }
    try {
        check_position(pos);
    } catch (const InputError& e) {
        throw InputError("impossible position in FEN " + quoted(fen) + ": " + e.what());
    }
    return pos;
}

template <class V>
std::string to_fen(const Position<V>& pos) {
    using Board = typename V::Board;
    std::string fen(1, pos.side_to_move == White ? 'W' : 'B');
    for (Color c : {White, Black}) {
        fen += c == White ? ":W" : ":B";
        bool first = true;
        for (int sq = 0; sq < Board::squares; ++sq) {
            const int b = Board::bit_of(sq);
            if (!(pos.pieces[c] & bit(b))) continue;
            const bool king = (pos.kings & bit(b)) != 0;
            if (!V::algebraic_notation) {
                // Extend to a run of consecutive squares of the same kind.
                int end = sq;
                auto same = [&](int s) {
                    const int bb = Board::bit_of(s);
                    return (pos.pieces[c] & bit(bb)) && (((pos.kings & bit(bb)) != 0) == king);
                };
                while (end + 1 < Board::squares && same(end + 1)) ++end;
                if (!first) fen += ',';
                first = false;
                if (king) fen += 'K';
                fen += std::to_string(sq + 1);
                if (end > sq + 1) fen += "-" + std::to_string(end + 1);
                if (end == sq + 1) {
                    fen += ',';
                    if (king) fen += 'K';
                    fen += std::to_string(end + 1);
                }
                sq = end;
                continue;
            }
            if (!first) fen += ',';
            first = false;
            if (king) fen += 'K';
            fen += square_name<V>(b);
        }
    }
    return fen;
}

namespace {

template <class V>
std::pair<int, int> file_rank(int bit_index) {
    using Board = typename V::Board;
    const int sq = Board::square_of(bit_index);
    return {Board::file_of(sq), Board::rank_of(sq)};
}

int sign(int x) { return (x > 0) - (x < 0); }

// Every square the piece passes over or stands on, in order, start included.
template <class V>
std::vector<int> traversed_squares(const CaptureRoute& route) {
    using Board = typename V::Board;
    std::vector<int> squares{route.path.front()};
    for (std::size_t i = 1; i < route.path.size(); ++i) {
        auto [f0, r0] = file_rank<V>(route.path[i - 1]);
        const auto [f1, r1] = file_rank<V>(route.path[i]);
        const int df = sign(f1 - f0), dr = sign(r1 - r0);
        while (f0 != f1 || r0 != r1) {
            f0 += df;
            r0 += dr;
            squares.push_back(Board::bit_of(Board::square_at(f0, r0)));
        }
    }
    return squares;
}

// The squares a route's text names: its start, turning squares and end.
template <class V>
std::vector<int> written_squares(const CaptureRoute& route) {
    const auto& path = route.path;
    std::vector<int> squares{path.front()};
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
    for (int sq : written_squares<V>(route)) text += (text.empty() ? "" : ":") + square_name<V>(sq);
    return text;
}

template <class V>
std::string move_text(const Position<V>& pos, const Move& m) {
    if (!m.is_capture()) return square_name<V>(m.from) + "-" + square_name<V>(m.to);
    MoveList moves;
    MoveGenerator<V>::generate(pos, moves);
    // Start and end suffice when the piece has no other capture. When it has
    // several, the rules write each in full, turning squares included, even
    // one whose end no other shares (rule 2.1.6.2, diagram 8: "d2:g5:d8:a5"
    // beside d2:h6:f8:c5:a7 and d2:g5:e7:c5:a7; "in such positions the full
    // record is required").
    const auto same_piece = [&](const Move& other) { return other.from == m.from; };
    if (std::count_if(moves.begin(), moves.end(), same_piece) <= 1)
        return square_name<V>(m.from) + ":" + square_name<V>(m.to);
    for (const CaptureRoute& route : MoveGenerator<V>::capture_routes(pos))
        if (route.move == m) return route_text<V>(route);
    throw InputError("move_text: not a legal move here");
}

template <class V>
Move parse_move(const Position<V>& pos, std::string_view text_in) {
    const std::string_view text = trim(text_in);
    std::vector<int> squares;
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
    if (squares.size() < 2) throw InputError("bad move " + quoted(text) + ": expected at least two squares, like 'c3-d4'");

    MoveList moves;
    MoveGenerator<V>::generate(pos, moves);
    const std::vector<CaptureRoute> routes = MoveGenerator<V>::capture_routes(pos);
    const int from = squares.front(), to = squares.back();
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
            if (m.from == from && m.to == to) add(m);
    } else if (matches.empty()) {
        // Game records may also write squares where the piece did not turn:
        // the written intermediate squares must be passed in order.
        for (const CaptureRoute& route : routes) {
            if (route.move.from != from || route.move.to != to) continue;
            const std::vector<int> passed = traversed_squares<V>(route);
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
        throw InputError("illegal move " + quoted(text) + " in " + to_fen(pos) + "; legal moves: " +
                         (listed.empty() ? "none" : listed));
    throw InputError("ambiguous move " + quoted(text) + " in " + to_fen(pos) + ": it could be " + listed +
                     "; write the turning squares");
}

template <class V>
std::string board_diagram(const Position<V>& pos) {
    using Board = typename V::Board;
    std::ostringstream out;
    for (int rank = Board::width; rank >= 1; --rank) {
        out << (rank < 10 ? " " : "") << rank << " ";
        for (int file = 0; file < Board::width; ++file) {
            const int sq = Board::square_at(file, rank);
            char c = '.';
            if (sq < 0) {
                c = ' ';
            } else {
                const Bitboard b = bit(Board::bit_of(sq));
                const bool king = (pos.kings & b) != 0;
                if (pos.pieces[White] & b) c = king ? 'W' : 'w';
                if (pos.pieces[Black] & b) c = king ? 'B' : 'b';
            }
            out << ' ' << c;
        }
        out << '\n';
    }
    out << "   ";
    for (int file = 0; file < Board::width; ++file) out << ' ' << char('a' + file);
    out << "\n" << (pos.side_to_move == White ? "White" : "Black") << " to move\n";
    return out.str();
}

#define DTB_INSTANTIATE_NOTATION(V)                                  \
    template std::string square_name<V>(int);                         \
    template int square_number<V>(int);                               \
    template std::optional<int> parse_square<V>(std::string_view);    \
    template Position<V> initial_position<V>();                       \
    template Position<V> parse_fen<V>(std::string_view);              \
    template std::string to_fen<V>(const Position<V>&);                \
    template void check_position<V>(const Position<V>&);             \
    template std::string move_text<V>(const Position<V>&, const Move&); \
    template std::string route_text<V>(const CaptureRoute&);          \
    template Move parse_move<V>(const Position<V>&, std::string_view); \
    template std::string board_diagram<V>(const Position<V>&);

DTB_INSTANTIATE_NOTATION(Russian)
DTB_INSTANTIATE_NOTATION(International)

}  // namespace dtb
