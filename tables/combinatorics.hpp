// Binomial coefficients and the colex rank of a set of squares: the
// building blocks of the position index.
#pragma once

#include <array>
#include <cstdint>

#include "rules/bitboard.hpp"

#if defined(__BMI2__)
#include <immintrin.h>
#endif

namespace dtb {

inline constexpr int kMaxBinomialN = 64;

struct BinomialTable {
    std::array<std::array<std::uint64_t, kMaxBinomialN + 1>, kMaxBinomialN + 1> c{};
    constexpr BinomialTable() {
        for (int n = 0; n <= kMaxBinomialN; ++n) {
            c[n][0] = 1;
            for (int k = 1; k <= n; ++k) c[n][k] = c[n - 1][k - 1] + (k <= n - 1 ? c[n - 1][k] : 0);
        }
    }
};
inline constexpr BinomialTable kBinomials{};

// C(n, k); 0 when k > n or either is negative.
constexpr std::uint64_t binomial(int n, int k) {
    if (n < 0 || k < 0 || k > n) return 0;
    return kBinomials.c[n][k];
}

// Gathers the bits of x selected by mask into the low bits (BMI2 pext).
inline Bitboard extract_bits(Bitboard x, Bitboard mask) {
#if defined(__BMI2__)
    return _pext_u64(x, mask);
#else
    Bitboard out = 0;
    for (Bitboard m = mask, b = 1; m; m &= m - 1, b <<= 1)
        if (x & m & -m) out |= b;
    return out;
#endif
}

// Scatters the low bits of x to the positions of mask (BMI2 pdep).
inline Bitboard deposit_bits(Bitboard x, Bitboard mask) {
#if defined(__BMI2__)
    return _pdep_u64(x, mask);
#else
    Bitboard out = 0;
    for (Bitboard m = mask, b = 1; m; m &= m - 1, b <<= 1)
        if (x & b) out |= m & -m;
    return out;
#endif
}

// Colex rank of the set {p1 < p2 < ... < pk}: sum of C(p_i, i). Sets of k
// elements of 0..n-1 get the ranks 0..C(n,k)-1. (The table holds 0 for
// C(p, i) with i > p, so no bounds checks are needed here.)
inline std::uint64_t colex_rank(Bitboard set) {
    std::uint64_t rank = 0;
    for (int i = 1; set; ++i) rank += kBinomials.c[pop_lowest(set)][i];
    return rank;
}

// The colex ranks of a fixed set of squares with one more square added,
// all of them compressed to their places among `squares` (as
// colex_rank(extract_bits(set | one, squares))). A retro walk or a check
// ranks a king's moves this way: the other kings stay where they are.
// With x the new square's place and t the set's squares below it, the
// terms of those t stay, the others move up a position: the rank is
// sums[t] + C(x, t + 1), with sums[] found once for the set. Each rank
// then costs two popcounts and two look-ups, not an extract and a loop.
class ColexWithOne {
public:
    static constexpr int kMostSquares = 23;  // in the set: kings of one side

    ColexWithOne(Bitboard set, Bitboard squares) : set_(set), squares_(squares) {
        std::uint64_t places[kMostSquares];
        int m = 0;
        for (Bitboard rest = set; rest && m < kMostSquares; ++m)
            places[m] = std::uint64_t(popcount(squares & (bit(pop_lowest(rest)) - 1)));
        for (int t = 0; t <= m; ++t) {
            std::uint64_t sum = 0;
            for (int i = 0; i < m; ++i) sum += kBinomials.c[places[i]][i < t ? i + 1 : i + 2];
            sums_[std::size_t(t)] = sum;
        }
    }

    // The rank with the square `one` (a single bit of `squares`, not in the
    // set) added.
    std::uint64_t rank(Bitboard one) const {
        const Bitboard below = one - 1;
        const int t = popcount(set_ & below);
        return sums_[std::size_t(t)] + kBinomials.c[popcount(squares_ & below)][t + 1];
    }

private:
    Bitboard set_, squares_;
    std::array<std::uint64_t, kMostSquares + 1> sums_;
};

// The k-element set of colex rank `rank` among 0..n-1: the largest element
// is the largest p with C(p, k) <= rank, found by binary search, and so on.
inline Bitboard colex_unrank(std::uint64_t rank, int k, int n) {
    Bitboard set = 0;
    int high = n - 1;
    for (int i = k; i >= 1; --i) {
        if (i == 1) return set | bit(int(rank));  // C(p, 1) = p
        int low = i - 1;                          // C(i-1, i) = 0 <= rank always
        while (low < high) {
            const int mid = (low + high + 1) / 2;
            if (kBinomials.c[mid][i] <= rank)
                low = mid;
            else
                high = mid - 1;
        }
        set |= bit(low);
        rank -= kBinomials.c[low][i];
        high = low - 1;
    }
    return set;
}

}  // namespace dtb
