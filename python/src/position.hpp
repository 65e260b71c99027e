// Positions from FEN text through the C API (dtb_position_from_fen), with
// the variant named or told from the FEN's squares.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "dtb/probe.h"

namespace dtb::python {

// DTB_RUSSIAN or DTB_INTERNATIONAL for "russian" or "international";
// throws std::invalid_argument (ValueError) for any other name.
int variant_code(std::string_view name);

// The variant a FEN's squares name, without reading the rest: algebraic
// squares (a1..h8) only Russian has, numbers above 32 only international.
// nullopt when the squares are numbers up to 32 (both variants read them)
// or name both.
std::optional<int> variant_of_squares(std::string_view fen);

// The position of `fen` in `variant` ("russian", "international"), or in
// the variant its squares name when `variant` is nullopt. Throws
// StatusError(DTB_BAD_POSITION) with the parser's message, or with what
// to pass when the variant cannot be told.
dtb_position read_position(const std::optional<std::string>& variant, const std::string& fen);

// The FEN of a position, as dtb probe prints it (Russian squares algebraic).
std::string fen_of(const dtb_position& pos);

}  // namespace dtb::python
