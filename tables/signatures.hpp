// Which tables exist and in what order they are solved.
#pragma once

#include <vector>

#include "rules/variant.hpp"
#include "tables/material_signature.hpp"

namespace dtb {

// Every signature with 2..max_pieces pieces, each side at least one and at
// most max_pieces_per_side(variant) (rules/variant.hpp).
std::vector<MaterialSignature> all_signatures(VariantId variant, int max_pieces);

// The signatures a position of `sig` can reach by a capture or a crowning,
// seen from the side to move after it (docs/RULES.md 2.2, 2.5: a capture takes one or more
// pieces, men and kings alike, and a man may be crowned by a plain move or
// during/at the end of a capture). Positions where the side to move would
// have no piece left are not tables: that side has lost.
std::vector<MaterialSignature> successor_signatures(const MaterialSignature& sig);

// Every signature that positions of `sig` or its mirror reach through
// captures and crownings, and on from there, with the mirror of each (the
// moves of a threat position a file leaves out lead there): what a pair's
// look-ups may touch (the pair itself not included).
std::vector<MaterialSignature> reachable_signatures(const MaterialSignature& sig);

// The canonical one of a signature and its mirror: they are solved together.
MaterialSignature pair_key(const MaterialSignature& sig);

// Pair keys in solving order: every pair after all the pairs it leads into,
// starting from `targets` and including everything they need.
std::vector<MaterialSignature> solving_order(const std::vector<MaterialSignature>& targets);

}  // namespace dtb
