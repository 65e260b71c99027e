// Helpers shared by the probe tests: generated table sets, a handle that
// closes itself, C positions built independently of probe/convert.hpp, and
// what the generator's raw values should look like through the C API.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "compress/table_file.hpp"
#include "dtb/probe.h"
#include "gen/generate.hpp"
#include "gen/raw_table.hpp"
#include "rules/notation.hpp"
#include "tables/position_index.hpp"
#include "tables/stored_positions.hpp"
#include "tables/table_names.hpp"
#include "tables/values.hpp"
#include "tests/scratch_dir.hpp"

namespace dtb::probe_test {

// Builds whatever is missing of the tables of `variant` up to `pieces` in
// `dir` (nothing when the CTest fixture has built them already) and
// returns `dir`.
inline std::filesystem::path ensure_tables(const std::filesystem::path& dir, VariantId variant, int pieces,
                                           std::uint32_t format_version = GenerateOptions{}.format_version) {
    GenerateOptions o;
    o.format_version = format_version;
    o.variant = variant;
    o.max_pieces = pieces;
    o.dir = dir;
    std::ostringstream log;
    generate_tables(o, log);
    return dir;
}

// Russian up to 4 pieces, international up to 3, and international three
// kings against one (KKKvK, 4 pieces): the set the adjudication tests use.
inline void make_adjudication_tables(const std::filesystem::path& dir) {
    ensure_tables(dir, VariantId::Russian, 4);
    ensure_tables(dir, VariantId::International, 3);
    GenerateOptions o;
    o.variant = VariantId::International;
    o.max_pieces = 4;
    o.only = MaterialSignature::parse("KKKvK");
    o.dir = dir;
    std::ostringstream log;
    generate_tables(o, log);
}

// Whether the WDL file of `sig` in `dir` stores positions (format 3 leaves
// one side of each pair out: docs/FORMAT.md, "Positions not stored").
inline bool stores_positions(const std::filesystem::path& dir, VariantId variant, const MaterialSignature& sig) {
    auto file = compress::TableFile::open(dir / table_file_name(variant, sig, compress::Metric::wdl), nullptr);
    if (!file) throw std::runtime_error(file.error().message);
    return ((*file)->header().flags & compress::kFlagSideNotStored) == 0;
}

// Of `sig` and its mirror, the side whose files store its positions in `dir`.
inline MaterialSignature stored_side(const std::filesystem::path& dir, VariantId variant,
                                     const MaterialSignature& sig) {
    return stores_positions(dir, variant, sig) ? sig : sig.mirror();
}

// Whether a probe of `pos` reads its own table in a format 3 set in `dir`:
// the files store it (no capture to search, not in the side of a pair left
// out, and not a threat position of a table that is its own mirror).
template <class V>
bool stored_in_its_table(const Position<V>& pos, const std::filesystem::path& dir) {
    if (MoveGenerator<V>::has_capture(pos)) return false;
    const MaterialSignature sig = signature_of(normalize(pos));
    return sig.is_symmetric() ? !is_unstored_threat(pos) : stores_positions(dir, V::id, sig);
}

// Russian tables up to 4 pieces in format 2 (threat positions stored), as
// a writer before format 3 made them, in `dir`.
inline void write_format_two_tables(const std::filesystem::path& dir) {
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().filename().string().starts_with("russian-")) std::filesystem::remove(entry.path());
    ensure_tables(dir, VariantId::Russian, 4, 2);
}

// Russian up to 4 pieces, international and Brazilian up to 3, in table
// format 3, in one directory: the small set the quick tests use (DTB_SMALL_TABLES is set by
// CMake, whose fixture makes the same set).
inline std::filesystem::path small_tables() {
    static std::once_flag once;
    std::call_once(once, [] {
        ensure_tables(DTB_SMALL_TABLES, VariantId::Russian, 4, 3);
        ensure_tables(DTB_SMALL_TABLES, VariantId::International, 3, 3);
        ensure_tables(DTB_SMALL_TABLES, VariantId::Brazilian, 3, 3);
    });
    return DTB_SMALL_TABLES;
}

using test_support::ScratchDir;

// dtb_open on some directories; fails the test if it cannot.
class Handle {
public:
    explicit Handle(const std::vector<std::filesystem::path>& dirs, std::size_t cache_bytes = std::size_t{16} << 20) {
        std::vector<std::string> names;
        for (const auto& d : dirs) names.push_back(d.string());
        std::vector<const char*> pointers;
        for (const auto& n : names) pointers.push_back(n.c_str());
        const dtb_options options{cache_bytes};
        char err[512];
        const int status = dtb_open(pointers.data(), pointers.size(), &options, &tb_, err, sizeof err);
        EXPECT_EQ(status, DTB_OK) << err;
    }
    explicit Handle(const std::filesystem::path& dir, std::size_t cache_bytes = std::size_t{16} << 20)
        : Handle(std::vector<std::filesystem::path>{dir}, cache_bytes) {}
    ~Handle() { dtb_close(tb_); }
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    dtb_tablebase* get() const { return tb_; }
    operator dtb_tablebase*() const { return tb_; }  // NOLINT: reads like the C API
    std::string error() const { return dtb_error_message(tb_); }

private:
    dtb_tablebase* tb_ = nullptr;
};

template <class V>
constexpr VariantId variant_of() {
    return V::id;
}

// The C position of `pos`, square by square (not through probe/convert.hpp,
// which is under test).
template <class V>
dtb_position c_position(const Position<V>& pos) {
    dtb_position c{};
    for (int sq = 0; sq < V::Board::squares; ++sq) {
        const Bitboard b = bit(V::Board::bit_of(Square{sq}));
        if (pos.pieces[White] & b) c.white |= std::uint64_t{1} << sq;
        if (pos.pieces[Black] & b) c.black |= std::uint64_t{1} << sq;
        if (pos.kings & b) c.kings |= std::uint64_t{1} << sq;
    }
    c.side_to_move = pos.side_to_move == White ? DTB_WHITE : DTB_BLACK;
    c.variant = dtb_variant_from_name(std::string(V::name).c_str());
    return c;
}

template <class V>
dtb_position c_position(const std::string& fen) {
    return c_position(parse_fen<V>(fen));
}

// What the probe must say for a generator value (tables/values.hpp).
inline dtb_value expected_value(int raw) {
    if (raw == kDraw) return {DTB_DRAW, -1};
    return {is_win(raw) ? DTB_WIN : DTB_LOSS, raw};
}

inline std::string show(const dtb_value& v) {
    if (v.wdl == DTB_DRAW) return "draw (dtw " + std::to_string(v.dtw) + ")";
    return std::string(v.wdl == DTB_WIN    ? "win"
                       : v.wdl == DTB_LOSS ? "loss"
                                           : "wdl?" + std::to_string(v.wdl)) +
           " in " + std::to_string(v.dtw);
}

inline bool same(const dtb_value& a, const dtb_value& b) { return a.wdl == b.wdl && a.dtw == b.dtw; }

}  // namespace dtb::probe_test
