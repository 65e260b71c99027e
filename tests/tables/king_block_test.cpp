// King blocks (tables/king_block.hpp): the index against the enumeration
// and its inverse, solve_king_layers against the layered recursion it
// replaces, worked out layer by layer from the last, on made-up values, and
// the cache of solved blocks.
#include "tables/king_block.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "rules/notation.hpp"

namespace dtb {
namespace {

template <class V>
void index_is_the_enumeration(const char* fen) {
    const Position<V> start = parse_fen<V>(fen);
    const KingBlock<V> block(start);
    std::size_t count = 0;
    bool found_start = false;
    block.for_each([&](std::size_t i, const Position<V>& p) {
        ASSERT_EQ(i, count) << to_fen(p);
        ASSERT_EQ(block.index(p), i) << to_fen(p);
        ASSERT_EQ(block.position(i), p) << i;
        ASSERT_TRUE(block.contains(p)) << to_fen(p);
        found_start = found_start || p == start;
        ++count;
    });
    EXPECT_EQ(count, block.size());
    EXPECT_TRUE(found_start);
    // A man moved, or a king fewer: another block.
    Position<V> other = start;
    other.kings &= other.kings - 1;
    EXPECT_FALSE(block.contains(other));
}

TEST(KingBlock, RussianIndexIsTheEnumeration) {
    index_is_the_enumeration<Russian>("W:WKd8,Kf8,Kb6,a1:BKh8,Kh4");
    index_is_the_enumeration<Russian>("B:WKc1,c3,e3:BKh8");
}
TEST(KingBlock, InternationalIndexIsTheEnumeration) { index_is_the_enumeration<International>("W:WK6,35:BK49,K50"); }

std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 31;
    x *= 0x9E3779B97F4A7C15ULL;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ULL;
    return x ^ (x >> 32);
}
template <class V>
std::uint64_t hash_of(const Position<V>& p) {
    return mix(p.pieces[White] * 3 + p.pieces[Black] * 5 + p.kings * 7 + std::uint64_t(p.side_to_move));
}

// Made-up values: the side to move wins, loses or draws by the position's
// hash (loses where it has no move, as solve_king_layers has it), and a move
// leaving the block gets its side a value up to a layer by the hash of the
// two.
template <class V>
int role_of(const Position<V>& p) {
    if (MoveGenerator<V>::count(p) == 0) return -1;
    const std::uint64_t h = hash_of(p) % 5;
    return h >= 3 ? 1 : (h == 0 ? 0 : -1);
}
template <class V>
ExitValue exit_of(const Position<V>& p, const Move& m, int cap) {
    const std::uint64_t h = mix(hash_of(p) ^ (std::uint64_t(m.from) << 8 | std::uint64_t(m.to)));
    const int wdl = int(h % 3) - 1;
    const int last = h % 7 == 0 ? kEveryLayer : int((h >> 8) % std::uint64_t(cap + 3)) - 1;
    return {wdl, last};
}

// The recursion by layers: holds(p, b) from the last layer down.
template <class V>
std::vector<std::int8_t> by_layers(const KingBlock<V>& block, int cap) {
    const std::size_t n = block.size();
    std::vector<std::int8_t> last(n, -1);
    std::vector<char> above(n, 0), here(n, 0);  // holds at layer b + 1, at b
    for (int b = cap; b >= 0; --b) {
        block.for_each([&](std::size_t i, const Position<V>& p) {
            const int role = role_of(p);
            here[i] = 0;
            if (role == 0) return;
            MoveList moves;
            MoveGenerator<V>::generate(p, moves);
            if (moves.size() == 0 || moves[0].is_capture()) {
                here[i] = 1;
                return;
            }
            bool any = false, all = true;
            for (const Move& m : moves) {
                bool holds;
                if (p.kings & bit(m.from)) {
                    const Position<V> q = p.after(m);
                    holds = b < cap && role_of(q) == -role && above[block.index(q)];
                    if (MoveGenerator<V>::count(q) == 0) holds = role > 0;  // the game ends: a win
                } else {
                    const ExitValue e = exit_of(p, m, cap);
                    holds = e.wdl == role && b <= e.last;
                }
                any = any || holds;
                all = all && holds;
            }
            here[i] = role > 0 ? any : all;
        });
        for (std::size_t i = 0; i < n; ++i)
            if (here[i] && last[i] < 0) last[i] = std::int8_t(b);
        above = here;
    }
    return last;
}

template <class V>
void layers_are_the_recursion(const char* fen, int cap) {
    const KingBlock<V> block(parse_fen<V>(fen));
    const std::vector<std::int8_t> want = by_layers(block, cap);
    const std::vector<std::int8_t> got = solve_king_layers(
        block, cap, [](const Position<V>& p, const MoveList&) { return role_of(p); },
        [&](const Position<V>& p, const Move& m) { return exit_of(p, m, cap); });
    ASSERT_EQ(got.size(), want.size());
    std::size_t held = 0, partly = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(int(got[i]), int(want[i])) << to_fen(block.position(i));
        held += want[i] >= 0;
        partly += want[i] >= 0 && want[i] < cap;
    }
    // Values held at some layers and not at others, not only all or none.
    EXPECT_GT(partly, want.size() / 50);
    EXPECT_GT(held, want.size() / 5);
}

TEST(KingBlock, RussianLayersAreTheRecursion) {
    layers_are_the_recursion<Russian>("W:WKd8,Kb6,c3,e3:BKh8", 9);
    layers_are_the_recursion<Russian>("W:WKd8,Kf8,a1:BKh8,f6", 29);
}
TEST(KingBlock, InternationalLayersAreTheRecursion) { layers_are_the_recursion<International>("W:WK6,35:BK49,K50", 6); }

// The blocks kept between questions: found by their whole key, the least
// recently used going first past the capacity, the newest kept even alone
// over it; from many threads at once, every answer the one kept.
TEST(SolvedKingBlocks, KeepsTheMostRecentlyUsedWithinItsCapacity) {
    SolvedKingBlocks kept(250);
    const auto layers = [](std::size_t n, int v) {
        return std::make_shared<const std::vector<std::int8_t>>(n, std::int8_t(v));
    };
    const SolvedKingBlocks::Key a{int(VariantId::Russian), {1, 2}, {1, 1}, 0};
    SolvedKingBlocks::Key b = a, c = a, d = a;
    b.lead = 3;
    c.men[1] = 4;
    d.variant = int(VariantId::International);
    kept.keep(a, layers(100, 1));
    kept.keep(b, layers(100, 2));
    ASSERT_NE(kept.find(a), nullptr);  // a is now the most recently used
    EXPECT_EQ(kept.find(d), nullptr);
    kept.keep(c, layers(100, 3));  // 300 bytes: b, the least recently used, goes
    EXPECT_EQ(kept.find(b), nullptr);
    ASSERT_NE(kept.find(a), nullptr);
    EXPECT_EQ((*kept.find(a))[0], 1);
    EXPECT_EQ((*kept.find(c))[99], 3);
    kept.keep(d, layers(1000, 4));  // over the capacity alone: kept, the rest go
    EXPECT_EQ(kept.find(a), nullptr);
    EXPECT_EQ(kept.find(c), nullptr);
    ASSERT_NE(kept.find(d), nullptr);

    SolvedKingBlocks shared(std::size_t{1} << 20);
    std::vector<std::thread> threads;
    std::atomic<int> wrong{0};
    for (int t = 0; t < 8; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 2000; ++i) {
                SolvedKingBlocks::Key k = a;
                k.lead = (i + t) % 16;
                if (const auto found = shared.find(k)) {
                    if ((*found)[0] != k.lead) ++wrong;
                } else {
                    shared.keep(k, layers(64, k.lead));
                }
            }
        });
    for (std::thread& t : threads) t.join();
    EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace dtb
