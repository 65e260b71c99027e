#include "tables.hpp"

#include <stdexcept>

namespace engine {

Tables::Tables(const std::vector<std::string>& dirs, std::size_t cache_bytes) {
    std::vector<const char*> paths;
    for (const std::string& d : dirs) paths.push_back(d.c_str());
    const dtb_options options{cache_bytes};
    char err[512];
    if (dtb_open(paths.data(), paths.size(), &options, &tb_, err, sizeof err) != DTB_OK) throw std::runtime_error(err);
    for (int v = 0; v < DTB_VARIANT_COUNT; ++v) max_pieces_[v] = dtb_max_pieces(tb_, v);
}

Tables::~Tables() { dtb_close(tb_); }

// The one call the search makes into dtb. The search-time probe answers
// from memory without blocking; when a block is not there yet the blocking
// probe reads it (an engine under time pressure could instead treat
// DTB_NOT_CACHED as "no answer", or preload with dtb_preload at start-up).
bool Tables::probe_wdl(const Position& pos, int variant, int& wdl, ProbeStats& stats) {
    ++stats.probes;
    const dtb_position p = to_dtb(pos, variant);
    dtb_value value;
    int status = dtb_probe_wdl_cached(tb_, &p, &value);
    if (status == DTB_OK) ++stats.from_memory;
    if (status == DTB_NOT_CACHED) status = dtb_probe_wdl(tb_, &p, &value);
    if (status != DTB_OK) {
        if (status == DTB_MISSING_TABLE) missing_[material(pos, variant)] = true;
        return false;
    }
    ++stats.hits;
    wdl = value.wdl;
    return true;
}

bool Tables::best_move(const Position& pos, int variant, dtb_move& move, dtb_value& value) {
    const dtb_position p = to_dtb(pos, variant);
    return dtb_best_move(tb_, &p, &move, &value) == DTB_OK;
}

bool Tables::rule_move(const Position& pos, int variant, const RuleCounts& counts, dtb_move& move, int& rule_wdl) {
    const dtb_position p = to_dtb(pos, variant);
    dtb_rule_move moves[256];
    std::size_t count = 0;
    if (dtb_rule_root(tb_, &p, counts.lone_moves, counts.king_plies, counts.conversion_plies, moves, 256, &count) !=
        DTB_OK)
        return false;
    const dtb_rule_move* best = nullptr;
    for (std::size_t i = 0; i < count; ++i) {
        const dtb_rule_move& m = moves[i];
        if (!best || m.rule_wdl > best->rule_wdl ||
            (m.rule_wdl == best->rule_wdl && (m.rule_wdl > 0 ? m.dtc < best->dtc : m.dtc > best->dtc)))
            best = &m;
    }
    if (!best || best->rule_wdl == DTB_DRAW) return false;
    move = best->move;
    rule_wdl = best->rule_wdl;
    return true;
}

}  // namespace engine
