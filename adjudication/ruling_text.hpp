// A Ruling (ruling.hpp) in words: the one place where its values become
// the sentences dtb adjudicate prints and dtb_adjudication_verdict
// (dtb/adjudication.h) writes.
#pragma once

#include <span>
#include <string>

#include "adjudication/ruling.hpp"
#include "rules/draw_rules.hpp"

namespace dtb::adjudication {

// The verdict: which rule ends the game, whether the stronger side can win
// within it, and why, or why the tables cannot say. `rules` is the table
// the ruling indexes (V::draw_rules).
std::string verdict_text(std::span<const DrawRule> rules, const Ruling& a);

// "no rule", "count", "wdl", "dtw", "search", "dtc".
const char* basis_name(Basis b);

// Why a rule does not apply, in words; "" when it does.
const char* rule_note_text(RuleNote n);

}  // namespace dtb::adjudication
