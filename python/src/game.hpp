// What the module asks of the rules library (rules/) rather than of the
// tables: perft and playing a move.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace dtb::python {

// The leaves of the legal move tree `depth` plies deep from `fen`, or from
// the variant's initial position (rules/perft.hpp). keep_duplicates: every
// capture route counts, not once per start, end and captured pieces
// (docs/RULES.md section 5; dtb perft --duplicates keep).
std::uint64_t perft(int variant, int depth, const std::optional<std::string>& fen, bool keep_duplicates);

// The FEN after `move` (in any notation the variant reads: "c3-d4", "c3d4"
// is not, "22-17", "c3:e5", "47x38") in the position `fen`.
std::string play(int variant, const std::string& fen, const std::string& move);

// The variant's initial position.
std::string start_fen(int variant);

}  // namespace dtb::python
