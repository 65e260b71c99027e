// The one way the dtb program reaches the tables: a handle of the C API
// that engines use (dtb/probe.h, dtb/adjudication.h), so that what the
// program prints or serves is what engines get. Commands ask it (and the
// queries of position_query.hpp and adjudication/facade.hpp, which take its
// handle) for values, and only render the answers; none of them opens a
// table or reads probe's internals.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "cli/position_query.hpp"
#include "dtb/probe.h"
#include "probe/convert.hpp"
#include "rules/notation.hpp"
#include "tables/values.hpp"

namespace dtb {

// A position's best move and the value it keeps, for the side to move.
struct BestMove {
    Move move;
    int value;  // decoded (tables/values.hpp): plies with the result's parity, or kDraw
};

// A dtb_tablebase on some directories, closed at the end. A directory that
// cannot be opened is a missing file (exit status 1); only an argument the
// C API refuses is bad input (2).
class Tables {
public:
    // cache_bytes: decompressed blocks kept in memory (dtb_options).
    explicit Tables(const std::vector<std::string>& dirs, std::size_t cache_bytes = std::size_t{64} << 20) {
        std::vector<const char*> paths;
        for (const std::string& d : dirs) paths.push_back(d.c_str());
        const dtb_options options{cache_bytes};
        char err[1024];
        const int status = dtb_open(paths.data(), paths.size(), &options, &tb_, err, sizeof err);
        if (status == DTB_BAD_ARGUMENT) throw InputError(err);
        if (status != DTB_OK) throw std::runtime_error(err);
    }
    ~Tables() { dtb_close(tb_); }
    Tables(const Tables&) = delete;
    Tables& operator=(const Tables&) = delete;

    dtb_tablebase* get() const { return tb_; }

    // The most pieces of any table of the variant in the directories.
    int max_pieces(VariantId variant) const { return dtb_max_pieces(tb_, probe::c_variant(variant)); }

    // The value of `pos` for the side to move, decoded; nullopt inside the
    // answer when the tables do not hold its material (a missing table, too
    // many pieces); a QueryError when the tables fail (a damaged file).
    template <class V>
    Answer<std::optional<int>> value(const Position<V>& pos) const {
        const dtb_position c = probe::to_c(pos);
        dtb_value v;
        const int s = dtb_probe_dtw(tb_, &c, &v);
        if (s == DTB_OK) return std::optional<int>(decoded(v));
        if (s == DTB_MISSING_TABLE || s == DTB_TOO_MANY_PIECES) return std::optional<int>();
        return QueryError{s, dtb_error_message(tb_)};
    }

    // The move that realises the value of `pos` (dtb_best_move); nullopt
    // inside the answer when the side to move has no move.
    template <class V>
    Answer<std::optional<BestMove>> best(const Position<V>& pos) const {
        const dtb_position c = probe::to_c(pos);
        dtb_move m;
        dtb_value v;
        const int s = dtb_best_move(tb_, &c, &m, &v);
        if (s == DTB_NO_MOVE) return std::optional<BestMove>();
        if (s != DTB_OK) return QueryError{s, dtb_error_message(tb_)};
        return std::optional<BestMove>(BestMove{parse_move(pos, m.text), decoded(v)});
    }

    // A value of the C API in the tables' own encoding.
    static int decoded(const dtb_value& v) { return v.wdl == DTB_DRAW ? kDraw : v.dtw; }

private:
    dtb_tablebase* tb_ = nullptr;
};

}  // namespace dtb
