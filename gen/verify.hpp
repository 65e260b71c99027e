// dtb verify: checks the checksums of the files users have (.wdl, .dtw),
// recomputes every stored value from the values of its
// successors and reports any position where they disagree.
//
// Local consistency is enough: a win labelled d needs a move to a loss
// labelled d-1, a loss labelled d needs every move to reach a win, the
// longest labelled d-1, and a draw needs a move to a draw and none to a
// loss. Labelled distances fall along every such justification down to the
// positions with no move, so a table that passes everywhere is exact.
#pragma once

#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "gen/verify_journal.hpp"
#include "rules/variant.hpp"
#include "tables/material_signature.hpp"

namespace dtb {

struct VerifyReport {
    MaterialSignature signature;
    std::uint64_t positions = 0;
    std::uint64_t mismatches = 0;
    std::vector<std::string> examples;  // "FEN: stored X, from successors Y", the first few
    std::vector<std::string> damaged;   // a file of the table that fails its checksums: what is wrong, naming it
    // A file the check needs (a smaller table's, or one of the pair's) that
    // is missing or cannot be read: what is wrong, naming it. The table's
    // values were then not all checked.
    std::vector<std::string> unchecked;
    bool ok() const { return mismatches == 0 && damaged.empty() && unchecked.empty(); }
    double seconds = 0;
    // The files the check read (the table's, its mirror's, the smaller
    // tables'), named by their header fingerprints.
    std::vector<FileFingerprint> files;
    // Non-empty when the values were not recomputed because the journal
    // holds the table as consistent with these very files: when that was.
    // The table's own checksums were checked all the same.
    std::string journal_verified_at;
};

// The decompressed blocks verify_tables keeps unless told, all threads
// together: enough for tables of a few million positions. A larger window
// pays off on tables of kings, whose moves reach anywhere in the table and
// its mirror (dtb verify --memory; by default it takes as much as dtb gen).
inline constexpr std::uint64_t kDefaultVerifyWindowBytes = std::uint64_t{256} << 20;
// What dtb verify --memory keeps back from the windows: the program, each
// thread's memo of capture positions, the tables' block offsets.
inline constexpr std::uint64_t kVerifyReserveBytes = std::uint64_t{64} << 20;

// Verifies every table of `variant` in `dir` (each signature with a .wdl
// file; or only `only`): the checksums of its .wdl and .dtw files, and
// every value against its successors, read through windows of decompressed
// blocks of `window_bytes` in all. A table whose check stops on a file that
// is missing or cannot be read is reported (`unchecked`, naming the file)
// and the others are still checked. With a `journal`, a table it holds as
// consistent with the same files is not recomputed (its checksums are
// checked), and each table found consistent is recorded in it at once.
//
// The values of a placement's king-move successors are kept in a run (one
// men placement of the other side): up to `own_runs_up_to` positions, one
// run per thread; beyond, one run shared by the threads, placement after
// placement, when three quarters of the window holds it. Tests lower it to
// check the shared runs on small tables.
inline constexpr std::uint64_t kVerifyOwnRunsUpTo = std::uint64_t{1} << 18;

// How the values are recomputed. By levels (the default): a table and its
// mirror together, level by level as the generator solved them, each level
// of both sides read into memory once, where two levels fit in half the
// window (else table by table). By table: each table alone, its successors
// read through the windows and the king-move runs above. By levels, a
// level's draws and wins are proven from part of their king moves where
// that reads fewer (docs/GENERATOR.md, "Checking"); by_levels_proving_all
// proves them on every level, for tests. All find the same wrong values;
// tests compare them.
enum class VerifyMethod { by_levels, by_levels_proving_all, by_table };

std::vector<VerifyReport> verify_tables(VariantId variant, const std::filesystem::path& dir, std::ostream& log,
                                        bool progress, const std::vector<MaterialSignature>& only = {},
                                        std::uint64_t window_bytes = kDefaultVerifyWindowBytes,
                                        VerifyJournal* journal = nullptr,
                                        std::uint64_t own_runs_up_to = kVerifyOwnRunsUpTo,
                                        VerifyMethod method = VerifyMethod::by_levels);

// Signatures of `variant` with a .wdl or a .dtw file in `dir`, smaller
// tables first.
std::vector<MaterialSignature> tables_in(VariantId variant, const std::filesystem::path& dir);

// Files of `dir` that look like `variant`'s table files (VARIANT-*.wdl or
// .dtw) but whose names are not a table's (a typo, a renamed copy): dtb
// verify does not read them, and says so.
std::vector<std::string> unrecognised_table_files(VariantId variant, const std::filesystem::path& dir);

}  // namespace dtb
