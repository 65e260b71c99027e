// An independent brute-force solver of the move-count draw rules
// (docs/RULES.md section 4), for checking the code that answers under them
// (adjudication/judge.hpp, and the rule values of the .dtc tables that
// gen/rule_solver.hpp computes).
//
// It shares nothing with that code but the move generator and the rule table
// (V::draw_rules, plain data): the counts are run here from the text of 4.4
// and 4.6, not through rules/draw_tracker.hpp, and no table is read (the
// tables' values may be passed in, to go faster: Options). It is a memoized
// minimax with distance over the product state (position x every count):
// with the counts the game is finite and acyclic (every ply advances a man,
// converts, or brings a count nearer its end; a side without kings must move
// a man), so plain recursion is exact.
//
// The rules as run here (the same as DrawCounts::resumed(pos, m, k) with
// CountState{m, 2m, 2k}):
//   - A side with no piece or no legal move has lost; a move that leaves the
//     opponent so wins, whatever count it completes.
//   - Lone-king rules (stronger_side_moves): a lone-king ending begins the
//     first time one side is a lone king; its stronger side is fixed then
//     (the side to move if both are lone kings). Each rule starts at 0 the
//     first time its material stands, if its board condition holds then,
//     else it is out for the game; once started it counts the stronger
//     side's moves whatever the material becomes, and ends the game after
//     the move that brings it to its limit.
//   - moves_without_conversion: plies since the last capture or crowning;
//     ends the game when they reach 2 x limit while its material stands
//     (both sides have kings, the piece count in its range).
//   - king_moves: plies since the last man move or capture; ends the game
//     when they reach 2 x limit while both sides have kings.
//   - A count at its limit at the position given: drawn there.
//   - Values: the winner hurries, the loser delays, a draw beats a loss.
//   - Repetitions are left out: they change no value. Between two
//     occurrences of a position nothing was captured and no man moved, so
//     every count is further on at the second: the winner's fastest line
//     (its distance falls by one a ply, and is no shorter with counts
//     further on) never repeats a position, and the loser cannot repeat one
//     alone.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "rules/movegen.hpp"
#include "rules/notation.hpp"
#include "rules/position.hpp"
#include "rules/variant.hpp"
#include "tables/position_index.hpp"

namespace dtb::oracle {

// The counts standing at a position, as a game would have them.
struct CountState {
    // The stronger side's moves made under every lone-king rule that covers
    // the position with its board condition (judged on this position);
    // lone-king rules that do not cover it have not started.
    int lone_moves = 0;
    int conversion_plies = 0;  // plies since the last capture or crowning (2.1.9.1.5)
    int king_plies = 0;        // plies since the last man move or capture (2.1.9.1.8, 3.5's 25 king moves)
};

struct RuleResult {
    int wdl = 0;    // for the side to move under the counts: 1 win, 0 draw, -1 loss
    int plies = 0;  // wdl != 0: plies to the end of the game, best play under the counts; 0 for a draw
    friend bool operator==(const RuleResult&, const RuleResult&) = default;
    friend std::ostream& operator<<(std::ostream& os, const RuleResult& r) {
        return os << (r.wdl > 0 ? "win" : r.wdl < 0 ? "loss" : "draw") << " in " << r.plies << " plies";
    }
};

// The whole state of the counts in a game (docs/RULES.md 4.4), kept plainly.
template <class V>
struct GameCounts {
    static constexpr std::size_t kRules = V::draw_rules.size();
    static constexpr int kUndecided = -2;  // a lone-king rule whose material has not stood on the board yet
    static constexpr int kOut = -1;        // its material stood there without its board condition

    int stronger = -1;  // the stronger side of the lone-king ending (a Color); -1: none has begun
    // Per rule of V::draw_rules (lone-king rules only): kUndecided, kOut, or
    // the stronger side's moves since its material first stood.
    std::array<int, kRules> lone = filled(kUndecided);
    int conversion_plies = 0;
    int king_plies = 0;

    static constexpr std::array<int, kRules> filled(int v) {
        std::array<int, kRules> a{};
        a.fill(v);
        return a;
    }
};

namespace detail {

template <class V>
const DrawRule& rule(std::size_t i) {
    return V::draw_rules[i];
}

template <class V>
bool has_king(const Position<V>& pos, Color c) {
    return pos.kings_of(c) != 0;
}

template <class V>
bool both_have_kings(const Position<V>& pos) {
    return has_king(pos, White) && has_king(pos, Black);
}

// The side to move has lost: no piece, or no legal move (docs/RULES.md 3.1).
template <class V>
bool lost(const Position<V>& pos) {
    return !pos.pieces[pos.side_to_move] || MoveGenerator<V>::count(pos) == 0;
}

// 4.1: a lone king is a side whose only piece is a king; the stronger side
// is the other one, or the side to move when both are lone kings.
template <class V>
std::optional<Color> stronger_against_lone_king(const Position<V>& pos) {
    const auto lone = [&](Color c) { return popcount(pos.pieces[c]) == 1 && has_king(pos, c); };
    const Color us = pos.side_to_move, them = opponent(us);
    if (lone(them)) return us;
    if (lone(us)) return them;
    return std::nullopt;
}

// 4.1: the main road, a1-h8 on the 8x8 board and 46-5 on the 10x10 board:
// the squares with rank = file + 1 (files and ranks counted from 0 and 1).
template <class V>
Bitboard main_road() {
    using Board = typename V::Board;
    Bitboard road = 0;
    for (int file = 0; file < Board::width; ++file) road |= bit(Board::bit_of(*Board::square_at(file, file + 1)));
    return road;
}

// Whether the material of a lone-king rule stands: the other side has
// exactly one piece, a king, and the stronger side's kings, men and pieces
// are in the rule's ranges.
template <class V>
bool lone_material_stands(const DrawRule& r, const Position<V>& pos, Color stronger) {
    const Color lone = opponent(stronger);
    if (popcount(pos.pieces[lone]) != 1 || !has_king(pos, lone)) return false;
    const int kings = popcount(pos.kings_of(stronger)), men = popcount(pos.men(stronger));
    return r.kings.contains(kings) && r.men.contains(men) && r.pieces.contains(kings + men);
}

template <class V>
bool board_condition_holds(const DrawRule& r, const Position<V>& pos, Color stronger) {
    switch (r.board) {
        case BoardCondition::none:
            return true;
        case BoardCondition::stronger_king_on_main_road:
            return (pos.kings_of(stronger) & main_road<V>()) != 0;
        case BoardCondition::lone_king_on_main_road:
            return (pos.kings_of(opponent(stronger)) & main_road<V>()) != 0;
    }
    return false;
}

// Whether a count of each side's moves (moves_without_conversion,
// king_moves) covers the material now.
template <class V>
bool plies_rule_covers(const DrawRule& r, const Position<V>& pos) {
    if (r.both_sides_have_kings && !both_have_kings(pos)) return false;
    return r.count != DrawCount::moves_without_conversion || r.total.contains(pos.piece_count());
}

// 4.4: a lone-king ending begins the first time a lone king stands (its
// stronger side fixed then); each of its rules starts, at 0, the first time
// its material stands, if its board condition holds then, else it is out.
template <class V>
void start_lone_king_rules(const Position<V>& pos, GameCounts<V>& c) {
    if (c.stronger < 0) {
        const std::optional<Color> s = stronger_against_lone_king(pos);
        if (!s) return;
        c.stronger = int(*s);
    }
    const Color s = Color(c.stronger);
    for (std::size_t i = 0; i < GameCounts<V>::kRules; ++i) {
        const DrawRule& r = rule<V>(i);
        if (r.count != DrawCount::stronger_side_moves || c.lone[i] != GameCounts<V>::kUndecided) continue;
        if (lone_material_stands(r, pos, s)) c.lone[i] = board_condition_holds(r, pos, s) ? 0 : GameCounts<V>::kOut;
    }
}

// The counts after `m` (legal in `before`): every count steps (4.4), then
// any lone-king rule whose material now stands starts.
template <class V>
GameCounts<V> after_move(const Position<V>& before, const Move& m, GameCounts<V> c) {
    const bool capture = m.is_capture();
    const bool man_move = (before.kings & bit(m.from)) == 0;
    if (c.stronger == int(before.side_to_move))
        for (std::size_t i = 0; i < GameCounts<V>::kRules; ++i)
            if (rule<V>(i).count == DrawCount::stronger_side_moves && c.lone[i] >= 0) ++c.lone[i];
    c.conversion_plies = capture || m.crowns ? 0 : c.conversion_plies + 1;
    c.king_plies = capture || man_move ? 0 : c.king_plies + 1;
    start_lone_king_rules(before.after(m), c);
    return c;
}

// Whether a count has reached its limit at `pos`: the game is drawn there
// (unless the move that led here won it, which the caller checks first).
template <class V>
bool count_ended(const Position<V>& pos, const GameCounts<V>& c) {
    for (std::size_t i = 0; i < GameCounts<V>::kRules; ++i) {
        const DrawRule& r = rule<V>(i);
        switch (r.count) {
            case DrawCount::stronger_side_moves:
                if (c.lone[i] >= r.limit) return true;
                break;
            case DrawCount::moves_without_conversion:
                if (plies_rule_covers(r, pos) && c.conversion_plies >= 2 * r.limit) return true;
                break;
            case DrawCount::king_moves:
                if (plies_rule_covers(r, pos) && c.king_plies >= 2 * r.limit) return true;
                break;
            case DrawCount::repetitions:
                break;
        }
    }
    return false;
}

// The plies from now after which the rules of `kind` end the game if
// nothing starts them again (the least over those that cover the material
// now); kNever when none does. Lone-king counts end it after the stronger
// side's move that completes the limit.
inline constexpr int kNever = 1 << 20;

template <class V>
int plies_left(DrawCount kind, const Position<V>& pos, const GameCounts<V>& c) {
    int least = kNever;
    for (std::size_t i = 0; i < GameCounts<V>::kRules; ++i) {
        const DrawRule& r = rule<V>(i);
        if (r.count != kind) continue;
        if (kind == DrawCount::stronger_side_moves) {
            if (c.lone[i] < 0) continue;
            const int moves = r.limit - c.lone[i];
            least = std::min(least, c.stronger == int(pos.side_to_move) ? 2 * moves - 1 : 2 * moves);
        } else if (plies_rule_covers(r, pos)) {
            const int used = kind == DrawCount::moves_without_conversion ? c.conversion_plies : c.king_plies;
            least = std::min(least, 2 * r.limit - used);
        }
    }
    return least;
}

}  // namespace detail

// The counts at `pos` in the middle of a game (docs/RULES.md 4.6): the
// lone-king rules that cover `pos` with their board condition have counted
// `s.lone_moves`, the others have not started.
template <class V>
GameCounts<V> resumed_counts(const Position<V>& pos, const CountState& s) {
    GameCounts<V> c;
    detail::start_lone_king_rules(pos, c);
    for (int& n : c.lone)
        if (n >= 0) n = std::clamp(s.lone_moves, 0, 1000);
    c.conversion_plies = std::clamp(s.conversion_plies, 0, 500);
    c.king_plies = std::clamp(s.king_plies, 0, 500);
    return c;
}

// The solver. One per variant may serve any number of questions: what it
// has solved is kept (states(), about 100 bytes each) and shared by the
// later ones.
//
// What it costs (2 cores, Release, with the tables' values as shortcut):
// wins() and wdl() on every position of any table up to 4 pieces under
// fresh counts take seconds (Russian KMMvK: 11 s, 4e6 states). solve(),
// with distances, must look at every line: as quick on international
// tables and on tables without men (Russian KKKvK: 13 s, international
// KKMvK: 6 s), but on Russian tables with men and kings the conversion
// and king-move counts multiply (4e7 states, some 5 GB, for half of
// KKMvK): sample those.
template <class V>
class CountOracle {
public:
    // The value without counts, for the side to move: plies to the end of
    // the game (odd: a win, even: a loss) or -1 for a draw.
    using UnlimitedValue = std::function<int(const Position<V>&)>;

    struct Options {
        // Optional, a speed-up only: the answers are the same without it.
        // Counts only take wins away (a side that wins under the counts wins
        // with the same moves without them), so a position drawn without
        // counts is drawn under them, and a side that does not win without
        // counts does not win under them: the search stops there. Its
        // distances only order the moves tried (wins()).
        UnlimitedValue unlimited;
        // Whether states whose futures are provably alike share one memo
        // entry (equivalent()). A speed-up only, checked against false.
        bool merge_equivalent = true;
    };

    CountOracle() = default;
    explicit CountOracle(Options o) : options_(std::move(o)) {}

    // The value under the counts, with its distance: every move of both
    // sides is searched.
    RuleResult solve(const Position<V>& pos, const CountState& s) { return solve(pos, resumed_counts(pos, s)); }
    RuleResult solve(const Position<V>& pos, const GameCounts<V>& c) {
        if (detail::lost(pos)) return {-1, 0};
        if (detail::count_ended(pos, c)) return {0, 0};
        return decode(value(pos, c, 0));
    }

    // Whether `side` wins under the counts (either side to move): the
    // result alone, found sooner than solve() finds it (a search for one
    // side's win stops at the first winning move, or the first reply that
    // escapes).
    bool wins(const Position<V>& pos, const CountState& s, Color side) {
        return wins(pos, resumed_counts(pos, s), side);
    }
    bool wins(const Position<V>& pos, const GameCounts<V>& c, Color side) {
        if (detail::lost(pos)) return pos.side_to_move != side;
        if (detail::count_ended(pos, c)) return false;
        return search_win(pos, c, side, 0);
    }

    // -1, 0 or 1 for the side to move under the counts, by wins().
    int wdl(const Position<V>& pos, const CountState& s) {
        if (wins(pos, s, pos.side_to_move)) return 1;
        return wins(pos, s, opponent(pos.side_to_move)) ? -1 : 0;
    }

    // The plies to the next move that starts the material's binding count
    // again, with best play under the counts (the winner hurrying to it, the
    // loser delaying it): a capture, a crowning or the move that ends the
    // game, and a man move too where no count without conversion covers the
    // material (the king-move count binds). nullopt where neither side wins
    // under the counts, or the game is over. Every line is searched (no
    // table bounds a distance), so a long count makes many states: past
    // `budget` new ones it gives up, throwing TooCostly.
    struct TooCostly {};
    std::optional<int> plies_to_conversion(const Position<V>& pos, const CountState& s, std::size_t budget) {
        return plies_to_conversion(pos, resumed_counts(pos, s), budget);
    }
    std::optional<int> plies_to_conversion(const Position<V>& pos, const GameCounts<V>& c, std::size_t budget) {
        if (detail::lost(pos) || detail::count_ended(pos, c)) return std::nullopt;
        if (conversions_.size() > 4 * budget) conversions_.clear();  // memory stays bounded
        conversion_states_left_ = budget;
        try {
            for (const Color side : {pos.side_to_move, opponent(pos.side_to_move)})
                if (wins(pos, c, side)) return conversion_distance(pos, c, side, 0);
        } catch (const TooCostly&) {
            conversions_.clear();
            throw;
        }
        return std::nullopt;
    }

    // Memo entries so far: the product states solved (solve(), wins(),
    // plies_to_conversion()).
    std::size_t states() const { return values_.size() + wins_.size() + conversions_.size(); }
    void clear() {
        values_.clear();
        wins_.clear();
        conversions_.clear();
    }

private:
    // Values inside: plies for the side to move (odd: it wins, even: it
    // loses) or kDrawn.
    static constexpr int kDrawn = -1;

    static RuleResult decode(int v) {
        if (v == kDrawn) return {0, 0};
        return {v % 2 == 1 ? 1 : -1, v};
    }

    // The best of the children for the side to move: the fastest win, then
    // a draw, then the longest loss.
    struct Best {
        int fastest_win = -1, longest_loss = -1;
        bool draw = false;
        void add(int child) {  // the child's value, for the opponent
            if (child == kDrawn)
                draw = true;
            else if (child % 2 == 0)
                fastest_win = fastest_win < 0 ? child + 1 : std::min(fastest_win, child + 1);
            else
                longest_loss = std::max(longest_loss, child + 1);
        }
        int value() const { return fastest_win >= 0 ? fastest_win : draw ? kDrawn : longest_loss; }
    };

    struct Key {
        Position<V> pos;
        std::uint64_t counts;
        friend bool operator==(const Key&, const Key&) = default;
    };
    struct KeyHash {
        std::size_t operator()(const Key& k) const {
            std::uint64_t h = PositionHash{}(k.pos) ^ (k.counts * 0x9E3779B97F4A7C15ULL);
            return std::size_t(h ^ (h >> 32));
        }
    };

    // `pos` is not lost and no count has ended at it.
    int value(const Position<V>& pos, const GameCounts<V>& c, int depth) {
        check_depth(pos, depth);
        if (options_.unlimited && options_.unlimited(pos) == kDrawn) return kDrawn;
        const Key key{pos, encode(pos, c, White)};
        if (const auto it = values_.find(key); it != values_.end()) return it->second;
        Best best;
        for (const Move& m : legal_moves(pos)) {
            const Position<V> after = pos.after(m);
            const GameCounts<V> next = detail::after_move(pos, m, c);
            if (detail::lost(after))
                best.add(0);  // this move wins, whatever count it completes
            else if (detail::count_ended(after, next))
                best.add(kDrawn);
            else
                best.add(value(after, next, depth + 1));
        }
        const int v = best.value();
        values_.emplace(key, std::int16_t(v));
        return v;
    }

    // plies_to_conversion where `side` wins at `pos` under the counts `c`:
    // the least over its winning moves, or the most over the other side's
    // moves (every one of them loses). Each move that does not convert
    // leaves the plies of the position after it, one more.
    int conversion_distance(const Position<V>& pos, const GameCounts<V>& c, Color side, int depth) {
        check_depth(pos, depth);
        const Key key{pos, encode(pos, c, side)};
        if (const auto it = conversions_.find(key); it != conversions_.end()) return it->second;
        if (conversion_states_left_ == 0) throw TooCostly{};
        --conversion_states_left_;
        const bool ours = pos.side_to_move == side;
        bool covered = false;  // by a count without conversion: then man moves do not convert
        for (const DrawRule& r : V::draw_rules)
            covered = covered || (r.count == DrawCount::moves_without_conversion && detail::plies_rule_covers(r, pos));
        int best = ours ? std::numeric_limits<int>::max() : -1;
        for (const Move& m : legal_moves(pos)) {
            const Position<V> after = pos.after(m);
            const GameCounts<V> next = detail::after_move(pos, m, c);
            const bool man_move = (pos.kings & bit(m.from)) == 0;
            const bool ends = detail::lost(after);
            const bool converts = ends || m.is_capture() || m.crowns || (man_move && !covered);
            const bool won =
                ends ? ours : !detail::count_ended(after, next) && search_win(after, next, side, depth + 1);
            if (!won) {
                if (!ours) throw std::logic_error("count oracle: a move escapes the win at " + to_fen(pos));
                continue;
            }
            const int d = converts ? 1 : 1 + conversion_distance(after, next, side, depth + 1);
            best = ours ? std::min(best, d) : std::max(best, d);
        }
        conversions_.emplace(key, std::int16_t(best));
        return best;
    }

    // Whether `side` wins without counts at `pos` (true when not known).
    bool may_win(const Position<V>& pos, Color side) const {
        if (!options_.unlimited) return true;
        const int v = options_.unlimited(pos);
        return v != kDrawn && (v % 2 == 1) == (pos.side_to_move == side);
    }

    // `pos` is not lost and no count has ended at it. The side to move
    // needs one move that wins, if it is `side`; otherwise every move must
    // lose.
    bool search_win(const Position<V>& pos, const GameCounts<V>& c, Color side, int depth) {
        check_depth(pos, depth);
        if (!may_win(pos, side)) return false;
        const Key key{pos, encode(pos, c, side)};
        if (const auto it = wins_.find(key); it != wins_.end()) return it->second;
        const bool ours = pos.side_to_move == side;
        bool result = !ours;
        for (const Move& m : likeliest_first(pos, legal_moves(pos))) {
            const Position<V> after = pos.after(m);
            const GameCounts<V> next = detail::after_move(pos, m, c);
            bool won;  // by `side`, after this move
            if (detail::lost(after))
                won = ours;  // the mover wins, whatever count it completes
            else if (detail::count_ended(after, next))
                won = false;
            else
                won = search_win(after, next, side, depth + 1);
            if (won == ours) {
                result = ours;
                break;
            }
        }
        wins_.emplace(key, result);
        return result;
    }

    // The moves in the order most likely to settle a node soon, by the
    // values without counts (the side to move's best first); as generated
    // when they are not known. The order changes no answer.
    std::vector<Move> likeliest_first(const Position<V>& pos, std::vector<Move> moves) const {
        if (!options_.unlimited) return moves;
        std::vector<std::pair<int, Move>> ranked;
        for (const Move& m : moves) {
            const Position<V> after = pos.after(m);
            const int child = detail::lost(after) ? 0 : options_.unlimited(after);
            // For the mover: a loss of the child's side first (the shortest
            // first), then draws, then its wins (the longest first).
            const int rank = child == kDrawn ? 0 : child % 2 == 0 ? -100000 + child : 100000 - child;
            ranked.emplace_back(rank, m);
        }
        std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (std::size_t i = 0; i < moves.size(); ++i) moves[i] = ranked[i].second;
        return moves;
    }

    static void check_depth(const Position<V>& pos, int depth) {
        if (depth > kMaxDepth) throw std::logic_error("count oracle: no count bounds the play from " + to_fen(pos));
    }

    // On the heap, not in the recursion's frames (a MoveList is large).
    static std::vector<Move> legal_moves(const Position<V>& pos) {
        MoveList list;
        MoveGenerator<V>::generate(pos, list);
        return {list.begin(), list.end()};
    }

    // The counts as a memo key, with the side a search for a win is for (5
    // bits per lone-king count, 10 per count of plies: 63 bits for the 8
    // rules of Russian). With merge_equivalent, counts that cannot change
    // the rest of the game are replaced (equivalent()).
    std::uint64_t encode(const Position<V>& pos, const GameCounts<V>& c, Color side) const {
        static_assert(GameCounts<V>::kRules <= 8);
        const GameCounts<V> e = options_.merge_equivalent ? equivalent(pos, c) : c;
        if (e.conversion_plies >= 1024 || e.king_plies >= 1024)
            throw std::logic_error("count oracle: a count of plies outgrew its key at " + to_fen(pos));
        std::uint64_t k = std::uint64_t(side);
        k = k * 3 + std::uint64_t(e.stronger + 1);
        for (int n : e.lone) k = k * 32 + std::uint64_t(n + 2);  // below the limit (16 at most) here
        k = k * 1024 + std::uint64_t(e.conversion_plies);
        k = k * 1024 + std::uint64_t(e.king_plies);
        return k;
    }

    // Counts whose future is the same as c's at `pos`:
    //   - Running lone-king counts all step at the same moves and nothing
    //     starts them again: only the one nearest its end matters. Each is
    //     set to the limit minus the moves that one leaves.
    //   - A count of each side's moves that does not cover the material now
    //     cannot end the game before it starts again (the material stays
    //     until a capture or crowning, which starts both again: a crowning
    //     is a man move): set to 0.
    //   - A count of each side's moves that would end the game no sooner
    //     than a count started again by no more moves than itself is never
    //     the one that ends it (if both end it at one ply, the result is the
    //     same): set to 0 (its end, the limit, is no sooner still). Lone-king
    //     counts are never started again; the conversion count is started
    //     again by captures and crownings, the king-move count by those and
    //     man moves; with no man on the board the two start again together.
    static GameCounts<V> equivalent(const Position<V>& pos, GameCounts<V> c) {
        using detail::plies_left;
        const int lone = plies_left(DrawCount::stronger_side_moves, pos, c);
        const int conversion = plies_left(DrawCount::moves_without_conversion, pos, c);
        const int king = plies_left(DrawCount::king_moves, pos, c);
        const bool no_men = (pos.occupied() & ~pos.kings) == 0;
        int least_moves = 1000;
        for (std::size_t i = 0; i < GameCounts<V>::kRules; ++i)
            if (c.lone[i] >= 0) least_moves = std::min(least_moves, detail::rule<V>(i).limit - c.lone[i]);
        for (std::size_t i = 0; i < GameCounts<V>::kRules; ++i)
            if (c.lone[i] >= 0) c.lone[i] = std::max(0, detail::rule<V>(i).limit - least_moves);
        if (conversion == detail::kNever || lone <= conversion || (no_men && king < conversion)) c.conversion_plies = 0;
        if (king == detail::kNever || lone <= king || conversion <= king) c.king_plies = 0;
        return c;
    }

    static constexpr int kMaxDepth = 4000;

    Options options_;
    std::unordered_map<Key, std::int16_t, KeyHash> values_;
    std::unordered_map<Key, bool, KeyHash> wins_;
    std::unordered_map<Key, std::int16_t, KeyHash> conversions_;
    std::size_t conversion_states_left_ = 0;
};

// Every position of `sig`'s table (White to move, the tables' convention:
// its mirror's table holds the same positions with Black to move), in index
// order.
template <class V, class F>
void for_each_position(const MaterialSignature& sig, F&& f) {
    const PositionIndex<V> index(sig);
    for (std::uint64_t i = 0; i < index.size(); ++i) f(i, index.unrank(i));
}

// Every position of `sig`'s table under the counts `s`: f(index, position,
// value). One oracle for many tables shares what it has solved: a capture
// leads into a smaller table, solved once.
template <class V, class F>
void solve_table(CountOracle<V>& oracle, const MaterialSignature& sig, const CountState& s, F&& f) {
    for_each_position<V>(sig, [&](std::uint64_t i, const Position<V>& pos) { f(i, pos, oracle.solve(pos, s)); });
}

}  // namespace dtb::oracle
