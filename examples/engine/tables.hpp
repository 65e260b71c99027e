// Everything the engine asks of dtb, in one place: open the tables, probe
// WDL inside the search, and take the DTW best move at the root.
#pragma once

#include <dtb/probe.h>

#include <cstdint>
#include <string>
#include <vector>

#include "board.hpp"

namespace engine {

// The move-count rules' counts of a game as the engine keeps them (game.cpp)
// and dtb_rule_root takes them.
struct RuleCounts {
    int lone_moves = 0;        // the stronger side's moves since one side became a lone king
    int king_plies = 0;        // plies since the last man move or capture
    int conversion_plies = 0;  // plies since the last capture or crowning
};

struct ProbeStats {
    std::uint64_t probes = 0;       // WDL probes asked in the search
    std::uint64_t hits = 0;         // ... answered with a value
    std::uint64_t from_memory = 0;  // ... answered at once by the search-time probe (no disk, no decompressing)
};

class Tables {
public:
    // Opens `dirs`; throws std::runtime_error with dtb's message on failure.
    Tables(const std::vector<std::string>& dirs, std::size_t cache_bytes);
    ~Tables();
    Tables(const Tables&) = delete;
    Tables& operator=(const Tables&) = delete;

    // Whether the material on the board may be in the tables: a cheap test
    // before any probe. A material whose probe found a table missing is not
    // asked again (dtb would write the same error message every time).
    bool covers(const Position& pos, int variant) const {
        return count(pos.occupied()) <= max_pieces_[variant] && !missing_[material(pos, variant)];
    }

    // The WDL value for the side to move (DTB_WIN, DTB_DRAW, DTB_LOSS), or
    // false when the tables cannot answer (a missing table, ...).
    bool probe_wdl(const Position& pos, int variant, int& wdl, ProbeStats& stats);

    // The move that realises the DTW value at the root, and that value;
    // false when the tables cannot answer or there is no move.
    bool best_move(const Position& pos, int variant, dtb_move& move, dtb_value& value);

    // The best move under the move-count rules with the game's counts, from
    // the .dtc tables (dtb_rule_root): of the moves with the best value
    // under the counts, the winner's least plies to its next conversion, the
    // loser's most; `rule_wdl` that value for the side to move. False when
    // the .dtc tables cannot answer, or the position is drawn under the
    // counts (any drawing move will do: the DTW move then).
    bool rule_move(const Position& pos, int variant, const RuleCounts& counts, dtb_move& move, int& rule_wdl);

    dtb_tablebase* handle() { return tb_; }

private:
    // The material as an index: variant, then kings and men of the side to
    // move and of the other side (at most 20 each).
    static std::size_t material(const Position& pos, int variant) {
        const Bitboard us = pos.pieces[pos.side], them = pos.pieces[pos.side ^ 1];
        const std::size_t counts[4] = {std::size_t(count(us & pos.kings)), std::size_t(count(us & ~pos.kings)),
                                       std::size_t(count(them & pos.kings)), std::size_t(count(them & ~pos.kings))};
        std::size_t index = std::size_t(variant);
        for (std::size_t c : counts) index = index * 21 + c;
        return index;
    }

    dtb_tablebase* tb_ = nullptr;
    int max_pieces_[DTB_VARIANT_COUNT] = {};
    std::vector<bool> missing_ = std::vector<bool>(DTB_VARIANT_COUNT * 21 * 21 * 21 * 21);
};

}  // namespace engine
