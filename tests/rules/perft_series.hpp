// The published perft series (docs/RULES.md section 5; counts from depth 1 on), shared by
// the quick test (first depths) and the slow one (every depth).
#pragma once

#include <cctype>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "rules/movegen.hpp"

namespace dtb::test {

// Depths with at most this many leaves run in the everyday tests (well
// under a second each in a Release build); deeper ones only in the slow
// tests (scripts/slow-tests.sh).
inline constexpr std::uint64_t quick_perft_limit = 10'000'000;

struct PerftSeries {
    const char* name;
    const char* fen;  // nullptr: the variant's initial position
    Duplicates duplicates;
    int first_depth;  // depth of counts[0]
    std::vector<std::uint64_t> counts;
};

// For gtest: a failing series is shown by its name.
inline void PrintTo(const PerftSeries& s, std::ostream* os) { *os << s.name; }

// gtest test name of a series: its name with '_' for anything not a letter or digit.
struct SeriesName {
    template <class Info>
    std::string operator()(const Info& info) const {
        std::string name = info.param.name;
        for (char& c : name)
            if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
        return name;
    }
};

// The series that have depths above quick_perft_limit.
inline std::vector<PerftSeries> with_deep_depths(const std::vector<PerftSeries>& all) {
    std::vector<PerftSeries> deep;
    for (const PerftSeries& s : all)
        for (std::uint64_t count : s.counts)
            if (count > quick_perft_limit) {
                deep.push_back(s);
                break;
            }
    return deep;
}

inline const std::vector<PerftSeries>& russian_series() {
    static const std::vector<PerftSeries> series = {
        {"initial, keep",
         nullptr,
         Duplicates::Keep,
         1,
         {7, 49, 302, 1469, 7482, 37986, 190146, 929905, 4570667, 22450628, 110961169, 545059387}},
        // Routes with the same start, end and captures first meet at depth 8.
        {"initial, drop",
         nullptr,
         Duplicates::Drop,
         1,
         {7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032, 110917189, 544770444}},
    };
    return series;
}

inline const std::vector<PerftSeries>& international_series() {
    static const std::vector<PerftSeries> series = {
        {"initial, drop",
         nullptr,
         Duplicates::Drop,
         1,
         {9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423, 258895763, 1665861398}},
        {"initial, keep", nullptr, Duplicates::Keep, 8, {6483971, 41022614, 258935682, 1666207133}},
        {"kings and men",
         "B:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46:BK17,K24",
         Duplicates::Drop,
         1,
         {14, 55, 1168, 5432, 87195, 629010, 9041010, 86724219}},
        {"middle game",
         "W:W25,27,28,30,32,33,34,35,37,38:B12,13,14,16,18,19,21,23,24,26",
         Duplicates::Drop,
         1,
         {6, 12, 30, 73, 215, 590, 1944, 6269, 22369, 88050, 377436, 1910989}},
        {"twenty kings a side",
         "W:WK31-50:BK1-20",
         Duplicates::Drop,
         1,
         {17, 79, 352, 1399, 7062, 37589, 217575, 1333217}},
        {"men about to crown",
         "W:W6,7,8,9,10:B41,42,43,44,45",
         Duplicates::Drop,
         1,
         {9, 81, 795, 7578, 86351, 936311, 11448262}},
    };
    return series;
}

// Brazilian: the series of the "standard validation" thread of the
// shashki.com forum, as DCTL's tests give them. The two modes part at
// depth 8, where two routes with the same start, end and captures first
// meet.
inline const std::vector<PerftSeries>& brazilian_series() {
    static const std::vector<PerftSeries> series = {
        {"initial, keep",
         nullptr,
         Duplicates::Keep,
         1,
         {7, 49, 302, 1469, 7473, 37628, 187302, 907836, 4431847, 21566606, 105534946, 512171742, 2483592238}},
        {"initial, drop",
         nullptr,
         Duplicates::Drop,
         1,
         {7, 49, 302, 1469, 7473, 37628, 187302, 907830, 4431766, 21560022, 105491257, 511882477, 2481546396}},
    };
    return series;
}

}  // namespace dtb::test
