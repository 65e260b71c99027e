// The .dtc tables (gen/dtc_tables.hpp): written pair by pair from files,
// read back equal to the values solved in memory (king against king's
// derived W included), verified from their successors, and a wrong value
// or a damaged file found by that verification.
#include "gen/dtc_tables.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

#include "compress/table_file.hpp"
#include "gen/generate.hpp"
#include "gen/level_file.hpp"
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

// The bytes of every file of `from` (with extension `only`, when given)
// equal those of the same name in `to`; returns how many were compared.
int expect_same_files(const std::filesystem::path& from, const std::filesystem::path& to,
                      const std::string& only = {}) {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(from)) {
        if (!entry.is_regular_file() || (!only.empty() && entry.path().extension() != only)) continue;
        const auto read = [](const std::filesystem::path& p) {
            std::ifstream in(p, std::ios::binary);
            return std::string(std::istreambuf_iterator<char>(in), {});
        };
        EXPECT_EQ(read(entry.path()), read(to / entry.path().filename())) << entry.path().filename();
        ++files;
    }
    EXPECT_GT(files, 0);
    return files;
}

// Solved by levels, a level's blocks a few men placements each, with its
// levels in scratch files: the same bytes as solved whole in memory.
template <class V>
void levels_match_whole(int pieces) {
    ScratchDir whole, levels;
    std::ostringstream log;
    DtcBuildOptions options;
    options.threads = 2;
    options.whole_below = std::uint64_t{1} << 40;
    build_dtc_tables(V::id, all_signatures(V::id, pieces), whole.path(), log, options);
    options.whole_below = 0;
    options.block_positions = 3000;
    std::set<std::string> by_levels;
    options.progress = [&](const MaterialSignature& pair, const std::string&) { by_levels.insert(pair.name()); };
    build_dtc_tables(V::id, all_signatures(V::id, pieces), levels.path(), log, options);
    EXPECT_GT(by_levels.size(), 3u);
    expect_same_files(whole.path(), levels.path());
    EXPECT_FALSE(std::filesystem::exists(levels / ".dtb-work")) << "scratch files are removed";
}

TEST(DtcTables, RussianLevelsMatchWhole) { levels_match_whole<Russian>(4); }
TEST(DtcTables, InternationalLevelsMatchWhole) { levels_match_whole<International>(3); }

// Interrupted in the middle of a pair, the build goes on from the levels
// it wrote, solving only those below, and makes the same files.
TEST(DtcTables, ResumesFromTheLevelsWritten) {
    ScratchDir fresh, resumed;
    std::ostringstream log;
    DtcBuildOptions options;
    options.whole_below = 0;
    options.block_positions = 5000;
    const auto targets = all_signatures(VariantId::Russian, 4);
    build_dtc_tables(VariantId::Russian, targets, fresh.path(), log, options);
    const MaterialSignature victim = *MaterialSignature::parse("MMvMM");
    options.progress = [&](const MaterialSignature& pair, const std::string& stage) {
        if (pair == victim && stage == "level 3") throw std::runtime_error("power cut");
    };
    try {
        build_dtc_tables(VariantId::Russian, targets, resumed.path(), log, options);
        FAIL() << "the build was not interrupted";
    } catch (const std::runtime_error& e) {
        EXPECT_EQ(std::string(e.what()), "power cut");
    }
    const auto work = resumed / ".dtb-work" / "russian-MMvMM.dtc";
    ASSERT_TRUE(std::filesystem::exists(work / "level-04.slice")) << "the levels above were kept";
    ASSERT_TRUE(std::filesystem::exists(work / "level-05.slice"));
    EXPECT_FALSE(std::filesystem::exists(resumed / "russian-MMvMM.dtc"));
    // A damaged scratch file is solved again.
    std::filesystem::resize_file(work / "level-04.slice", std::filesystem::file_size(work / "level-04.slice") / 2);
    std::set<std::string> stages;
    options.progress = [&](const MaterialSignature& pair, const std::string& stage) {
        if (pair == victim) stages.insert(stage);
    };
    build_dtc_tables(VariantId::Russian, targets, resumed.path(), log, options);
    EXPECT_FALSE(stages.count("level 5")) << "levels written before the interruption are not solved again";
    EXPECT_TRUE(stages.count("level 4")) << "a damaged scratch file is made again";
    EXPECT_TRUE(stages.count("level 0"));
    EXPECT_FALSE(std::filesystem::exists(work)) << "scratch files are removed when the pair is done";
    expect_same_files(fresh.path(), resumed.path());
}

// The .dtc files of every table up to `pieces` built into `dir` after the
// WDL/DTW tables, those keeping their levels (dtb gen --dtc) or not, with
// the levels held in memory or written (held_below).
std::ostringstream& quiet() {
    static std::ostringstream log;
    log.str({});
    return log;
}
void build_with_dtc(const std::filesystem::path& dir, int pieces, bool keep_levels, std::uint64_t held_below,
                    const std::function<void()>& between = {}) {
    GenerateOptions o;
    o.variant = VariantId::Russian;
    o.max_pieces = pieces;
    o.dir = dir;
    o.threads = 2;
    o.keep_exact_levels = keep_levels;
    o.held_slices_positions = held_below;
    generate_tables(o, quiet());
    if (between) between();
    DtcBuildOptions options;
    options.threads = 2;
    options.whole_below = 20000;  // some pairs whole in memory, the rest by levels
    options.block_positions = 3000;
    build_dtc_tables(VariantId::Russian, all_signatures(VariantId::Russian, pieces), dir, quiet(), options);
}

void expect_same_dtc_files(const std::filesystem::path& from, const std::filesystem::path& to) {
    EXPECT_EQ(expect_same_files(from, to, ".dtc"), int(all_signatures(VariantId::Russian, 4).size()));
}

// The WDL/DTW build's levels kept for the .dtc build (which skips the
// positions drawn there) give the same .dtc files as a build from the
// finished tables alone, whether the levels were held in memory or written;
// the kept levels are removed once read.
TEST(DtcTables, KeptLevelsGiveTheSameFiles) {
    ScratchDir plain, held, written;
    build_with_dtc(plain.path(), 4, false, std::uint64_t{1} << 27);
    const MaterialSignature pair = pair_key(*MaterialSignature::parse("KMvMM"));
    bool kept = false;
    build_with_dtc(held.path(), 4, true, std::uint64_t{1} << 27, [&] {
        kept = std::filesystem::exists(level_file_path(exact_levels_dir(held.path(), VariantId::Russian, pair), 0));
    });
    EXPECT_TRUE(kept) << "levels held in memory are written for the .dtc build";
    build_with_dtc(written.path(), 4, true, 0);
    expect_same_dtc_files(plain.path(), held.path());
    expect_same_dtc_files(plain.path(), written.path());
    EXPECT_FALSE(std::filesystem::exists(held / ".dtb-work")) << "kept levels are removed";
    EXPECT_FALSE(std::filesystem::exists(written / ".dtb-work"));
}

// A kept level that is damaged is not read (the pair is solved in full, to
// the same files); one that disagrees with its pair stops the build,
// naming it.
TEST(DtcTables, KeptLevelsDamagedOrWrong) {
    ScratchDir plain, damaged, wrong;
    build_with_dtc(plain.path(), 4, false, 0);
    const MaterialSignature pair = pair_key(*MaterialSignature::parse("KMvMM"));
    const auto level_0 = [&](const ScratchDir& d) {
        return level_file_path(exact_levels_dir(d.path(), VariantId::Russian, pair), 0);
    };
    build_with_dtc(damaged.path(), 4, true, 0, [&] {
        const auto path = level_0(damaged);
        ASSERT_TRUE(std::filesystem::exists(path));
        std::filesystem::resize_file(path, std::filesystem::file_size(path) - 100);
    });
    expect_same_dtc_files(plain.path(), damaged.path());
    try {
        build_with_dtc(wrong.path(), 4, true, 0, [&] {
            // The same level with each capture bit turned over.
            const auto path = level_0(wrong);
            auto file = compress::TableFile::open(path, nullptr);
            ASSERT_TRUE(file);
            LevelReader reader(file->get());
            std::vector<std::uint16_t> symbols((*file)->position_count());
            for (std::uint64_t i = 0; i < symbols.size(); ++i) symbols[i] = reader.read(i) ^ kLevelCapture;
            file->reset();
            compress::write_table(path, level_description(VariantId::Russian, pair, PositionIndex<Russian>::kVersion),
                                  std::span<const std::uint16_t>(symbols), {}, level_writer_options());
        });
        FAIL() << "a level that is not its pair's was read";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("level-00.slice does not match its pair"), std::string::npos) << e.what();
    }
}

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

// Verified by levels (a level compared with the file as it is solved): a
// wrong value in a position that is stored is found and named, a damaged
// file reported.
TEST(DtcTables, VerifyByLevelsFindsAWrongValueAndADamagedFile) {
    ScratchDir dir;
    std::ostringstream log;
    DtcBuildOptions options;
    options.whole_below = 0;
    build_dtc_tables(VariantId::Russian, all_signatures(VariantId::Russian, 3), dir.path(), log, options);
    EXPECT_EQ(mismatches(verify_dtc_tables(VariantId::Russian, dir.path(), log, {}, 0)), 0u);

    // MMvK (a lone king, no count of its own: solved by levels), rewritten
    // with one stored position's entry changed.
    const MaterialSignature mmvk = *MaterialSignature::parse("MMvK");
    ASSERT_FALSE(RuleSolver<Russian>().solved_whole(mmvk));
    const auto path = dir / table_file_name(VariantId::Russian, mmvk, compress::Metric::dtc);
    auto whole = compress::read_whole_table(path);
    ASSERT_TRUE(whole);
    ASSERT_EQ(whole->header.symbol_bits, 16u);
    const std::vector<std::uint8_t> captures = RuleSolver<Russian>::capture_positions(mmvk);
    std::uint64_t changed = 500;
    while (captures.at(changed)) ++changed;
    std::vector<std::uint16_t> words = whole->words;
    words[changed] = words[changed] == 0 ? 1 : 0;
    compress::write_table(path, whole->header.table, std::span<const std::uint16_t>(words));
    const auto wrong = verify_dtc_tables(VariantId::Russian, dir.path(), log, {mmvk}, 0);
    ASSERT_EQ(wrong.size(), 1u);
    EXPECT_EQ(wrong[0].mismatches, 1u);
    ASSERT_EQ(wrong[0].examples.size(), 1u);
    EXPECT_NE(wrong[0].examples[0].find(to_fen(PositionIndex<Russian>(mmvk).unrank(changed))), std::string::npos)
        << wrong[0].examples[0];

    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(-3, std::ios::end);
    f.put('\x5A');
    f.close();
    std::uint64_t damaged = 0;
    mismatches(verify_dtc_tables(VariantId::Russian, dir.path(), log, {mmvk}, 0), &damaged);
    EXPECT_EQ(damaged, 1u);
}

// Where no lone-king count can run (Brazilian has none), a lone-king
// table keeps T alone, in bytes. A file of the same table written with a
// lone-king field (as dtb wrote every lone-king table before) verifies
// alike, the field never read, and a wrong T in it is still found.
TEST(DtcTables, NoLoneKingFieldWhereNoCountCanRun) {
    ScratchDir dir;
    std::ostringstream log;
    build_dtc_tables(VariantId::Brazilian, all_signatures(VariantId::Brazilian, 3), dir.path(), 1, log);
    const MaterialSignature kkvk = *MaterialSignature::parse("KKvK");
    ASSERT_TRUE(lone_king_material(kkvk));
    ASSERT_FALSE(has_lone_values<Brazilian>(kkvk));
    const auto path = dir / table_file_name(VariantId::Brazilian, kkvk, compress::Metric::dtc);
    auto whole = compress::read_whole_table(path);
    ASSERT_TRUE(whole);
    ASSERT_EQ(whole->header.symbol_bits, 8u);

    std::vector<std::uint16_t> words(whole->bytes.begin(), whole->bytes.end());
    for (std::uint16_t& w : words) w |= std::uint16_t(7 << 8);  // a win with 7 moves left, never read
    compress::write_table(path, whole->header.table, std::span<const std::uint16_t>(words));
    for (const std::uint64_t whole_below : {std::uint64_t{0}, kDtcWholeBelow})
        EXPECT_EQ(mismatches(verify_dtc_tables(VariantId::Brazilian, dir.path(), log, {kkvk}, whole_below)), 0u);

    const std::vector<std::uint8_t> captures = RuleSolver<Brazilian>::capture_positions(kkvk);
    std::uint64_t changed = 100;
    while (captures.at(changed)) ++changed;
    words[changed] ^= 1;  // T: a draw and a win, or a win and a loss, swapped
    compress::write_table(path, whole->header.table, std::span<const std::uint16_t>(words));
    for (const std::uint64_t whole_below : {std::uint64_t{0}, kDtcWholeBelow})
        EXPECT_EQ(mismatches(verify_dtc_tables(VariantId::Brazilian, dir.path(), log, {kkvk}, whole_below)), 1u);
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
    const std::uint64_t need = RuleSolver<Russian>().memory_bound(kkvk);
    EXPECT_GT(need, RuleSolver<Russian>().memory_bound(*MaterialSignature::parse("KvK")));

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
