// The .dtc tables (gen/dtc_tables.hpp): written pair by pair from files,
// read back equal to the values solved in memory (king against king's
// derived W included), verified from their successors, and a wrong value
// or a damaged file found by that verification.
#include "gen/dtc_tables.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "compress/table_file.hpp"
#include "gen/memory_budget.hpp"
#include "gen/rule_solver.hpp"
#include "rules/notation.hpp"
#include "tables/table_names.hpp"
#include "tests/scratch_dir.hpp"

namespace dtb {
namespace {

using test_support::ScratchDir;

// Every table up to `pieces` built into `dir` pair by pair (children read
// back from the files) gives every position the entry of the solver that
// kept everything in memory, in both orientations: read from the file, or
// for a capture position (not stored) worked out from its captures.
template <class V>
void files_match_memory(int pieces) {
    ScratchDir dir;
    std::ostringstream log;
    const auto built = build_dtc_tables(V::id, all_signatures(V::id, pieces), dir.path(), 1, log);
    EXPECT_EQ(built.size(), all_signatures(V::id, pieces).size());
    const RuleSolver<V> memory(pieces);
    RuleSolver<V> files;
    files.open_files(dir.path(), all_signatures(V::id, pieces));
    std::uint64_t checked = 0, lone = 0;
    for (const MaterialSignature& sig : all_signatures(V::id, pieces)) {
        const PositionIndex<V> index(sig);
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const Position<V> n = index.unrank(i);
            for (const bool ours : {true, false}) {
                ASSERT_EQ(files.entry(n, ours), memory.entry(n, ours)) << sig.name() << " " << to_fen(n);
                lone += ours && memory.entry(n, ours).least_win != kNever;
            }
            ++checked;
        }
    }
    EXPECT_GT(lone, 0u);  // the lone-king field was written and read
    std::cout << checked << " positions alike, " << lone << " with a lone-king win stored\n";
    // A second run finds every table there.
    EXPECT_TRUE(build_dtc_tables(V::id, all_signatures(V::id, pieces), dir.path(), 1, log).empty());
}

TEST(DtcTables, RussianFilesMatchMemory) { files_match_memory<Russian>(3); }
TEST(DtcTables, InternationalFilesMatchMemory) { files_match_memory<International>(3); }

std::uint64_t mismatches(const std::vector<VerifyReport>& reports, std::uint64_t* damaged = nullptr) {
    std::uint64_t n = 0;
    for (const VerifyReport& r : reports) {
        n += r.mismatches;
        if (damaged) *damaged += !r.damaged.empty();
    }
    return n;
}

TEST(DtcTables, VerifyFindsAWrongValueAndADamagedFile) {
    ScratchDir dir;
    std::ostringstream log;
    build_dtc_tables(VariantId::Russian, all_signatures(VariantId::Russian, 3), dir.path(), 1, log);
    std::uint64_t damaged = 0;
    const auto clean = verify_dtc_tables(VariantId::Russian, dir.path(), log);
    EXPECT_EQ(clean.size(), all_signatures(VariantId::Russian, 3).size());
    EXPECT_EQ(mismatches(clean, &damaged), 0u);
    EXPECT_EQ(damaged, 0u);

    // KKvK rewritten, valid checksums, one position's T changed.
    const MaterialSignature kkvk = *MaterialSignature::parse("KKvK");
    const auto path = dir / table_file_name(VariantId::Russian, kkvk, compress::Metric::dtc);
    auto whole = compress::read_whole_table(path);
    ASSERT_TRUE(whole);
    std::vector<std::uint16_t> words = whole->words;
    ASSERT_FALSE(words.empty());
    words[100] = words[100] == 0 ? 1 : 0;
    compress::write_table(path, whole->header.table, std::span<const std::uint16_t>(words));
    const auto wrong = verify_dtc_tables(VariantId::Russian, dir.path(), log, {kkvk});
    ASSERT_EQ(wrong.size(), 1u);
    EXPECT_EQ(wrong[0].mismatches, 1u);
    ASSERT_EQ(wrong[0].examples.size(), 1u);

    // A byte of its data flipped: its checksum fails.
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-3, std::ios::end);
    f.put('\x5A');
    f.close();
    damaged = 0;
    mismatches(verify_dtc_tables(VariantId::Russian, dir.path(), log, {kkvk}), &damaged);
    EXPECT_EQ(damaged, 1u);
}

// A smaller table's .dtc file missing: the pairs that convert into it (or
// into a table that does: capture positions are read from their captures)
// are not checked, naming it, and the rest of the run goes on.
TEST(DtcTables, VerifyGoesOnPastAMissingFile) {
    ScratchDir dir;
    std::ostringstream log;
    build_dtc_tables(VariantId::Russian, all_signatures(VariantId::Russian, 3), dir.path(), 1, log);
    const auto mvm = *MaterialSignature::parse("MvM");
    std::filesystem::remove(dir / table_file_name(VariantId::Russian, mvm, compress::Metric::dtc));
    const auto reports = verify_dtc_tables(VariantId::Russian, dir.path(), log);
    EXPECT_EQ(reports.size(), all_signatures(VariantId::Russian, 3).size() - 1);  // all but MvM
    int unchecked = 0, checked = 0;
    for (const VerifyReport& r : reports) {
        if (r.unchecked.empty()) {
            EXPECT_TRUE(r.ok()) << r.signature.name();
            ++checked;
            continue;
        }
        EXPECT_FALSE(r.ok());
        EXPECT_NE(r.unchecked[0].find("russian-MvM.dtc"), std::string::npos) << r.unchecked[0];
        ++unchecked;
    }
    EXPECT_GE(unchecked, 1);  // MMvM at least: a capture leaves MvM
    EXPECT_GE(checked, 1);    // KvK at least: nothing it reaches needs MvM
}

// The memory limit (dtb gen --dtc --memory): a pair whose values and
// largest level's scratch do not fit is refused before it is solved, with
// nothing written, naming the pair and --memory; one that fits is solved.
TEST(DtcTables, MemoryLimitRefusesAPairAndNamesIt) {
    ScratchDir dir;
    std::ostringstream log;
    const auto kkvk = *MaterialSignature::parse("KKvK");
    try {
        build_dtc_tables(VariantId::Russian, {kkvk}, dir.path(), 1, log, std::uint64_t{1} << 20);
        FAIL() << "1 MiB should not be enough";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("KvK"), std::string::npos) << e.what();  // the first pair it needs
        EXPECT_NE(std::string(e.what()).find("--memory"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
    const std::uint64_t need = RuleSolver<Russian>::memory_bound(kkvk);
    EXPECT_GT(need, RuleSolver<Russian>::memory_bound(*MaterialSignature::parse("KvK")));

    RuleSolver<Russian> solver(2);
    solver.set_memory_limit(need - 1);
    try {
        solver.solve_pair(kkvk);
        FAIL() << "KKvK should not fit in one byte less than it needs";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("KKvK"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("--memory"), std::string::npos) << e.what();
    }
    // With room, the same pair is solved, as without a limit.
    solver.set_memory_limit(need);
    solver.solve_pair(kkvk);
    const RuleSolver<Russian> unlimited(3);
    const PositionIndex<Russian> index(kkvk);
    for (std::uint64_t i = 0; i < index.size(); i += 97)
        ASSERT_EQ(solver.entry(index.unrank(i), true), unlimited.entry(index.unrank(i), true)) << i;
}

}  // namespace
}  // namespace dtb
