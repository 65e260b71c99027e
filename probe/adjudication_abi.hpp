// An adjudication (probe/adjudication.hpp) to and from dtb_adjudication,
// the C API's codes and numbers (dtb/probe.h). From C it is checked field
// by field: a caller may hand dtb_adjudication_verdict anything.
#pragma once

#include <optional>
#include <span>

#include "dtb/probe.h"
#include "probe/adjudication.hpp"
#include "rules/draw_rules.hpp"

namespace dtb::probe {

// `rules`: the variant's table (V::draw_rules); `c_variant`: DTB_RUSSIAN or
// DTB_INTERNATIONAL.
void adjudication_to_c(std::span<const DrawRule> rules, int c_variant, const Adjudication& a, dtb_adjudication& c);

// nullopt when `c` is not what adjudication_to_c writes for `rules`: a code
// or an index out of range, or a verdict that would need a number it lacks.
std::optional<Adjudication> adjudication_from_c(std::span<const DrawRule> rules, const dtb_adjudication& c);

}  // namespace dtb::probe
