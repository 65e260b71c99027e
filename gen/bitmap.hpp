// One bit per position, safe to set from many threads at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "rules/bitboard.hpp"

#if defined(__AVX512BW__) || defined(__AVX2__)
#include <immintrin.h>
#endif

namespace dtb {

class Bitmap {
public:
    explicit Bitmap(std::uint64_t bits = 0) : words_((bits + 63) / 64, 0) {}

    std::uint64_t word_count() const { return words_.size(); }
    std::uint64_t& word(std::uint64_t w) { return words_[w]; }
    std::uint64_t word(std::uint64_t w) const { return words_[w]; }

    bool test(std::uint64_t i) const {
        return (std::atomic_ref<const std::uint64_t>(words_[i / 64]).load(std::memory_order_relaxed) >> (i % 64)) & 1;
    }
    void set(std::uint64_t i) {
        std::atomic_ref<std::uint64_t>(words_[i / 64]).fetch_or(bit(int(i % 64)), std::memory_order_relaxed);
    }
    void set_word_bits(std::uint64_t w, std::uint64_t bits) {
        std::atomic_ref<std::uint64_t>(words_[w]).fetch_or(bits, std::memory_order_relaxed);
    }
    void clear() { std::fill(words_.begin(), words_.end(), 0); }
    std::span<const std::uint64_t> words() const { return words_; }

private:
    std::vector<std::uint64_t> words_;
};

// Bit j set where values[j] == v, for the `count` (<= 64) values given.
template <class T>
std::uint64_t match_mask(const T* values, int count, T v) {
#if defined(__AVX512BW__)
    if constexpr (sizeof(T) == 1) {
        if (count == 64) return _mm512_cmpeq_epi8_mask(_mm512_loadu_si512(values), _mm512_set1_epi8(char(v)));
    }
#elif defined(__AVX2__)
    // Without AVX-512 (most AMD processors before Zen 4): two 32-byte
    // compares; the scalar loop below is not vectorised by the compiler.
    if constexpr (sizeof(T) == 1) {
        if (count == 64) {
            const __m256i want = _mm256_set1_epi8(char(v));
            const auto half = [&](int at) {
                const __m256i got = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + at));
                return std::uint64_t(std::uint32_t(_mm256_movemask_epi8(_mm256_cmpeq_epi8(got, want))));
            };
            return half(0) | half(32) << 32;
        }
    }
#endif
    std::uint64_t mask = 0;
    for (int j = 0; j < count; ++j) mask |= std::uint64_t(values[j] == v) << j;
    return mask;
}

}  // namespace dtb
