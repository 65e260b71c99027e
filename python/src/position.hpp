// Positions from FEN text through the C API (dtb_position_from_fen), in a
// variant the caller names: the module never tells the variant from how
// the squares are written (python/dtb/__init__.py takes it from the call
// or from the handle).
#pragma once

#include <string>
#include <string_view>

#include "dtb/probe.h"

namespace dtb::python {

// The C code of a variant name (dtb_variant_from_name); throws
// std::invalid_argument (ValueError) for any other name.
int variant_code(std::string_view name);

// The position of `fen` in `variant`. Throws StatusError(DTB_BAD_POSITION)
// with the parser's message.
dtb_position read_position(const std::string& variant, const std::string& fen);

// The FEN of a position, as dtb probe prints it (8x8 squares algebraic).
std::string fen_of(const dtb_position& pos);

}  // namespace dtb::python
