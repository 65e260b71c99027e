// Synthetic tables for tests and benchmarks: no generator exists yet, so
// these mimic what a real table looks like to a compressor. A position index
// is read as one square (0..31, a Russian board) per piece, lowest piece
// fastest, as a simple index scheme would do. The value depends smoothly on
// the squares (long runs, patterns that repeat every 32 and 1024 positions),
// with a little noise, and about a third of the positions are "don't care"
// (two pieces on one square, or diagonal neighbours: a capture). Tune with
// real tables once the generator writes them; these only keep the code honest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace dtb::compress::synthetic {

struct Table {
    std::vector<std::uint16_t> values;    // WDL in 0..2, or DTW in 0..~300
    std::vector<std::uint8_t> dont_care;  // 1 where the value does not matter
};

// A small deterministic generator (splitmix64), so that tests are reproducible.
inline std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// `dtw` false: values 0 (loss), 1 (draw), 2 (win). True: a distance to win in
// plies, 0 for draws, going past 255 now and then so that 2-byte symbols see
// real high bytes.
inline Table make(std::size_t positions, bool dtw, std::uint64_t seed = 1) {
    Table t;
    t.values.resize(positions);
    t.dont_care.resize(positions);
    for (std::size_t i = 0; i < positions; ++i) {
        int sq[4];
        std::size_t rest = i;
        for (int& s : sq) {
            s = static_cast<int>(rest % 32);
            rest /= 32;
        }
        const int row[4] = {sq[0] / 4, sq[1] / 4, sq[2] / 4, sq[3] / 4};
        const int col[4] = {sq[0] % 4, sq[1] % 4, sq[2] % 4, sq[3] % 4};
        bool capture = false;
        for (int a = 0; a < 4; ++a)
            for (int b = a + 1; b < 4; ++b) {
                const int dr = row[a] - row[b], dc = col[a] - col[b];
                if (sq[a] == sq[b] || ((dr == 1 || dr == -1) && (dc == 0 || dc == 1 || dc == -1))) capture = true;
            }
        const std::uint64_t noise = mix(seed * 0x100000001B3ull + i);
        const int score = 3 * row[0] - 2 * row[2] + col[1] - col[3] + static_cast<int>(rest % 7);
        int wdl = score > 6 ? 2 : (score < -2 ? 0 : 1);
        if (noise % 100 == 0) wdl = static_cast<int>((noise >> 8) % 3);  // 1% irregular positions
        t.dont_care[i] = capture ? 1 : 0;
        if (!dtw) {
            t.values[i] = static_cast<std::uint16_t>(wdl);
        } else if (wdl == 1) {
            t.values[i] = 0;
        } else {
            const int dist = 2 * (std::abs(row[0] - row[2]) + std::abs(col[1] - col[3]) + (score & 7)) + (wdl == 0);
            const bool long_win = (noise >> 16) % 500 == 0;
            t.values[i] = static_cast<std::uint16_t>(long_win ? 256 + dist : 1 + dist);
        }
        // Don't-care positions hold garbage, as a generator's scratch array might.
        if (capture) t.values[i] = static_cast<std::uint16_t>((noise >> 24) % (dtw ? 300 : 3));
    }
    return t;
}

}  // namespace dtb::compress::synthetic
