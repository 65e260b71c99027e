#include "search.hpp"

#include <algorithm>

namespace engine {
namespace {

constexpr int kInfinity = 32000;
enum Bound : std::uint8_t { Upper = 0, Lower = 1, Exact = 2 };

std::uint64_t splitmix(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// Mate and table scores are stored relative to the node, not the root.
int to_tt(int score, int ply) {
    if (score >= kTbWin - kMaxPly) return score + ply;
    if (score <= -(kTbWin - kMaxPly)) return score - ply;
    return score;
}
int from_tt(int score, int ply) {
    if (score >= kTbWin - kMaxPly) return score - ply;
    if (score <= -(kTbWin - kMaxPly)) return score + ply;
    return score;
}

}  // namespace

Engine::Engine(int variant, Tables* tables, std::size_t hash_bytes) : g_(Geometry::of(variant)), tables_(tables) {
    std::size_t entries = 1024;
    while (entries * 2 * sizeof(Entry) <= hash_bytes) entries *= 2;
    tt_.resize(entries);
    std::uint64_t seed = 20240101;
    for (auto& piece : zobrist_)
        for (auto& key : piece) key = splitmix(seed);
    zobrist_side_ = splitmix(seed);
    clear();
}

void Engine::clear() {
    std::fill(tt_.begin(), tt_.end(), Entry{});
    for (auto& k : killers_) k[0] = k[1] = Move{};
    for (auto& row : history_) std::fill(std::begin(row), std::end(row), 0);
}

std::uint64_t Engine::hash(const Position& pos) const {
    std::uint64_t key = pos.side == Black ? zobrist_side_ : 0;
    for (int s = 0; s < 2; ++s)
        for (Bitboard b = pos.pieces[s]; b; b &= b - 1) {
            const int sq = lowest(b);
            key ^= zobrist_[2 * s + ((pos.kings & bit(sq)) ? 1 : 0)][sq];
        }
    return key;
}

// Material, and men's advancement towards the crowning row.
int Engine::evaluate(const Position& pos) const {
    // A flying king is worth more on the larger board.
    const int king_value = g_.size >= 10 ? 300 : 250;
    int score[2] = {0, 0};
    for (int s = 0; s < 2; ++s) {
        const Bitboard men = pos.pieces[s] & ~pos.kings;
        score[s] += 100 * count(men) + king_value * count(pos.pieces[s] & pos.kings);
        for (Bitboard b = men; b; b &= b - 1) {
            const int row = g_.row(lowest(b));
            score[s] += 3 * (s == White ? g_.size - 1 - row : row);
        }
    }
    return score[pos.side] - score[pos.side ^ 1];
}

void Engine::order(MoveList& moves, const Move* tt_move, int ply, int scores[]) const {
    for (std::size_t i = 0; i < moves.size; ++i) {
        const Move& m = moves[i];
        if (tt_move && m == *tt_move)
            scores[i] = 1 << 30;
        else if (m.is_capture())
            scores[i] = (1 << 20) + 1000 * count(m.captured) + (m.crowns ? 500 : 0);
        else if (m == killers_[ply][0] || m == killers_[ply][1])
            scores[i] = 1 << 19;
        else
            scores[i] = std::min(history_[m.from][m.to], (1 << 18) - 1) + (m.crowns ? 1 << 18 : 0);
    }
}

// Moves the best-scored remaining move to index i.
static void pick(MoveList& moves, int scores[], std::size_t i) {
    std::size_t best = i;
    for (std::size_t j = i + 1; j < moves.size; ++j)
        if (scores[j] > scores[best]) best = j;
    std::swap(moves.moves[i], moves.moves[best]);
    std::swap(scores[i], scores[best]);
}

bool Engine::out_of_time() {
    if (limits_.nodes && nodes_ >= limits_.nodes) return true;
    if (limits_.movetime_ms && (nodes_ & 1023) == 0) {
        const auto elapsed = std::chrono::steady_clock::now() - start_;
        return elapsed >= std::chrono::milliseconds(limits_.movetime_ms);
    }
    return false;
}

int Engine::search(const Position& pos, int depth, int alpha, int beta, int ply) {
    ++nodes_;
    if (stopped_ || (stopped_ = out_of_time())) return 0;
    const std::uint64_t key = hash(pos);
    // A position seen before with the same side to move: a draw by repetition.
    for (std::size_t i = path_.size() >= 2 ? path_.size() - 2 : path_.size(); i < path_.size(); i -= 2)
        if (path_[i] == key) return 0;

    int wdl;
    if (tables_ && tables_->covers(pos, g_.variant) && tables_->probe_wdl(pos, g_.variant, wdl, stats_))
        return wdl == DTB_WIN ? kTbWin - ply : wdl == DTB_LOSS ? -(kTbWin - ply) : 0;

    MoveList moves;
    generate_moves(g_, pos, moves);
    if (moves.size == 0) return -(kMate - ply);
    if (ply >= kMaxPly - 1) return evaluate(pos);
    const bool captures = moves[0].is_capture();
    if (depth <= 0 && !captures) return evaluate(pos);  // captures are forced: no standing pat

    Entry& entry = tt_[key & (tt_.size() - 1)];
    const Move* tt_move = nullptr;
    if (entry.key == key) {
        tt_move = &entry.move;
        const int score = from_tt(entry.score, ply);
        if (entry.depth >= depth && (entry.bound == Exact || (entry.bound == Lower && score >= beta) ||
                                     (entry.bound == Upper && score <= alpha)))
            return score;
    }
    int scores[MoveList::capacity];
    order(moves, tt_move, ply, scores);

    const int alpha_in = alpha;
    int best = -kInfinity;
    Move best_move = moves[0];
    path_.push_back(key);
    for (std::size_t i = 0; i < moves.size; ++i) {
        pick(moves, scores, i);
        const Move& m = moves[i];
        // A forced move costs no depth; captures go on below depth 0.
        const int next = moves.size == 1 ? depth : std::max(depth - 1, 0);
        const int score = -search(after(pos, m), next, -beta, -alpha, ply + 1);
        if (stopped_) break;
        if (score > best) {
            best = score;
            best_move = m;
            alpha = std::max(alpha, score);
            if (alpha >= beta) {
                if (!m.is_capture()) {
                    if (!(killers_[ply][0] == m)) killers_[ply][1] = killers_[ply][0];
                    killers_[ply][0] = m;
                    history_[m.from][m.to] += depth * depth;
                }
                break;
            }
        }
    }
    path_.pop_back();
    if (stopped_) return 0;
    const std::uint8_t bound = best >= beta ? Lower : best > alpha_in ? Exact : Upper;
    entry = Entry{key, best_move, static_cast<std::int16_t>(to_tt(best, ply)), static_cast<std::int8_t>(depth), bound};
    return best;
}

// The position is in the tables: play the move that realises its value
// under the move-count rules with the game's counts, where the .dtc tables
// give one (the fastest win by DTW may make more king moves in a row than a
// count allows); else the move that realises its DTW value.
bool Engine::table_move(const Position& pos, const RuleCounts& counts, SearchResult& result) {
    dtb_move m;
    dtb_value v;
    if (!tables_->best_move(pos, g_.variant, m, v)) return false;
    int rule_wdl = 0;
    result.by_rules = tables_->rule_move(pos, g_.variant, counts, m, rule_wdl);
    result.rule_wdl = rule_wdl;
    Move ours{0, static_cast<std::uint8_t>(m.from - 1), static_cast<std::uint8_t>(m.to - 1), m.crowns != 0};
    for (int i = 0; i < m.n_captured; ++i) ours.captured |= bit(m.captured[i] - 1);
    MoveList moves;
    generate_moves(g_, pos, moves);
    if (std::find(moves.begin(), moves.end(), ours) == moves.end()) return false;  // cannot happen if both agree
    result.best = ours;
    result.has_move = true;
    result.from_tables = true;
    result.table_value = v;
    result.score = v.wdl == DTB_WIN ? kTbWin - v.dtw : v.wdl == DTB_LOSS ? -(kTbWin - v.dtw) : 0;
    return true;
}

SearchResult Engine::think(const Position& pos, const Limits& limits, const std::vector<std::uint64_t>& history,
                           const RuleCounts* counts) {
    const auto started = std::chrono::steady_clock::now();
    limits_ = limits;
    start_ = started;
    nodes_ = 0;
    stats_ = {};
    stopped_ = false;
    path_ = history;
    // Older searches' history counts less (and never overflows).
    for (auto& row : history_)
        for (int& h : row) h /= 8;
    SearchResult result;
    auto finish = [&] {
        result.nodes = nodes_;
        result.probes = stats_;
        result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        return result;
    };

    MoveList moves;
    generate_moves(g_, pos, moves);
    if (moves.size == 0) {
        result.score = -kMate;
        return finish();
    }
    if (tables_ && tables_->covers(pos, g_.variant) && table_move(pos, counts ? *counts : RuleCounts{}, result))
        return finish();
    result.best = moves[0];
    result.has_move = true;
    if (moves.size == 1) return finish();

    const std::uint64_t key = hash(pos);
    const int max_depth = limits.depth > 0 ? std::min(limits.depth, kMaxPly - 2) : kMaxPly - 2;
    for (int depth = 1; depth <= max_depth; ++depth) {
        int scores[MoveList::capacity];
        order(moves, &result.best, 0, scores);
        int alpha = -kInfinity;
        Move iteration_best = result.best;
        path_.push_back(key);
        for (std::size_t i = 0; i < moves.size; ++i) {
            pick(moves, scores, i);
            const int score = -search(after(pos, moves[i]), depth - 1, -kInfinity, -alpha, 1);
            if (stopped_) break;
            if (score > alpha) {
                alpha = score;
                iteration_best = moves[i];
            }
        }
        path_.pop_back();
        if (stopped_) break;  // keep the last completed iteration's move
        result.best = iteration_best;
        result.score = alpha;
        result.depth = depth;
        if (alpha >= kMate - depth || alpha <= -(kMate - depth)) break;  // the game's end is within reach
    }
    return finish();
}

}  // namespace engine
