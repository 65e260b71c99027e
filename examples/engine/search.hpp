// Alpha-beta with iterative deepening, a transposition table, move
// ordering (the table's move, the largest captures, killers, history) and
// a material-and-advancement evaluation. Inside the search, positions whose
// material is in the tables get their WDL value; at the root, a position in
// the tables is played by the values under the move-count rules where the
// .dtc tables are there (so that no count runs out on a win), else by DTW.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "movegen.hpp"
#include "tables.hpp"

namespace engine {

constexpr int kMate = 30000;   // mate in n plies: kMate - n
constexpr int kTbWin = 20000;  // a win the tables report n plies from the root: kTbWin - n
constexpr int kMaxPly = 128;

struct Limits {
    std::uint64_t nodes = 0;  // 0: no limit
    int depth = 0;            // 0: no limit (kMaxPly)
    int movetime_ms = 0;      // 0: no limit; the only limit that depends on the machine
};

struct SearchResult {
    Move best{};
    bool has_move = false;  // false: the side to move has no legal move
    int score = 0;          // for the side to move
    int depth = 0;          // the last completed iteration
    std::uint64_t nodes = 0;
    ProbeStats probes;
    bool from_tables = false;  // the move is the tables' DTW best move
    dtb_value table_value{0, -1};
    bool by_rules = false;  // ... or their best move under the move-count rules (the .dtc tables)
    int rule_wdl = 0;       // then its value under them for the side to move
    double seconds = 0;
};

class Engine {
public:
    // tables may be null: a search without them.
    Engine(int variant, Tables* tables, std::size_t hash_bytes);

    // `history`: the hashes of the game's earlier positions, for repetitions;
    // `counts`: the move-count rules' counts of the game, which the tables'
    // move under the rules needs (null: the position alone, counts fresh).
    SearchResult think(const Position& pos, const Limits& limits, const std::vector<std::uint64_t>& history = {},
                       const RuleCounts* counts = nullptr);

    std::uint64_t hash(const Position& pos) const;
    void clear();  // forget the transposition table, killers and history

private:
    struct Entry {
        std::uint64_t key;
        Move move;
        std::int16_t score;
        std::int8_t depth;
        std::uint8_t bound;
    };

    int search(const Position& pos, int depth, int alpha, int beta, int ply);
    int evaluate(const Position& pos) const;
    void order(MoveList& moves, const Move* tt_move, int ply, int scores[]) const;
    bool out_of_time();
    bool table_move(const Position& pos, const RuleCounts& counts, SearchResult& result);

    const Geometry& g_;
    Tables* tables_;
    std::vector<Entry> tt_;
    std::uint64_t zobrist_[4][64];
    std::uint64_t zobrist_side_;
    Move killers_[kMaxPly][2];
    int history_[64][64];
    std::vector<std::uint64_t> path_;  // game history, then the search path
    Limits limits_;
    std::chrono::steady_clock::time_point start_;
    std::uint64_t nodes_ = 0;
    ProbeStats stats_;
    bool stopped_ = false;
};

}  // namespace engine
