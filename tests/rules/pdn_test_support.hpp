// Helpers shared by the PDN tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rules/notation.hpp"
#include "rules/pdn.hpp"

namespace dtb::test {

// The moves of a game as move_text writes them.
template <class V>
std::vector<std::string> move_texts(const PdnGame<V>& game) {
    std::vector<std::string> texts;
    for (const auto& ply : game.plies) texts.push_back(move_text(ply.before, ply.move));
    return texts;
}

// Passes when `part` occurs in `text` (gmock's HasSubstr without gmock).
inline testing::AssertionResult Contains(const char*, const char*, const std::string& text, const std::string& part) {
    if (text.find(part) != std::string::npos) return testing::AssertionSuccess();
    return testing::AssertionFailure() << "the message\n  " << text << "\nlacks\n  " << part;
}

}  // namespace dtb::test

#define EXPECT_CONTAINS(text, part) EXPECT_PRED_FORMAT2(::dtb::test::Contains, text, part)
