// Builds the .dtc tables (docs/VALUES.md, docs/FORMAT.md): the values
// under the move-count draw rules, pair by pair in solving order, each pair
// solved in memory (gen/rule_solver.hpp) with the tables its conversions
// lead into read back from their files. Resumable: a pair whose files are
// all present is skipped.
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <vector>

#include "gen/verify.hpp"
#include "rules/variant.hpp"
#include "tables/material_signature.hpp"

namespace dtb {

struct DtcTableStats {
    MaterialSignature signature;
    std::uint64_t positions = 0;
    std::uint64_t bytes = 0;  // the file's size
    int longest_win = -1;     // the longest T of a win, plies; -1: none
    int longest_loss = -1;
    double seconds = 0;  // for the pair solved together
};

// Builds every missing .dtc table of `targets` and of what they need into
// `dir`, one line per table on `log`. Throws std::runtime_error naming a
// file that cannot be read or written, or a pair whose solve could take
// more than `memory_bytes` (RuleSolver::memory_bound; 0: no limit), before
// solving it.
std::vector<DtcTableStats> build_dtc_tables(VariantId variant, const std::vector<MaterialSignature>& targets,
                                            const std::filesystem::path& dir, int threads, std::ostream& log,
                                            std::uint64_t memory_bytes = 0);

// Verifies every .dtc table of `variant` in `dir` (or only those of
// `only`): each pair solved again from the .dtc files of the tables it
// converts into, every position's symbol compared with the stored one; a
// file that fails its checksums is reported damaged. One report per table.
std::vector<VerifyReport> verify_dtc_tables(VariantId variant, const std::filesystem::path& dir, std::ostream& log,
                                            const std::vector<MaterialSignature>& only = {});

}  // namespace dtb
