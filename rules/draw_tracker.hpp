// Applying the move-count draw rules of V::draw_rules (rules/draw_rules.hpp)
// to play: which rules cover a position, the counts as moves are made, and
// the move at which a rule ends the game.
//
//   DrawCounts    the counts themselves, a small value: the game replay
//                 (DrawTracker) and the probe's search over the tables
//                 (adjudication/count_search.hpp) both step it move by move.
//   DrawTracker   a game from its start: the counts and every position
//                 seen, for threefold repetition.
//
// No tables are needed: this is counting only.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "rules/movegen.hpp"
#include "rules/position.hpp"
#include "rules/variant.hpp"

namespace dtb {

// The main road ("большая дорога"): the long diagonal from White's lower
// left corner, a1-h8 on the 8x8 board, 46-5 on the 10x10 board. A half
// turn of the board maps it onto itself.
template <class Board>
constexpr Bitboard main_road() {
    Bitboard b = 0;
    for (int file = 0; file < Board::width; ++file) b |= bit(Board::bit_of(*Board::square_at(file, file + 1)));
    return b;
}

// The stronger side of a lone-king ending: the other side has one piece, a
// king, and this side at least one piece. When each side has a lone king
// the side to move is taken (it moves first). nullopt: no lone king.
template <class V>
std::optional<Color> lone_king_opponent(const Position<V>& pos) {
    const auto is_lone_king = [&](Color c) { return popcount(pos.pieces[c]) == 1 && pos.kings_of(c) != 0; };
    const Color us = pos.side_to_move, them = opponent(us);
    if (is_lone_king(them) && pos.pieces[us]) return us;
    if (is_lone_king(us) && pos.pieces[them]) return them;
    return std::nullopt;
}

// Whether the material of `pos` is what `rule` speaks of, `stronger` being
// the stronger side (used by the lone-king rules only). Board conditions
// are apart: board_condition_holds.
template <class V>
bool material_covers(const DrawRule& rule, const Position<V>& pos, std::optional<Color> stronger) {
    const bool both_kings = pos.kings_of(White) && pos.kings_of(Black);
    if (rule.both_sides_have_kings && !both_kings) return false;
    switch (rule.count) {
        case DrawCount::stronger_side_moves: {
            if (!stronger) return false;
            const Color s = *stronger, lone = opponent(s);
            if (popcount(pos.pieces[lone]) != 1 || !pos.kings_of(lone)) return false;
            const int kings = popcount(pos.kings_of(s)), men = popcount(pos.men(s));
            return rule.kings.contains(kings) && rule.men.contains(men) && rule.pieces.contains(kings + men);
        }
        case DrawCount::moves_without_conversion:
            return rule.total.contains(pos.piece_count());
        case DrawCount::king_moves:
        case DrawCount::repetitions:
            return true;
    }
    return false;
}

template <class V>
bool board_condition_holds(const DrawRule& rule, const Position<V>& pos, std::optional<Color> stronger) {
    constexpr Bitboard road = main_road<typename V::Board>();
    switch (rule.board) {
        case BoardCondition::none:
            return true;
        case BoardCondition::stronger_king_on_main_road:
            return stronger && (pos.kings_of(*stronger) & road) != 0;
        case BoardCondition::lone_king_on_main_road:
            return stronger && (pos.kings_of(opponent(*stronger)) & road) != 0;
    }
    return false;
}

// Whether the side to move has lost: no piece or no legal move.
template <class V>
bool game_over(const Position<V>& pos) {
    return !pos.pieces[pos.side_to_move] || MoveGenerator<V>::count(pos) == 0;
}

// The counts of every rule but repetitions (DrawTracker keeps those).
template <class V>
class DrawCounts {
public:
    static constexpr std::size_t kRules = V::draw_rules.size();

    // A lone-king rule's state in one ending.
    static constexpr std::int8_t kUndecided = -2;   // its material has not stood on the board yet
    static constexpr std::int8_t kNotApplied = -1;  // its material stood there without its board condition
                                                    // (or with a board condition false at a resumed count)

    // The counts at the start of a game: nothing counted yet, the lone-king
    // rules that cover `start` starting now.
    explicit DrawCounts(const Position<V>& start) { enter(start); }

    // The counts at `pos` in the middle of a game: the stronger side has
    // made `moves` moves since the material stood on the board (the
    // lone-king rules that cover `pos` with their board condition, and the
    // balance of forces: 2.1.9.1.5, unless given apart), `king_moves` under the king-move
    // rules, `conversion_moves` since the last capture or crowning (-1: as
    // many as `moves`). Both sides are taken to have made that many moves
    // (2N plies).
    static DrawCounts resumed(const Position<V>& pos, int moves, int king_moves, int conversion_moves = -1) {
        if (conversion_moves < 0) conversion_moves = moves;
        // Past any limit every count has ended; keep 2N within an int.
        king_moves = std::clamp(king_moves, 0, 1000);
        conversion_moves = std::clamp(conversion_moves, 0, 1000);
        return resumed_plies(pos, moves, 2 * king_moves, 2 * conversion_moves);
    }

    // The same to the ply: the king-move and conversion counts in plies
    // (odd when one side has made a move more since it started).
    static DrawCounts resumed_plies(const Position<V>& pos, int moves, int king_plies, int conversion_plies) {
        DrawCounts c(pos);
        for (std::size_t i = 0; i < kRules; ++i)
            if (counts_stronger_side(rule(i)) && c.lone_[i] >= 0) c.lone_[i] = clamp8(std::clamp(moves, 0, 1000));
        c.plies_since_conversion_ = std::clamp(conversion_plies, 0, 2000);
        c.plies_of_kings_only_ = std::clamp(king_plies, 0, 2000);
        return c;
    }

    static const DrawRule& rule(std::size_t i) { return V::draw_rules[i]; }

    // Plays `m` (legal in `before`). Returns the rules that end the game
    // with this move, in the table's order (empty: none do, or the move
    // wins the game: a win comes before any count).
    std::vector<std::size_t> play(const Position<V>& before, const Move& m) {
        const Position<V> after = before.after(m);
        const bool capture = m.is_capture();
        const bool man_move = (before.kings & bit(m.from)) == 0;
        const bool conversion = capture || m.crowns;
        ++ply_;
        if (conversion) {
            plies_since_conversion_ = 0;
            conversion_ply_ = ply_;
        } else {
            ++plies_since_conversion_;
        }
        if (capture || man_move) {
            plies_of_kings_only_ = 0;
            kings_only_ply_ = ply_;
        } else {
            ++plies_of_kings_only_;
        }
        if (stronger_ && before.side_to_move == *stronger_)
            for (std::size_t i = 0; i < kRules; ++i)
                if (counts_stronger_side(rule(i)) && lone_[i] >= 0) lone_[i] = clamp8(lone_[i] + 1);
        if (conversion) enter(after);
        std::vector<std::size_t> ended;
        if (game_over(after)) return ended;
        for (std::size_t i = 0; i < kRules; ++i)
            if (reached(i, after)) ended.push_back(i);
        return ended;
    }

    // The rules whose count has already reached its limit at `pos`: for a
    // count resumed at or past its limit, the game ended there.
    std::vector<std::size_t> reached_at(const Position<V>& pos) const {
        std::vector<std::size_t> ended;
        for (std::size_t i = 0; i < kRules; ++i)
            if (reached(i, pos)) ended.push_back(i);
        return ended;
    }

    // The stronger side of the lone-king ending under way, if any.
    std::optional<Color> stronger() const { return stronger_; }

    // Whether rule i counts now at `pos`, and how far: the moves made (of
    // the stronger side, or of each side: plies / 2).
    bool counting(std::size_t i, const Position<V>& pos) const {
        const DrawRule& r = rule(i);
        switch (r.count) {
            case DrawCount::stronger_side_moves:
                return lone_[i] >= 0;
            case DrawCount::moves_without_conversion:
            case DrawCount::king_moves:
                return material_covers(r, pos, stronger_);
            case DrawCount::repetitions:
                return false;
        }
        return false;
    }
    int moves_made(std::size_t i) const {
        switch (rule(i).count) {
            case DrawCount::stronger_side_moves:
                return lone_[i];
            case DrawCount::moves_without_conversion:
                return plies_since_conversion_ / 2;
            case DrawCount::king_moves:
                return plies_of_kings_only_ / 2;
            case DrawCount::repetitions:
                return 0;
        }
        return 0;
    }
    int plies_since_conversion() const { return plies_since_conversion_; }
    int plies_of_kings_only() const { return plies_of_kings_only_; }

    // The ply after which rule i's count started (0: the start position).
    int start_ply(std::size_t i) const {
        switch (rule(i).count) {
            case DrawCount::stronger_side_moves:
                return lone_start_ply_[i];
            case DrawCount::moves_without_conversion:
                return conversion_ply_;
            case DrawCount::king_moves:
                return kings_only_ply_;
            case DrawCount::repetitions:
                return 0;
        }
        return 0;
    }

    // What the future of the game depends on (for a search's memo): the
    // counts, not the plies at which they started.
    struct Key {
        std::array<std::int8_t, kRules> lone;
        std::int8_t stronger;
        std::int16_t plies_since_conversion;
        std::int16_t plies_of_kings_only;
        friend bool operator==(const Key&, const Key&) = default;
    };
    Key key() const {
        return Key{lone_, std::int8_t(stronger_ ? int(*stronger_) : -1), std::int16_t(plies_since_conversion_),
                   std::int16_t(plies_of_kings_only_)};
    }

private:
    static std::int8_t clamp8(int n) { return std::int8_t(n > 100 ? 100 : n); }

    // At the start, or after a capture or crowning: a lone-king ending may
    // begin, and its rules whose material now stands start or are ruled out.
    void enter(const Position<V>& pos) {
        if (!stronger_) {
            stronger_ = lone_king_opponent(pos);
            if (!stronger_) return;
            lone_.fill(kUndecided);
        }
        for (std::size_t i = 0; i < kRules; ++i) {
            if (!counts_stronger_side(rule(i)) || lone_[i] != kUndecided) continue;
            if (!material_covers(rule(i), pos, stronger_)) continue;
            lone_[i] = board_condition_holds(rule(i), pos, stronger_) ? 0 : kNotApplied;
            lone_start_ply_[i] = ply_;
        }
    }

    bool reached(std::size_t i, const Position<V>& pos) const {
        const DrawRule& r = rule(i);
        switch (r.count) {
            case DrawCount::stronger_side_moves:
                return lone_[i] >= r.limit;
            case DrawCount::moves_without_conversion:
                return material_covers(r, pos, stronger_) && plies_since_conversion_ >= 2 * r.limit;
            case DrawCount::king_moves:
                return material_covers(r, pos, stronger_) && plies_of_kings_only_ >= 2 * r.limit;
            case DrawCount::repetitions:
                return false;
        }
        return false;
    }

    std::optional<Color> stronger_;
    std::array<std::int8_t, kRules> lone_ = filled(kUndecided);
    std::array<int, kRules> lone_start_ply_{};
    int plies_since_conversion_ = 0;
    int plies_of_kings_only_ = 0;
    int ply_ = 0;
    int conversion_ply_ = 0;
    int kings_only_ply_ = 0;

    static constexpr std::array<std::int8_t, kRules> filled(std::int8_t v) {
        std::array<std::int8_t, kRules> a{};
        a.fill(v);
        return a;
    }
};

// A draw by rule reached in a game.
struct DrawReached {
    std::size_t rule;               // index in V::draw_rules: the rule that ends the game
    std::vector<std::size_t> also;  // other rules ending it at the same move
    int ply;                        // 1-based: the ply whose completion reached it
    int count_start_ply;            // the count started after this ply (0: the start position)
    int moves_counted;              // the moves its count had reached (occurrences for repetitions)
    std::optional<Color> stronger;  // the stronger side of a lone-king rule
};

// A game from its start: every count, and the positions seen for
// threefold repetition. play() each move in turn; the first draw it reports
// is where the game ends by rule (or, for a repetition, may be claimed).
template <class V>
class DrawTracker {
public:
    explicit DrawTracker(const Position<V>& start) : pos_(start), counts_(start) { seen_[start] = 1; }

    std::optional<DrawReached> play(const Move& m) {
        const Position<V> before = pos_;
        std::vector<std::size_t> ended = counts_.play(before, m);
        pos_ = before.after(m);
        ++ply_;
        // A capture or a man move can never be undone: no earlier position
        // can stand again, so they need not be remembered.
        if (m.is_capture() || (before.kings & bit(m.from)) == 0) seen_.clear();
        const int occurrences = ++seen_[pos_];
        if (!game_over(pos_))
            for (std::size_t i = 0; i < DrawCounts<V>::kRules; ++i) {
                const DrawRule& r = DrawCounts<V>::rule(i);
                if (r.count == DrawCount::repetitions && occurrences >= r.limit) ended.push_back(i);
            }
        if (ended.empty()) return std::nullopt;
        std::sort(ended.begin(), ended.end());
        DrawReached d;
        d.rule = ended.front();
        d.also.assign(ended.begin() + 1, ended.end());
        d.ply = ply_;
        const DrawRule& r = DrawCounts<V>::rule(d.rule);
        d.count_start_ply = counts_.start_ply(d.rule);
        d.moves_counted = r.count == DrawCount::repetitions ? occurrences : counts_.moves_made(d.rule);
        if (counts_stronger_side(r)) d.stronger = counts_.stronger();
        return d;
    }

    const Position<V>& position() const { return pos_; }
    const DrawCounts<V>& counts() const { return counts_; }
    int ply() const { return ply_; }

private:
    Position<V> pos_;
    DrawCounts<V> counts_;
    std::unordered_map<Position<V>, int, PositionHash> seen_;
    int ply_ = 0;
};

}  // namespace dtb
