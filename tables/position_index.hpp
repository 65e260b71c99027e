// PositionIndex: a bijection between the legal placements of one material
// signature (side to move normalised to White) and 0..size()-1. It is part of
// the table file format: the generator writes values in this order and the
// probe reads them back through this same code (PositionIndex::kVersion is
// stored in every table file).
//
// Layout, most significant first:
//   men:   white men and black men together, exactly: men never stand on
//          their own crowning row, so white men live on rows 1..W-1 and black
//          men on rows 0..W-2. Split by j, the number of white men on White's
//          back row (where no black man can be), the black men are ranked
//          among their squares not taken by white men. No slot is wasted.
//   black kings (the side not to move) among the squares left;
//   white kings (the side to move) among the squares left after that.
// Every part is the colex rank of a set of squares after compressing the
// available squares to 0..n-1 (pext), so rank and unrank are a few BMI2
// instructions and table look-ups.
//
// The side to move's kings come last because the solver walks retro moves:
// the positions one king move before a given one differ only in that last
// part, so their indexes lie close together and each costs one pext and a
// short sum (see KingFrame).
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>

#if defined(__AVX2__)
#include <immintrin.h>
#endif

#include "rules/position.hpp"
#include "tables/combinatorics.hpp"
#include "tables/material_signature.hpp"

namespace dtb {

// Reverses the bit order of a 64-bit word.
constexpr std::uint64_t reverse_bits(std::uint64_t x) {
    x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
    x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((x & 0x0F0F0F0F0F0F0F0FULL) << 4);
    return __builtin_bswap64(x);
}

// The board turned half a turn with the colours swapped: square i becomes
// square (N-1-i), White becomes Black. The ghost layout is symmetric under
// this turn, so it is a reversal of the used bits.
template <class Board>
constexpr Bitboard rotate_half_turn(Bitboard b) {
    return reverse_bits(b) >> (64 - Board::bit_count);
}

template <class V>
Position<V> flip(const Position<V>& pos) {
    using Board = typename V::Board;
    Position<V> out;
#if defined(__GFNI__) && defined(__AVX2__)
    // All three bitboards at once: reverse the bits of each byte (an affine
    // map over GF(2)), then the bytes of each 64-bit lane.
    const __m256i words = _mm256_setr_epi64x(std::int64_t(pos.pieces[Black]), std::int64_t(pos.pieces[White]),
                                             std::int64_t(pos.kings), 0);
    const __m256i bits_reversed = _mm256_gf2p8affine_epi64_epi8(words, _mm256_set1_epi64x(0x8040201008040201LL), 0);
    const __m256i byte_order = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2,
                                                1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
    const __m256i reversed = _mm256_srli_epi64(_mm256_shuffle_epi8(bits_reversed, byte_order), 64 - Board::bit_count);
    alignas(32) std::uint64_t lanes[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), reversed);
    out.pieces[White] = lanes[0];
    out.pieces[Black] = lanes[1];
    out.kings = lanes[2];
#else
    out.pieces[White] = rotate_half_turn<Board>(pos.pieces[Black]);
    out.pieces[Black] = rotate_half_turn<Board>(pos.pieces[White]);
    out.kings = rotate_half_turn<Board>(pos.kings);
#endif
    out.side_to_move = opponent(pos.side_to_move);
    return out;
}

// The same position seen with White to move.
template <class V>
Position<V> normalize(const Position<V>& pos) {
    return pos.side_to_move == White ? pos : flip(pos);
}

// The signature of a position, from its side to move.
template <class V>
MaterialSignature signature_of(const Position<V>& pos) {
    const Color us = pos.side_to_move, them = opponent(us);
    return {{popcount(pos.men(us)), popcount(pos.men(them))},
            {popcount(pos.kings_of(us)), popcount(pos.kings_of(them))}};
}

template <class V>
class PositionIndex {
public:
    using Board = typename V::Board;
    static constexpr std::uint32_t kVersion = 2;

    explicit PositionIndex(const MaterialSignature& sig) : sig_(sig) {
        const int a = sig.men[0], b = sig.men[1], c = sig.kings[0], d = sig.kings[1];
        if (a < 0 || b < 0 || c < 0 || d < 0 || sig.total() > Board::squares)
            throw std::invalid_argument("PositionIndex: impossible signature " + sig.name());
        std::uint64_t offset = 0;
        for (int j = 0; j <= Board::per_row; ++j) {
            men_offset_[j] = offset;
            if (j <= a) offset += binomial(Board::per_row, j) * binomial(kOverlap, a - j) * black_men_ways(j);
        }
        men_count_ = offset;
        free_squares_ = Board::squares - a - b;
        black_king_ways_ = binomial(free_squares_, d);
        white_king_ways_ = binomial(free_squares_ - d, c);
        size_ = men_count_ * black_king_ways_ * white_king_ways_;
    }

    const MaterialSignature& signature() const { return sig_; }
    std::uint64_t size() const { return size_; }
    // The placements of the men, and of the kings around each: index =
    // men_rank * king_ways() + the kings' part. Positions that differ only
    // in their kings share a men rank (a king move keeps the men).
    std::uint64_t men_count() const { return men_count_; }
    std::uint64_t king_ways() const { return black_king_ways_ * white_king_ways_; }
    // The placements of the white kings (the side to move's) around each
    // placement of the men and black kings: the last part of an index.
    std::uint64_t white_king_ways() const { return white_king_ways_; }
    std::uint64_t men_rank(const Position<V>& pos) const { return men_rank(men_frame(pos)); }

    // Everything of an index but the white kings: index = base +
    // colex_rank(extract_bits(white kings, squares)) for any placement of the
    // white kings on `squares`.
    struct KingFrame {
        std::uint64_t base;
        Bitboard squares;
    };

    // Everything of an index but the kings: positions that differ only in
    // where their kings stand share it (a king move keeps the men).
    struct MenFrame {
        std::uint64_t base;  // the men's part, times the ways to place the kings
        Bitboard free;       // the squares the kings may take
    };

    MenFrame men_frame(const Position<V>& pos) const {
        const Bitboard white_men = pos.men(White), black_men = pos.men(Black);
        const Bitboard on_back_row = white_men & kWhiteBackRow;
        const int j = popcount(on_back_row);
        std::uint64_t men = colex_rank(extract_bits(on_back_row, kWhiteBackRow));
        men = men * binomial(kOverlap, sig_.men[0] - j) +
              colex_rank(extract_bits(white_men & kOverlapMask, kOverlapMask));
        men = men * black_men_ways(j) + colex_rank(extract_bits(black_men, kBlackMenSquares & ~white_men));
        men += men_offset_[j];
        return {men * black_king_ways_, Board::all & ~(white_men | black_men)};
    }

    std::uint64_t men_rank(const MenFrame& men) const { return men.base / black_king_ways_; }

    // The frame of `pos`'s men and black kings (its white kings are ignored).
    KingFrame king_frame(const Position<V>& pos) const { return king_frame(men_frame(pos), pos.kings_of(Black)); }

    KingFrame king_frame(const MenFrame& men, Bitboard black_kings) const {
        const std::uint64_t high = men.base + colex_rank(extract_bits(black_kings, men.free));
        return {high * white_king_ways_, men.free & ~black_kings};
    }

    // The index of the position with the men of `men` and these kings.
    std::uint64_t rank(const MenFrame& men, Bitboard white_kings, Bitboard black_kings) const {
        const KingFrame frame = king_frame(men, black_kings);
        return frame.base + colex_rank(extract_bits(white_kings, frame.squares));
    }

    // `pos` must have White to move and this signature.
    std::uint64_t rank(const Position<V>& pos) const {
        const KingFrame frame = king_frame(pos);
        return frame.base + colex_rank(extract_bits(pos.kings_of(White), frame.squares));
    }

    Position<V> unrank(std::uint64_t index) const {
        Position<V> pos = unrank_frame(index / white_king_ways_);
        add_white_kings(pos, index % white_king_ways_);
        return pos;
    }

    // Unranks a run of indexes that mostly share their men and black kings
    // (as a scan in index order does) without decoding those again.
    class Cursor {
    public:
        explicit Cursor(const PositionIndex& index) : index_(index) {}
        Position<V> at(std::uint64_t i) {
            const std::uint64_t high = i / index_.white_king_ways_;
            if (high != high_) {
                high_ = high;
                frame_ = index_.unrank_frame(high);
            }
            Position<V> pos = frame_;
            index_.add_white_kings(pos, i - high * index_.white_king_ways_);
            return pos;
        }

    private:
        const PositionIndex& index_;
        std::uint64_t high_ = ~std::uint64_t{0};
        Position<V> frame_;
    };

private:
    // The position of the men and black kings of index high * white_king_ways_.
    Position<V> unrank_frame(std::uint64_t high) const {
        const std::uint64_t black_kings_rank = high % black_king_ways_;
        std::uint64_t men = high / black_king_ways_;
        int j = 0;
        while (j < sig_.men[0] && j < Board::per_row && men_offset_[j + 1] <= men) ++j;
        men -= men_offset_[j];
        const std::uint64_t black_ways = black_men_ways(j);
        const std::uint64_t black_rank = men % black_ways;
        men /= black_ways;
        const std::uint64_t overlap_ways = binomial(kOverlap, sig_.men[0] - j);
        const std::uint64_t overlap_rank = men % overlap_ways;
        const std::uint64_t back_rank = men / overlap_ways;

        Position<V> pos;
        const Bitboard white_men = deposit_bits(colex_unrank(back_rank, j, Board::per_row), kWhiteBackRow) |
                                   deposit_bits(colex_unrank(overlap_rank, sig_.men[0] - j, kOverlap), kOverlapMask);
        const int black_squares = Board::squares - Board::per_row - (sig_.men[0] - j);
        const Bitboard black_men =
            deposit_bits(colex_unrank(black_rank, sig_.men[1], black_squares), kBlackMenSquares & ~white_men);
        const Bitboard free = Board::all & ~(white_men | black_men);
        const Bitboard black_kings = deposit_bits(colex_unrank(black_kings_rank, sig_.kings[1], free_squares_), free);
        pos.pieces[White] = white_men;
        pos.pieces[Black] = black_men | black_kings;
        pos.kings = black_kings;
        pos.side_to_move = White;
        return pos;
    }

    // Puts the white kings of rank `rank` on the squares `frame` leaves free.
    void add_white_kings(Position<V>& frame, std::uint64_t rank) const {
        const Bitboard squares = Board::all & ~frame.occupied();
        const Bitboard white_kings =
            deposit_bits(colex_unrank(rank, sig_.kings[0], free_squares_ - sig_.kings[1]), squares);
        frame.pieces[White] |= white_kings;
        frame.kings |= white_kings;
    }

    // White's back row (rank 1): white men may stand there, black men never.
    static constexpr Bitboard kWhiteBackRow = Board::promotion_row(Black);
    static constexpr Bitboard kBlackMenSquares = Board::all & ~Board::promotion_row(Black);
    static constexpr Bitboard kOverlapMask = kBlackMenSquares & ~Board::promotion_row(White);
    static constexpr int kOverlap = Board::squares - 2 * Board::per_row;

    // Placements of the black men when j white men stand on White's back row
    // (the other white men take squares black men could use).
    std::uint64_t black_men_ways(int j) const {
        return binomial(Board::squares - Board::per_row - (sig_.men[0] - j), sig_.men[1]);
    }

    MaterialSignature sig_;
    std::array<std::uint64_t, Board::per_row + 2> men_offset_{};
    std::uint64_t men_count_ = 0;
    int free_squares_ = 0;
    std::uint64_t black_king_ways_ = 1;
    std::uint64_t white_king_ways_ = 1;
    std::uint64_t size_ = 0;
};

}  // namespace dtb
