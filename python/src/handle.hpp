// A dtb_tablebase handle (dtb/probe.h) for the Python module: every call
// goes through the C API (dtb/probe.h, dtb/adjudication.h), the calls an
// engine makes, and reports a failure
// as StatusError with the library's message. Nothing here touches Python
// objects, so the module calls it with the GIL released: any number of
// threads may probe one handle at once, as the C API allows; close() waits
// for the probes running on it.
#pragma once

#include <cstddef>
#include <optional>
#include <shared_mutex>
#include <string>
#include <vector>

#include "dtb/adjudication.h"
#include "dtb/probe.h"

namespace dtb::python {

// A legal move and the value it leads to, for the side making it.
struct RootMove {
    std::string move;
    dtb_value value;
};

// A legal move under the move-count rules (dtb_rule_root): the value it
// leads to for the side making it, and its plies to the next conversion
// (-1: drawn under the counts).
struct RuleMove {
    std::string move;
    int rule_wdl;
    int dtc;
};

// dtb_adjudicate's answer, its verdict in words and the position's FEN.
struct Adjudicated {
    dtb_adjudication a;
    std::string verdict;
    std::string fen;
};

class Handle {
public:
    // Opens the tables in `dirs` with a block cache of `cache_bytes`. A
    // StatusError DTB_MISSING_TABLE naming them when none holds a table: a
    // handle on none would answer nothing.
    Handle(const std::vector<std::string>& dirs, std::size_t cache_bytes);
    ~Handle() { close(); }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;

    // Frees the handle once no probe runs on it; later probes raise
    // ValueError. Closing twice is allowed.
    void close();
    bool closed() const;

    int max_pieces(int variant) const;
    dtb_value probe_wdl(const dtb_position& pos) const;
    dtb_value probe_dtw(const dtb_position& pos) const;
    // nullopt when the side to move has no legal move (it has lost).
    std::optional<std::string> best_move(const dtb_position& pos) const;
    // The line to the end of the game (the longest resistance for a lost
    // position); empty for a draw and where the side to move has no move.
    std::vector<std::string> line(const dtb_position& pos) const;
    // Best play under the counts to the next conversion (dtb_rule_line);
    // empty for a position drawn under them.
    std::vector<std::string> rule_line(const dtb_position& pos, int moves_played, int king_moves_played,
                                       int conversion_moves_played) const;
    // Every legal move under the counts (dtb_rule_root, whole moves given),
    // best first: winning nearest the conversion, then drawing, then losing
    // furthest from it (generation order among equals).
    std::vector<RuleMove> rule_moves(const dtb_position& pos, int moves_played, int king_moves_played,
                                     int conversion_moves_played) const;
    // Every legal move with its value, best first: winning fastest, then
    // drawing, then losing slowest (generation order among equals).
    std::vector<RootMove> moves(const dtb_position& pos) const;
    Adjudicated adjudicate(const dtb_position& pos, int moves_played, int king_moves_played,
                           int conversion_moves_played) const;
    // dtb_probe_dtc: the rule-aware value and the distance to conversion (-1: drawn under the counts).
    std::pair<int, int> probe_dtc(const dtb_position& pos) const;

private:
    // The open handle, under a shared lock that close() waits for.
    template <class F>
    auto with_handle(F&& f) const;
    [[noreturn]] void fail(int status) const;

    mutable std::shared_mutex mutex_;
    dtb_tablebase* tb_ = nullptr;
};

}  // namespace dtb::python
