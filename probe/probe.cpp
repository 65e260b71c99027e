// The C API of dtb/probe.h over Tablebase and Search. Every entry point
// checks its arguments, turns the C position into the rules' Position for
// its variant, and catches everything: nothing may unwind into C
// (c_handle.hpp, which the adjudication's C functions share).
#include "dtb/probe.h"

#include <algorithm>

#include "probe/c_handle.hpp"
#include "probe/convert.hpp"
#include "probe/dtc_tables.hpp"
#include "probe/preload.hpp"
#include "probe/search.hpp"
#include "probe/tablebase.hpp"

using dtb::probe::Failure;
using dtb::probe::Status;

static_assert(int(Status::ok) == DTB_OK && int(Status::missing_table) == DTB_MISSING_TABLE &&
              int(Status::corrupt_table) == DTB_CORRUPT_TABLE && int(Status::bad_position) == DTB_BAD_POSITION &&
              int(Status::too_many_pieces) == DTB_TOO_MANY_PIECES && int(Status::io_error) == DTB_IO_ERROR &&
              int(Status::bad_argument) == DTB_BAD_ARGUMENT && int(Status::no_move) == DTB_NO_MOVE &&
              int(Status::buffer_too_small) == DTB_BUFFER_TOO_SMALL &&
              int(Status::out_of_memory) == DTB_OUT_OF_MEMORY && int(Status::internal_error) == DTB_INTERNAL_ERROR &&
              int(Status::not_cached) == DTB_NOT_CACHED);

namespace {

using namespace dtb;
using namespace dtb::probe;

constexpr std::size_t kDefaultCacheBytes = std::size_t{64} << 20;

dtb_value c_value(int value) { return dtb_value{wdl_of(value), value == kDraw ? -1 : value}; }

// A line of moves from `p` into the caller's array: its length always, as
// many moves as fit, DTB_BUFFER_TOO_SMALL if not all did.
template <class V>
int write_line(dtb_tablebase* tb, const Position<V>& p, const std::vector<Move>& line, dtb_move* moves, size_t capacity,
               size_t* length) {
    *length = line.size();
    Position<V> q = p;
    for (size_t i = 0; i < line.size() && i < capacity; ++i) {
        moves[i] = to_c(q, line[i]);
        q = q.after(line[i]);
    }
    if (line.size() > capacity)
        return tb->fail({Status::buffer_too_small, "the line has " + std::to_string(line.size()) + " moves, room for " +
                                                       std::to_string(capacity)});
    return DTB_OK;
}

// The counts of dtb_rule_line (whole moves) and dtb_rule_root (plies), as
// the judge takes them; -1: twice moves_played plies.
RuleCounts counts_of(int moves_played, int king_plies, int conversion_plies) {
    return RuleCounts{moves_played, conversion_plies < 0 ? 2 * moves_played : conversion_plies,
                      king_plies < 0 ? 2 * moves_played : king_plies};
}

}  // namespace

extern "C" {

int dtb_open(const char* const* dirs, size_t n_dirs, const dtb_options* opts, dtb_tablebase** out, char* err,
             size_t err_len) {
    if (out == nullptr) {
        copy_text("dtb_open: out is NULL", err, err_len);
        return DTB_BAD_ARGUMENT;
    }
    *out = nullptr;
    Failure failure{Status::internal_error, "internal error"};
    try {
        if (dirs == nullptr && n_dirs > 0) {
            copy_text("dtb_open: dirs is NULL", err, err_len);
            return DTB_BAD_ARGUMENT;
        }
        std::vector<std::filesystem::path> paths;
        for (size_t i = 0; i < n_dirs; ++i) {
            if (dirs[i] == nullptr) {
                copy_text("dtb_open: dirs[" + std::to_string(i) + "] is NULL", err, err_len);
                return DTB_BAD_ARGUMENT;
            }
            paths.emplace_back(dirs[i]);
        }
        auto tables = Tablebase::open(paths, opts ? opts->cache_bytes : kDefaultCacheBytes);
        if (!tables) {
            copy_text(tables.error().message, err, err_len);
            return int(tables.error().status);
        }
        auto handle = std::make_unique<dtb_tablebase>();
        handle->tables = std::move(*tables);
        *out = handle.release();
        copy_text("", err, err_len);
        return DTB_OK;
    } catch (const std::bad_alloc&) {
        failure = Failure{Status::out_of_memory, "out of memory"};
    } catch (const std::exception& e) {
        failure.message = std::string("internal error: ") + e.what();
    } catch (...) {
    }
    copy_text(failure.message, err, err_len);
    return int(failure.status);
}

void dtb_close(dtb_tablebase* tb) { delete tb; }

int dtb_max_pieces(const dtb_tablebase* tb, int variant) {
    const auto id = variant_from_c(variant);
    if (tb == nullptr || !id) return 0;
    return tb->tables->max_pieces(*id);
}

const char* dtb_error_message(const dtb_tablebase* tb) {
    if (tb == nullptr) return "no tablebase handle (NULL)";
    std::lock_guard lock(tb->errors_mutex);
    const auto it = tb->errors.find(std::this_thread::get_id());
    // The string stays where it is until this thread's next failure:
    // unordered_map never moves its elements.
    return it == tb->errors.end() ? "" : it->second.c_str();
}

const char* dtb_status_name(int status) {
    switch (status) {
        case DTB_OK:
            return "ok";
        case DTB_MISSING_TABLE:
            return "missing table";
        case DTB_CORRUPT_TABLE:
            return "corrupt table";
        case DTB_BAD_POSITION:
            return "bad position";
        case DTB_TOO_MANY_PIECES:
            return "too many pieces";
        case DTB_IO_ERROR:
            return "i/o error";
        case DTB_BAD_ARGUMENT:
            return "bad argument";
        case DTB_NO_MOVE:
            return "no legal move";
        case DTB_BUFFER_TOO_SMALL:
            return "buffer too small";
        case DTB_OUT_OF_MEMORY:
            return "out of memory";
        case DTB_INTERNAL_ERROR:
            return "internal error";
        case DTB_NOT_CACHED:
            return "not cached";
        default:
            return "unknown status";
    }
}

int dtb_position_from_fen(int variant, const char* fen, dtb_position* out, char* err, size_t err_len) {
    if (fen == nullptr || out == nullptr) {
        copy_text("dtb_position_from_fen: a NULL pointer argument", err, err_len);
        return DTB_BAD_ARGUMENT;
    }
    try {
        const auto id = variant_from_c(variant);
        if (!id) {
            copy_text(unknown_variant(variant).message, err, err_len);
            return DTB_BAD_ARGUMENT;
        }
        *out = with_variant(*id, [&]<class V>() { return to_c(parse_fen<V>(fen)); });
        copy_text("", err, err_len);
        return DTB_OK;
    } catch (const InputError& e) {
        copy_text(e.what(), err, err_len);
        return DTB_BAD_POSITION;
    } catch (const std::bad_alloc&) {
        copy_text("out of memory", err, err_len);
        return DTB_OUT_OF_MEMORY;
    } catch (const std::exception& e) {
        copy_text(std::string("internal error: ") + e.what(), err, err_len);
        return DTB_INTERNAL_ERROR;
    } catch (...) {
        copy_text("internal error", err, err_len);
        return DTB_INTERNAL_ERROR;
    }
}

int dtb_position_to_fen(const dtb_position* pos, char* buf, size_t buf_len) {
    if (pos == nullptr || buf == nullptr) return DTB_BAD_ARGUMENT;
    const auto variant = variant_from_c(pos->variant);
    if (!variant) return DTB_BAD_ARGUMENT;
    return guarded(nullptr, [&]() -> int {
        return with_variant(*variant, [&]<class V>() -> int {
            // A finished game still has a FEN: only what no board can hold is refused.
            auto p = board_from_c<V>(*pos);
            if (!p) return int(p.error().status);
            const std::string fen = to_fen(*p);
            if (fen.size() + 1 > buf_len) return DTB_BUFFER_TOO_SMALL;
            copy_text(fen, buf, buf_len);
            return DTB_OK;
        });
    });
}

int dtb_probe_wdl(dtb_tablebase* tb, const dtb_position* pos, dtb_value* value) {
    return probe_position(tb, pos, value != nullptr,
                          [&]<class V>(const Search<V>& search, const Position<V>& p) -> int {
                              auto wdl = search.wdl(p);
                              if (!wdl) return tb->fail(wdl.error());
                              *value = dtb_value{*wdl, -1};
                              return DTB_OK;
                          });
}

int dtb_probe_dtw(dtb_tablebase* tb, const dtb_position* pos, dtb_value* value) {
    return probe_position(tb, pos, value != nullptr,
                          [&]<class V>(const Search<V>& search, const Position<V>& p) -> int {
                              auto v = search.value(p);
                              if (!v) return tb->fail(v.error());
                              *value = c_value(*v);
                              return DTB_OK;
                          });
}

int dtb_probe_wdl_cached(dtb_tablebase* tb, const dtb_position* pos, dtb_value* value) {
    return probe_position(tb, pos, value != nullptr, [&]<class V>(const Search<V>&, const Position<V>& p) -> int {
        auto wdl = Search<V>(*tb->tables, true).wdl(p);
        if (!wdl) return tb->fail(wdl.error());
        *value = dtb_value{*wdl, -1};
        return DTB_OK;
    });
}

int dtb_probe_dtw_cached(dtb_tablebase* tb, const dtb_position* pos, dtb_value* value) {
    return probe_position(tb, pos, value != nullptr, [&]<class V>(const Search<V>&, const Position<V>& p) -> int {
        auto v = Search<V>(*tb->tables, true).value(p);
        if (!v) return tb->fail(v.error());
        *value = c_value(*v);
        return DTB_OK;
    });
}

int dtb_preload(dtb_tablebase* tb, int variant, int max_pieces, int what, dtb_preload_report* report) {
    if (tb == nullptr) return DTB_BAD_ARGUMENT;
    return guarded(tb, [&]() -> int {
        if (report) *report = dtb_preload_report{};
        const auto id = variant_from_c(variant);
        if (!id) return tb->fail(unknown_variant(variant));
        if (what == 0 || (what & ~(DTB_PRELOAD_WDL | DTB_PRELOAD_DTW)) != 0)
            return tb->fail({Status::bad_argument, "dtb_preload: `what` is " + std::to_string(what) +
                                                       ", not DTB_PRELOAD_WDL, DTB_PRELOAD_DTW or both"});
        PreloadReport r;
        const auto failure =
            preload(*tb->tables, *id, max_pieces, (what & DTB_PRELOAD_WDL) != 0, (what & DTB_PRELOAD_DTW) != 0, r);
        if (report) {
            report->tables = r.tables;
            report->blocks = r.blocks;
            report->blocks_cached = r.blocks_cached;
            report->bytes = r.bytes;
            report->bytes_cached = r.bytes_cached;
            report->complete = !failure && r.blocks_cached == r.blocks ? 1 : 0;
            copy_text(r.first_incomplete, report->first_incomplete, sizeof report->first_incomplete);
        }
        return failure ? tb->fail(*failure) : DTB_OK;
    });
}

int dtb_cache_stats(const dtb_tablebase* tb, dtb_cache_info* info) {
    if (tb == nullptr || info == nullptr) return DTB_BAD_ARGUMENT;
    return guarded(tb, [&]() -> int {
        const compress::BlockCache& cache = tb->tables->cache();
        const compress::BlockCache::Stats st = cache.stats();
        *info = dtb_cache_info{cache.capacity(), st.bytes, st.blocks, st.hits, st.misses, st.evictions};
        return DTB_OK;
    });
}

int dtb_probe_root(dtb_tablebase* tb, const dtb_position* pos, dtb_root_move* moves, size_t capacity, size_t* count) {
    const bool out_ok = count != nullptr && (moves != nullptr || capacity == 0);
    return probe_position(tb, pos, out_ok, [&]<class V>(const Search<V>& search, const Position<V>& p) -> int {
        auto root = search.root(p);
        if (!root) return tb->fail(root.error());
        *count = root->size();
        for (size_t i = 0; i < root->size() && i < capacity; ++i)
            moves[i] = dtb_root_move{to_c(p, (*root)[i].move), c_value((*root)[i].value)};
        if (root->size() > capacity)
            return tb->fail({Status::buffer_too_small,
                             std::to_string(root->size()) + " legal moves, room for " + std::to_string(capacity)});
        return DTB_OK;
    });
}

int dtb_best_move(dtb_tablebase* tb, const dtb_position* pos, dtb_move* move, dtb_value* value) {
    return probe_position(tb, pos, move != nullptr, [&]<class V>(const Search<V>& search, const Position<V>& p) -> int {
        auto best = search.best(p);
        if (!best) return tb->fail(best.error());
        if (value) *value = c_value(*best ? (*best)->value : 0);
        if (!*best) return tb->fail({Status::no_move, "the side to move has no legal move: it has lost"});
        *move = to_c(p, (*best)->move);
        return DTB_OK;
    });
}

int dtb_principal_variation(dtb_tablebase* tb, const dtb_position* pos, dtb_move* moves, size_t capacity,
                            size_t* length, dtb_value* value) {
    const bool out_ok = length != nullptr && (moves != nullptr || capacity == 0);
    return probe_position(tb, pos, out_ok, [&]<class V>(const Search<V>& search, const Position<V>& p) -> int {
        auto start = search.value(p);
        if (!start) return tb->fail(start.error());
        if (value) *value = c_value(*start);
        auto line = search.principal_variation(p);
        if (!line) return tb->fail(line.error());
        return write_line(tb, p, *line, moves, capacity, length);
    });
}

int dtb_probe_dtc(dtb_tablebase* tb, const dtb_position* pos, int* rule_wdl, int* dtc) {
    return probe_position(tb, pos, true, [&]<class V>(const Search<V>&, const Position<V>& p) -> int {
        const DtcTables<V> tables(*tb->tables);
        auto t = tables.dtc(p);
        if (!t) return tb->fail(t.error());
        auto wdl = tables.fresh_wdl(p);
        if (!wdl) return tb->fail(wdl.error());
        if (rule_wdl) *rule_wdl = *wdl;
        if (dtc) *dtc = *wdl == 0 ? -1 : t->plies;
        return DTB_OK;
    });
}

int dtb_rule_line(dtb_tablebase* tb, const dtb_position* pos, int moves_played, int king_moves_played,
                  int conversion_moves_played, dtb_move* moves, size_t capacity, size_t* length) {
    const bool out_ok = length != nullptr && (moves != nullptr || capacity == 0);
    return probe_position(tb, pos, out_ok, [&]<class V>(const Search<V>&, const Position<V>& p) -> int {
        if (moves_played < 0) return tb->fail({Status::bad_argument, "moves played is negative"});
        auto line = DtcTables<V>(*tb->tables)
                        .line(p, counts_of(moves_played, king_moves_played < 0 ? -1 : 2 * king_moves_played,
                                           conversion_moves_played < 0 ? -1 : 2 * conversion_moves_played));
        if (!line) return tb->fail(line.error());
        return write_line(tb, p, *line, moves, capacity, length);
    });
}

int dtb_rule_root(dtb_tablebase* tb, const dtb_position* pos, int moves_played, int king_plies_played,
                  int conversion_plies_played, dtb_rule_move* moves, size_t capacity, size_t* count) {
    const bool out_ok = count != nullptr && (moves != nullptr || capacity == 0);
    return probe_position(tb, pos, out_ok, [&]<class V>(const Search<V>&, const Position<V>& p) -> int {
        if (moves_played < 0) return tb->fail({Status::bad_argument, "moves played is negative"});
        auto valued =
            DtcTables<V>(*tb->tables).moves(p, counts_of(moves_played, king_plies_played, conversion_plies_played));
        if (!valued) return tb->fail(valued.error());
        // In the move generator's order, as dtb_probe_root's.
        *count = valued->size();
        for (size_t i = 0; i < valued->size() && i < capacity; ++i)
            moves[i] = dtb_rule_move{to_c(p, (*valued)[i].move), (*valued)[i].wdl, (*valued)[i].plies};
        if (valued->size() > capacity)
            return tb->fail({Status::buffer_too_small,
                             std::to_string(valued->size()) + " legal moves, room for " + std::to_string(capacity)});
        return DTB_OK;
    });
}

int dtb_position_after(const dtb_position* pos, const dtb_move* move, dtb_position* out) {
    if (pos == nullptr || move == nullptr || out == nullptr) return DTB_BAD_ARGUMENT;
    const auto variant = variant_from_c(pos->variant);
    if (!variant) return DTB_BAD_ARGUMENT;
    return guarded(nullptr, [&]() -> int {
        return with_variant(*variant, [&]<class V>() -> int {
            auto p = from_c<V>(*pos);
            if (!p) return int(p.error().status);
            auto m = from_c(*p, *move);
            if (!m) return int(m.error().status);
            *out = to_c(p->after(*m));
            return DTB_OK;
        });
    });
}

}  // extern "C"
