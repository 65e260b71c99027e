// dtb gen: builds every missing table up to a piece count, in dependency
// order, resumably: a table is written to a temporary file and renamed when
// complete, so an interrupted run leaves finished tables and nothing else.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "compress/format.hpp"
#include "rules/variant.hpp"
#include "tables/manifest.hpp"  // TableStats, what each built table holds
#include "tables/material_signature.hpp"
#include "tables/table_names.hpp"  // table_basename, manifest_file_name

namespace dtb {

struct GenerateOptions {
    VariantId variant = VariantId::Russian;
    int max_pieces = 0;
    std::filesystem::path dir;
    int threads = 0;  // 0: OpenMP's default
    std::optional<MaterialSignature> only;
    bool progress = false;           // a live progress line (on a terminal)
    std::uint64_t memory_bytes = 0;  // the limit on resident memory; 0: default_memory_bytes()
    bool keep_raw = false;           // also write each table's exact values (NAME.raw), for tests and scripts
    // The table format of the .wdl and .dtw files: 3 leaves the threat
    // positions out (tables/stored_positions.hpp): files a quarter
    // smaller, but a probe of such a position searches, and the build takes
    // longer (BENCHMARKS.md, "Table format 3"). 2, the default, stores them.
    std::uint32_t format_version = compress::kDefaultFormatVersion;
    // Called with each stage of the work ("slice 3 distance 5", ...); tests
    // interrupt a run by throwing from it.
    std::function<void(const MaterialSignature& pair, const std::string& stage)> stage_hook;
    // The processes of an MPI run (gen/cluster.hpp) that share the work;
    // null: this process alone.
    const class Cluster* cluster = nullptr;
    // In an MPI run, a pair of at least this many positions is solved by
    // every process together, each taking a part of every slice; smaller
    // pairs go whole to one process each.
    std::uint64_t split_pair_positions = std::uint64_t{1} << 24;
    // With more than one thread, the pairs of a dependency wave with fewer
    // positions than this are built side by side, each whole on one thread
    // (a small pair's slices are too small to share between threads); the
    // larger ones one after another with every thread. 0: none side by side.
    std::uint64_t side_by_side_positions = std::uint64_t{1} << 24;
    // A pair of fewer positions than this keeps its solved slices in memory
    // (when they fit the memory limit) instead of in scratch files: no
    // compressing and reading back, at the price of solving the whole pair
    // again if the run is interrupted in its middle. 0: every pair writes
    // its slices.
    std::uint64_t held_slices_positions = std::uint64_t{1} << 27;
    // Keep each pair's solved slices after its files are written, in
    // DIR/.dtb-work/VARIANT-PAIR.exact/, for the .dtc build that follows
    // (dtb gen --dtc): it reads there which positions are drawn.
    bool keep_exact_levels = false;
    // Write the exact values of every table built, capture positions
    // included, to DIR/.dtb-work/exact-values/, and read a smaller table's
    // values there where they are: a capture position of a smaller table
    // is then one look-up instead of a search of its captures. Removed at
    // the end of the run unless `keep_exact_values` (for a later run that
    // builds on this set). Tests turn it off to compare.
    bool exact_values = true;
    bool keep_exact_values = false;
    // Slices smaller than this are solved on one thread (see LevelSolver).
    std::uint64_t parallel_positions = std::uint64_t{1} << 17;
};

// DIR/russian-KKvK.raw (the exact table), DIR/russian-KKvK.json (the manifest).
std::filesystem::path raw_table_path(const std::filesystem::path& dir, VariantId variant, const MaterialSignature& sig);
std::filesystem::path manifest_path(const std::filesystem::path& dir, VariantId variant, const MaterialSignature& sig);

// Builds what is missing; returns the stats of the tables built this run
// (in an MPI run, on process 0: by every process).
std::vector<TableStats> generate_tables(const GenerateOptions& options, std::ostream& log);

// The process's peak resident memory (VmHWM) since the last reset, in bytes.
std::uint64_t peak_resident_bytes();
void reset_peak_resident_bytes();

}  // namespace dtb
