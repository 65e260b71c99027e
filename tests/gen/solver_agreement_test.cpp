// The fast generator against the simple reference solver, on every position
// of every table up to 4 pieces, every variant.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "gen/generate.hpp"
#include "gen/raw_table.hpp"
#include "rules/notation.hpp"
#include "simple_solver.hpp"

namespace dtb {
namespace {

template <class V>
void check_agreement(VariantId variant, int pieces) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("dtb-agreement-" + std::string(V::name) + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    GenerateOptions options;
    options.variant = variant;
    options.max_pieces = pieces;
    options.dir = dir;
    options.keep_raw = true;  // the exact values, to compare with the reference
    std::ostringstream log;
    const auto built = generate_tables(options, log);
    ASSERT_FALSE(built.empty());

    ExactTables<V> tables;  // every table, for looking values up
    for (const TableStats& s : built) tables.add(read_raw_table(raw_table_path(dir, variant, s.signature)));

    const reference::SimpleSolver<V> reference(pieces);
    std::uint64_t compared = 0, mismatches = 0;
    reference.for_each_position([&](const Position<V>& pos) {
        ++compared;
        const int expected = reference.value(pos);
        const int actual = tables.value(pos);
        if (expected != actual && ++mismatches <= 20)
            ADD_FAILURE() << to_fen(pos) << ": reference " << expected << ", generator " << actual;
    });
    std::uint64_t table_positions = 0;
    for (const TableStats& s : built) table_positions += s.positions;
    EXPECT_EQ(mismatches, 0u);
    // The reference keeps both sides to move; the tables keep White to move.
    EXPECT_EQ(compared, 2 * table_positions) << "both solvers must cover the same positions";
    std::filesystem::remove_all(dir);
}

TEST(SolverAgreement, RussianUpTo4Pieces) { check_agreement<Russian>(VariantId::Russian, 4); }

TEST(SolverAgreement, InternationalUpTo4Pieces) { check_agreement<International>(VariantId::International, 4); }

TEST(SolverAgreement, BrazilianUpTo4Pieces) { check_agreement<Brazilian>(VariantId::Brazilian, 4); }

}  // namespace
}  // namespace dtb
