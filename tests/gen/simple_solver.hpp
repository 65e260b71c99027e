// A deliberately simple reference solver, for checking the fast one. It
// shares nothing with gen/ but the move generator: its own naive position
// encoding (one base-N digit per piece, no colour flip, both sides to move
// stored), no retro moves, no exits bookkeeping. It iterates forward, level
// by level: at level k a position is decided with value k when
//   k odd:  one of its moves reaches a position decided lost at k-1;
//   k even: all its moves reach positions decided won, the longest at k-1.
// Smaller material is solved first, so a capture or crowning reaches a
// position whose value is already final.
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <vector>

#include "rules/movegen.hpp"

namespace dtb::reference {

inline constexpr std::int16_t kDraw = -1;
inline constexpr std::int16_t kUndecided = -2;
inline constexpr std::int16_t kNotAPosition = -3;

template <class V>
class SimpleSolver {
public:
    using Board = typename V::Board;
    using Material = std::array<int, 4>;  // white men, white kings, black men, black kings

    explicit SimpleSolver(int max_pieces) : max_pieces_(max_pieces) {
        std::vector<Material> materials;
        for (int n = 2; n <= max_pieces; ++n)
            for (int wm = 0; wm <= n; ++wm)
                for (int wk = 0; wm + wk <= n; ++wk)
                    for (int bm = 0; wm + wk + bm <= n; ++bm) {
                        const int bk = n - wm - wk - bm;
                        if (wm + wk > 0 && bm + bk > 0) materials.push_back({wm, wk, bm, bk});
                    }
        // Fewer pieces first, then fewer men: captures and crownings lead
        // only to materials solved before.
        std::stable_sort(materials.begin(), materials.end(), [](const Material& a, const Material& b) {
            const int na = a[0] + a[1] + a[2] + a[3], nb = b[0] + b[1] + b[2] + b[3];
            return na != nb ? na < nb : a[0] + a[2] < b[0] + b[2];
        });
        for (const Material& m : materials) solve(m);
    }

    // Distance in plies for the side to move (even: loss, odd: win) or kDraw.
    int value(const Position<V>& pos) const {
        if (!pos.pieces[pos.side_to_move]) return 0;
        const Material m = material_of(pos);
        const auto it = tables_.find(m);
        if (it == tables_.end()) throw std::logic_error("reference solver: material not solved");
        return it->second[slot(pos)];
    }

    // Calls f(position) for every position solved (both sides to move).
    template <class F>
    void for_each_position(F&& f) const {
        for (const auto& [m, table] : tables_)
            for (std::size_t s = 0; s < table.size(); ++s)
                if (table[s] != kNotAPosition) f(decode(m, s));
    }

private:
    static Material material_of(const Position<V>& pos) {
        return {popcount(pos.men(White)), popcount(pos.kings_of(White)), popcount(pos.men(Black)),
                popcount(pos.kings_of(Black))};
    }

    static std::size_t slots(const Material& m) {
        std::size_t n = 2;
        for (int i = 0; i < m[0] + m[1] + m[2] + m[3]; ++i) n *= Board::squares;
        return n;
    }

    // Digits: the squares of white men, white kings, black men, black kings,
    // each group in increasing order; the side to move on top.
    static std::size_t slot(const Position<V>& pos) {
        std::size_t s = 0;
        for (Bitboard group : {pos.men(White), pos.kings_of(White), pos.men(Black), pos.kings_of(Black)})
            for (int b : bits_of{group}) s = s * Board::squares + std::size_t(Board::square_of(BitIndex{b}).index);
        std::size_t n = 1;
        for (int i = 0; i < pos.piece_count(); ++i) n *= Board::squares;
        return s + (pos.side_to_move == Black ? n : 0);
    }

    // The position of a slot, or a position with fewer pieces if the slot
    // names no legal placement (caught by the caller comparing slots).
    static Position<V> decode(const Material& m, std::size_t s) {
        const int n = m[0] + m[1] + m[2] + m[3];
        std::size_t per_side = 1;
        for (int i = 0; i < n; ++i) per_side *= Board::squares;
        Position<V> pos;
        pos.side_to_move = s >= per_side ? Black : White;
        s %= per_side;
        std::vector<int> squares(n);
        for (int i = n - 1; i >= 0; --i) {
            squares[i] = int(s % Board::squares);
            s /= Board::squares;
        }
        int i = 0;
        const std::pair<Color, Piece> kinds[4] = {
            {White, Piece::Man}, {White, Piece::King}, {Black, Piece::Man}, {Black, Piece::King}};
        for (int k = 0; k < 4; ++k)
            for (int j = 0; j < m[k]; ++j, ++i)
                pos.put(kinds[k].first, kinds[k].second, Board::bit_of(Square{squares[i]}));
        return pos;
    }

    static bool is_legal_placement(const Position<V>& pos, const Material& m) {
        return material_of(pos) == m && !(pos.pieces[White] & pos.pieces[Black]) &&
               !(pos.men(White) & Board::promotion_row(White)) && !(pos.men(Black) & Board::promotion_row(Black));
    }

    void solve(const Material& m) {
        const std::size_t n = slots(m);
        std::vector<std::int16_t> table(n, kNotAPosition);
        // Every legal placement, with its moves: into this material (by
        // slot) or out of it (with the final value of where it lands).
        std::vector<std::size_t> positions;
        for (std::size_t s = 0; s < n; ++s) {
            const Position<V> pos = decode(m, s);
            if (is_legal_placement(pos, m) && slot(pos) == s) {
                table[s] = kUndecided;
                positions.push_back(s);
            }
        }
        std::vector<std::vector<std::size_t>> inside(positions.size());
        std::vector<std::vector<int>> outside(positions.size());
#pragma omp parallel for schedule(dynamic, 1024)
        for (std::size_t p = 0; p < positions.size(); ++p) {
            const Position<V> pos = decode(m, positions[p]);
            MoveList moves;
            MoveGenerator<V>::generate(pos, moves);
            for (const Move& mv : moves) {
                const Position<V> child = pos.after(mv);
                if (material_of(child) == m)
                    inside[p].push_back(slot(child));
                else
                    outside[p].push_back(value(child));
            }
        }
        int top = 0;  // the largest value seen, so the levels know when to stop
        for (const auto& o : outside)
            for (int v : o) top = std::max(top, v + 1);
        for (int k = 0; k <= top + 2; ++k) {
            std::vector<std::int16_t> next = table;
            bool decided_any = false;
#pragma omp parallel for schedule(dynamic, 1024) reduction(|| : decided_any)
            for (std::size_t p = 0; p < positions.size(); ++p) {
                if (table[positions[p]] != kUndecided) continue;
                bool some_loss_at_k_minus_1 = false, all_won = true;
                int longest = -1;
                auto consider = [&](int v) {
                    if (v == k - 1 && v % 2 == 0) some_loss_at_k_minus_1 = true;
                    if (v < 0 || v % 2 == 0) all_won = false;
                    longest = std::max(longest, v);
                };
                for (std::size_t c : inside[p]) consider(table[c]);
                for (int v : outside[p]) consider(v);
                const bool decided = k % 2 == 1 ? some_loss_at_k_minus_1 : (all_won && longest + 1 == k);
                if (decided) {
                    next[positions[p]] = std::int16_t(k);
                    decided_any = true;
                }
            }
            if (decided_any) top = std::max(top, k);
            table.swap(next);
        }
        for (std::size_t s : positions)
            if (table[s] == kUndecided) table[s] = kDraw;
        tables_[m] = std::move(table);
    }

    int max_pieces_;
    std::map<Material, std::vector<std::int16_t>> tables_;
};

}  // namespace dtb::reference
