// A Ruling (ruling.hpp) to and from dtb_adjudication, the C API's codes
// and numbers (dtb/adjudication.h). From C it is checked field by field: a
// caller may hand dtb_adjudication_verdict anything.
#pragma once

#include <optional>
#include <span>

#include "adjudication/ruling.hpp"
#include "dtb/adjudication.h"
#include "rules/draw_rules.hpp"

namespace dtb::adjudication {

// `rules`: the variant's table (V::draw_rules); `c_variant`: DTB_RUSSIAN or
// DTB_INTERNATIONAL.
void ruling_to_c(std::span<const DrawRule> rules, int c_variant, const Ruling& a, dtb_adjudication& c);

// nullopt when `c` is not what ruling_to_c writes for `rules`: a code
// or an index out of range, or a verdict that would need a number it lacks.
std::optional<Ruling> ruling_from_c(std::span<const DrawRule> rules, const dtb_adjudication& c);

}  // namespace dtb::adjudication
