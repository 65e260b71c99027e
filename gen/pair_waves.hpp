// How a set's pairs are shared out between the processes of an MPI run
// (docs/GENERATOR.md, "Many machines"): in waves of pairs that need only
// earlier waves, each wave's pairs dealt out by size. dtb gen deals out the
// pairs of its .wdl and .dtw files this way, and then those of its .dtc
// files.
#pragma once

#include <cstdint>
#include <vector>

#include "rules/variant.hpp"
#include "tables/material_signature.hpp"

namespace dtb {

// The pairs to build, in waves: every pair of a wave depends only on pairs
// of earlier waves (or on finished ones), so the pairs of a wave can be
// built at the same time by different processes. `order`: pair keys,
// every pair after those it leads into (solving_order).
std::vector<std::vector<MaterialSignature>> waves_of(const std::vector<MaterialSignature>& order);

// The positions of one side of the pair of `key`.
std::uint64_t pair_positions(VariantId variant, const MaterialSignature& key);

// Which pairs of a wave process `rank` of `size` builds alone: the largest
// pair first, each to the process with the fewest positions so far (the
// same answer on every process, computed from nothing but the signatures).
std::vector<MaterialSignature> share_of(VariantId variant, std::vector<MaterialSignature> wave, int rank, int size);

}  // namespace dtb
