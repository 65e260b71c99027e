// Builds the .dtc tables (docs/VALUES.md, docs/FORMAT.md): the values
// under the move-count draw rules, pair by pair in solving order, each pair
// solved level by level (gen/rule_solver.hpp) with the tables its
// conversions lead into read back from their files. Resumable: a pair whose
// files are all present is skipped, and a pair's levels written to scratch
// files by an earlier run are not solved again.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "gen/verify.hpp"
#include "rules/variant.hpp"
#include "tables/material_signature.hpp"

namespace dtb {

class Cluster;

struct DtcTableStats {
    MaterialSignature signature;
    std::uint64_t positions = 0;
    std::uint64_t bytes = 0;  // the file's size
    int longest_win = -1;     // the longest T of a win, plies; -1: none
    int longest_loss = -1;
    double seconds = 0;  // for the pair solved together
};

// Pairs of fewer positions are solved whole in memory: scratch files for
// their levels would cost more than they save.
inline constexpr std::uint64_t kDtcWholeBelow = std::uint64_t{1} << 22;

struct DtcBuildOptions {
    int threads = 0;                 // 0: OpenMP's default
    std::uint64_t memory_bytes = 0;  // 0: no limit
    // Pairs of fewer positions are solved whole in memory, without scratch
    // files (0: every pair that can be is solved by levels).
    std::uint64_t whole_below = kDtcWholeBelow;
    // Positions of a level solved at once (0: the solver's default); fewer
    // need less scratch memory.
    std::uint64_t block_positions = 0;
    // Hears (pair, "level N") before each level a pair solves by levels,
    // and (pair, "writing") before its files are written.
    std::function<void(const MaterialSignature& pair, const std::string& stage)> progress;
    // A progress line on stderr (a terminal's): the pair and its stage.
    bool show_progress = false;
    // The processes of an MPI run that share the pairs (null: this one
    // alone): wave after wave, each pair whole to one process
    // (gen/pair_waves.hpp). Every process returns what it built, process
    // 0 what all of them built.
    const Cluster* cluster = nullptr;
};

// Builds every missing .dtc table of `targets` and of what they need into
// `dir`, one line per table on `log`. Throws std::runtime_error naming a
// file that cannot be read or written, or a pair whose solve could take
// more than `memory_bytes` (RuleSolver::memory_bound), before solving it.
std::vector<DtcTableStats> build_dtc_tables(VariantId variant, const std::vector<MaterialSignature>& targets,
                                            const std::filesystem::path& dir, std::ostream& log,
                                            const DtcBuildOptions& options);
std::vector<DtcTableStats> build_dtc_tables(VariantId variant, const std::vector<MaterialSignature>& targets,
                                            const std::filesystem::path& dir, int threads, std::ostream& log,
                                            std::uint64_t memory_bytes = 0);

// Verifies every .dtc table of `variant` in `dir` (or only those of
// `only`): each pair solved again from the .dtc files of the tables it
// converts into, every position's symbol compared with the stored one; a
// file that fails its checksums is reported damaged. One report per table.
// Pairs of fewer than `whole_below` positions are solved whole in memory.
std::vector<VerifyReport> verify_dtc_tables(VariantId variant, const std::filesystem::path& dir, std::ostream& log,
                                            const std::vector<MaterialSignature>& only = {},
                                            std::uint64_t whole_below = kDtcWholeBelow);

}  // namespace dtb
