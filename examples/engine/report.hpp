// Text and JSON for what the engine did: one search, a game, the benchmark.
#pragma once

#include <ostream>

#include "bench.hpp"
#include "game.hpp"

namespace engine {

void print_search(std::ostream& out, int variant, const Position& pos, const SearchResult& r, bool json);
void print_game(std::ostream& out, int variant, const Position& start, const Game& game, bool json);
void print_bench(std::ostream& out, const BenchReport& report, bool json);

}  // namespace engine
