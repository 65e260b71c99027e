// The position index is a bijection onto the legal placements: checked
// exhaustively against a brute-force enumeration on small signatures.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "rules/retro.hpp"
#include "tables/position_index.hpp"

namespace dtb {
namespace {

// Every placement of the signature's pieces (White to move), by brute force:
// each piece tries every square, men never on their crowning row.
template <class V>
std::vector<Position<V>> enumerate_by_hand(const MaterialSignature& sig) {
    using Board = typename V::Board;
    std::vector<std::pair<Color, Piece>> pieces;
    for (int i = 0; i < sig.men[0]; ++i) pieces.push_back({White, Piece::Man});
    for (int i = 0; i < sig.kings[0]; ++i) pieces.push_back({White, Piece::King});
    for (int i = 0; i < sig.men[1]; ++i) pieces.push_back({Black, Piece::Man});
    for (int i = 0; i < sig.kings[1]; ++i) pieces.push_back({Black, Piece::King});
    std::set<std::tuple<Bitboard, Bitboard, Bitboard>> seen;
    std::vector<Position<V>> out;
    std::vector<int> squares(pieces.size(), 0);
    while (true) {
        Position<V> pos;
        bool ok = true;
        for (std::size_t i = 0; i < pieces.size() && ok; ++i) {
            const BitIndex b = Board::bit_of(Square{squares[i]});
            if (pos.occupied() & bit(b)) ok = false;
            if (pieces[i].second == Piece::Man && (bit(b) & Board::promotion_row(pieces[i].first))) ok = false;
            pos.put(pieces[i].first, pieces[i].second, b);
        }
        if (ok && seen.insert({pos.pieces[White], pos.pieces[Black], pos.kings}).second) out.push_back(pos);
        std::size_t i = 0;
        while (i < squares.size() && ++squares[i] == Board::squares) squares[i++] = 0;
        if (i == squares.size()) break;
    }
    return out;
}

template <class V>
void check_bijection(const char* name) {
    const MaterialSignature sig = *MaterialSignature::parse(name);
    const PositionIndex<V> index(sig);
    const auto positions = enumerate_by_hand<V>(sig);
    ASSERT_EQ(index.size(), positions.size()) << name;
    std::vector<bool> hit(index.size(), false);
    for (const auto& pos : positions) {
        const std::uint64_t i = index.rank(pos);
        ASSERT_LT(i, index.size()) << to_fen(pos);
        ASSERT_FALSE(hit[i]) << "two positions share index " << i;
        hit[i] = true;
        ASSERT_EQ(index.unrank(i), pos) << to_fen(pos);
    }
}

TEST(PositionIndex, RussianBijection) {
    for (const char* sig : {"KvK", "MvK", "KvM", "MvM", "KKvK", "KMvK", "MMvM", "MvMM", "KvKM", "MMvK", "KKvKK",
                            "MMvMM", "KMvKM", "MMMvM"})
        check_bijection<Russian>(sig);
}

TEST(PositionIndex, InternationalBijection) {
    for (const char* sig : {"KvK", "MvM", "KMvK", "MMvM", "KvMM", "KKvM"}) check_bijection<International>(sig);
}

TEST(PositionIndex, RankUnrankRoundTripOnLargerSignatures) {
    // Too big to enumerate by hand: unrank then rank a spread of indexes.
    for (const char* name : {"KKMvKMM", "MMMvMMM", "KKKvKKK", "MMMMvMM"}) {
        const PositionIndex<Russian> index(*MaterialSignature::parse(name));
        for (std::uint64_t i = 0; i < index.size(); i += index.size() / 100003 + 1) {
            const auto pos = index.unrank(i);
            ASSERT_EQ(signature_of(pos), index.signature());
            ASSERT_NO_THROW(check_position(pos));
            ASSERT_EQ(index.rank(pos), i) << name;
        }
    }
}

TEST(Flip, IsAnInvolutionThatSwapsColours) {
    const auto pos = parse_fen<Russian>("W:Wa1,c3,Kh2:Bb8,Kd6");
    const auto flipped = flip(pos);
    // a1<->h8, c3<->f6, h2<->a7, b8<->g1, d6<->e3, colours swapped.
    EXPECT_EQ(to_fen(flipped), "B:WKe3,g1:Bh8,Ka7,f6");
    EXPECT_EQ(flip(flipped), pos);
    const auto intl = parse_fen<International>("W:W31,K46:B1,K5");
    EXPECT_EQ(to_fen(flip(intl)), "B:WK46,50:BK5,20");
}

// Every predecessor leads back to the position by one legal plain move.
template <class V>
void check_retro(const char* fen) {
    const auto pos = parse_fen<V>(fen);
    int count = 0;
    RetroGenerator<V>::for_each_predecessor(pos, [&](const Position<V>& before) {
        ++count;
        MoveList moves;
        MoveGenerator<V>::generate(before, moves);
        bool found = false;
        for (const Move& m : moves) found |= !m.is_capture() && !m.crowns && before.after(m) == pos;
        EXPECT_TRUE(found) << to_fen(before) << " does not lead to " << fen;
    });
    EXPECT_GT(count, 0) << fen;
}

TEST(Retro, PredecessorsLeadBack) {
    check_retro<Russian>("W:Wg1,Ka1:Bd6,Kh8");
    check_retro<Russian>("B:Wc3,Kd4:Bd6,Kh8,b6");
    check_retro<International>("W:W31,K46:B10,K5,25");
}

// ColexWithOne against the plain rank of the set with the square added, for
// every square the set leaves among random sets of squares on both boards.
TEST(ColexWithOne, AgreesWithThePlainRank) {
    std::uint64_t state = 0x9E3779B97F4A7C15ULL;
    const auto next = [&] {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    int compared = 0;
    for (const int board_squares : {32, 50}) {
        const Bitboard all = (Bitboard{1} << board_squares) - 1;
        for (int trial = 0; trial < 2000; ++trial) {
            // Squares: the board less a few (men); the set: up to 5 of them.
            const Bitboard squares = all & ~(next() & next() & next());
            Bitboard set = 0;
            const int size = int(next() % 6);
            for (int i = 0; i < size; ++i)
                set |= deposit_bits(bit(int(next() % std::uint64_t(popcount(squares)))), squares);
            const ColexWithOne ranks(set, squares);
            for (const int sq : bits_of{squares & ~set}) {
                ASSERT_EQ(ranks.rank(bit(sq)), colex_rank(extract_bits(set | bit(sq), squares)))
                    << "set " << set << " square " << sq;
                ++compared;
            }
        }
    }
    EXPECT_GT(compared, 50000);
}

}  // namespace
}  // namespace dtb
