// dtb gen's promises: the same bytes for any number of threads, resuming
// after an interruption, refusing damaged inputs; and dtb verify catching a
// wrong value.
#include "gen/generate.hpp"

#include <gtest/gtest.h>
#include <omp.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <sstream>

#include "compress/table_file.hpp"
#include "gen/level_file.hpp"
#include "gen/memory_budget.hpp"
#include "gen/raw_table.hpp"
#include "gen/verify.hpp"
#include "rules/movegen.hpp"
#include "tables/position_index.hpp"
#include "tables/signatures.hpp"
#include "tables/stored_positions.hpp"
#include "tables/table_names.hpp"
#include "tables/values.hpp"

namespace dtb {
namespace {

namespace fs = std::filesystem;

// Small loops on one thread, as dtb gen runs them.
const std::uint64_t kDefaultParallel = GenerateOptions{}.parallel_positions;

class ScratchDir {
public:
    explicit ScratchDir(const std::string& name)
        : path_(fs::temp_directory_path() / ("dtb-gen-test-" + name + "-" + std::to_string(::getpid()))) {
        fs::remove_all(path_);
    }
    ~ScratchDir() { fs::remove_all(path_); }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

std::string read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// Pairs side by side share the windows and the solving memory; the reserve
// is the process's, held once, so the shares and it never pass the limit.
TEST(MemoryBudget, PairsSideBySideShareTheLimit) {
    const MemoryBudget whole(std::uint64_t{2} << 30);
    for (int ways : {1, 2, 3, 16}) {
        const MemoryBudget share = whole.shared(ways);
        EXPECT_EQ(share.total(), whole.total());
        EXPECT_LE(share.solving_bytes() * std::uint64_t(ways), whole.solving_bytes());
        EXPECT_GT(share.solving_bytes() * std::uint64_t(ways), whole.solving_bytes() - std::uint64_t(ways));
        EXPECT_LE(share.windows() * std::uint64_t(ways), whole.windows());
        EXPECT_LE(whole.reserve() + std::uint64_t(ways) * (share.windows() + share.solving_bytes()), whole.total());
    }
    EXPECT_NE(whole.shared(3).describe().find("1 of 3 shares"), std::string::npos);
    // A pair that runs on several of the threads takes as many shares; the
    // pairs running at once never hold more than all the shares.
    const int ways = 16;
    std::uint64_t solving = 0, windows = 0;
    for (int parts : {4, 8, 1, 3}) {
        const MemoryBudget share = whole.shared(ways, parts);
        EXPECT_GE(share.solving_bytes(), whole.shared(ways).solving_bytes() * std::uint64_t(parts));
        solving += share.solving_bytes();
        windows += share.windows();
    }
    EXPECT_LE(solving, whole.solving_bytes());
    EXPECT_LE(whole.reserve() + solving + windows, whole.total());
    EXPECT_EQ(whole.shared(4, 9).solving_bytes(), whole.shared(4, 4).solving_bytes());  // never more than the whole
}

// What a pair's slices do not need of the solving memory goes to its
// windows on the smaller tables, and the whole stays within the limit.
TEST(MemoryBudget, WindowsTakeWhatTheSlicesLeave) {
    const MemoryBudget whole(std::uint64_t{2} << 30);
    for (int ways : {1, 4}) {
        const MemoryBudget share = whole.shared(ways);
        for (int threads : {1, 2}) {
            for (std::uint64_t need : {std::uint64_t{0}, share.solving_bytes() / 3, share.solving_bytes()}) {
                const std::uint64_t windows = share.window_bytes(threads, need) * std::uint64_t(threads);
                EXPECT_GE(share.window_bytes(threads, need), share.window_bytes(threads));
                EXPECT_LE(whole.reserve() + std::uint64_t(ways) * (need + windows), whole.total())
                    << ways << " ways, " << threads << " threads, need " << need;
            }
            EXPECT_EQ(share.window_bytes(threads, share.solving_bytes()), share.window_bytes(threads));
            EXPECT_EQ(share.window_bytes(threads, 2 * share.solving_bytes()), share.window_bytes(threads));
        }
    }
    // A machine's worth of memory does not make each window's slots a burden.
    EXPECT_EQ(MemoryBudget(std::uint64_t{1} << 40).window_bytes(1, 0), std::size_t{4} << 30);
}

// Every table file of a directory (manifests aside: they record seconds).
std::map<std::string, std::string> table_files(const fs::path& dir) {
    std::map<std::string, std::string> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.is_regular_file() && e.path().extension() != ".json")
            files[e.path().filename().string()] = read_file(e.path());
    return files;
}

// The table files of `actual` are those of `expected`, byte for byte.
void expect_same_table_files(const fs::path& expected, const fs::path& actual, const std::string& when) {
    const auto a = table_files(expected), b = table_files(actual);
    ASSERT_EQ(a.size(), b.size()) << when;
    for (const auto& [name, bytes] : a) {
        const auto it = b.find(name);
        EXPECT_TRUE(it != b.end() && it->second == bytes) << name << " differs " << when;
    }
}

// Scratch files for every pair's slices: the resumption tests need them.
constexpr std::uint64_t kSliceFiles = 0;

std::vector<TableStats> generate(VariantId variant, int pieces, const fs::path& dir, int threads,
                                 std::uint64_t parallel_positions,
                                 std::function<void(const MaterialSignature&, const std::string&)> hook = {},
                                 std::uint64_t held_slices_positions = GenerateOptions{}.held_slices_positions) {
    GenerateOptions o;
    o.keep_raw = true;
    o.held_slices_positions = held_slices_positions;
    o.stage_hook = std::move(hook);
    o.variant = variant;
    o.max_pieces = pieces;
    o.dir = dir;
    o.threads = threads;
    o.parallel_positions = parallel_positions;
    // Every loop in parallel, however small, means every pair with all
    // threads too (not side by side, each on one thread).
    if (parallel_positions == 0) o.side_by_side_positions = 0;
    std::ostringstream log;
    return generate_tables(o, log);
}

TEST(Generate, ThreadCountDoesNotChangeABit) {
    for (VariantId variant : {VariantId::Russian, VariantId::International}) {
        ScratchDir one("one"), two("two"), side("side");
        generate(variant, 3, one.path(), 1, 0);
        generate(variant, 3, two.path(), 2, 0);                  // every loop in parallel, however small
        generate(variant, 3, side.path(), 2, kDefaultParallel);  // small pairs side by side, one per thread
        ASSERT_GT(table_files(one.path()).size(), 10u);
        expect_same_table_files(one.path(), two.path(), "with every loop in parallel");
        expect_same_table_files(one.path(), side.path(), "with pairs side by side");
    }
}

// Pairs side by side: while fewer are ready than threads are free, the idle
// threads join them (a pair's loops then run on several threads); the
// files are the same.
TEST(Generate, IdleThreadsJoinThePairsSideBySide) {
    ScratchDir one("one"), four("four");
    generate(VariantId::Russian, 3, one.path(), 1, 0);
    std::mutex lock;
    std::map<std::string, int> threads_of;
    generate(VariantId::Russian, 3, four.path(), 4, kDefaultParallel,
             [&](const MaterialSignature& pair, const std::string&) {
                 const int threads = omp_get_max_threads();
                 std::lock_guard guard(lock);
                 threads_of[pair.name()] = std::max(threads_of[pair.name()], threads);
             });
    ASSERT_GT(threads_of.size(), 5u);
    int most = 0;
    for (const auto& [pair, threads] : threads_of) {
        EXPECT_LE(threads, 4) << pair;
        most = std::max(most, threads);
    }
    EXPECT_GT(most, 1) << "no pair was joined by the idle threads";
    expect_same_table_files(one.path(), four.path(), "with idle threads joining");
}

// Every file of a table records its longest win and loss (format version
// 2), the same as its manifest; and the manifest is the documented JSON.
TEST(Generate, HeadersRecordTheLongestWinAndLoss) {
    ScratchDir dir("longest");
    const auto built = generate(VariantId::Russian, 3, dir.path(), 1, 0);
    ASSERT_FALSE(built.empty());
    bool some_win = false, some_loss = false;
    for (const TableStats& s : built) {
        const RawTableHeader raw = read_raw_header(raw_table_path(dir.path(), VariantId::Russian, s.signature));
        EXPECT_EQ(raw.longest_win, s.longest_win) << s.signature.name();
        EXPECT_EQ(raw.longest_loss, s.longest_loss) << s.signature.name();
        for (const compress::Metric m : {compress::Metric::wdl, compress::Metric::dtw}) {
            auto file =
                compress::TableFile::open(dir.path() / table_file_name(VariantId::Russian, s.signature, m), nullptr);
            ASSERT_TRUE(file.ok()) << file.error().message;
            EXPECT_EQ((*file)->header().format_version, compress::kDefaultFormatVersion);
            EXPECT_EQ((*file)->header().table.longest_win, s.longest_win) << s.signature.name();
            EXPECT_EQ((*file)->header().table.longest_loss, s.longest_loss) << s.signature.name();
        }
        some_win = some_win || s.longest_win > 0;
        some_loss = some_loss || s.longest_loss > 0;
        const std::string manifest = read_file(manifest_path(dir.path(), VariantId::Russian, s.signature));
        EXPECT_EQ(manifest, manifest_json(VariantId::Russian, s));
        EXPECT_EQ(manifest.rfind("{\n  \"variant\": \"russian\",\n  \"signature\": \"" + s.signature.name() + "\",", 0),
                  0u)
            << manifest;
        EXPECT_FALSE(fs::exists(manifest_path(dir.path(), VariantId::Russian, s.signature).string() + ".tmp"));
    }
    EXPECT_TRUE(some_win && some_loss);
}

TEST(Generate, ResumesAfterAnInterruption) {
    ScratchDir fresh("fresh"), resumed("resumed");
    generate(VariantId::Russian, 4, fresh.path(), 2, kDefaultParallel);
    const fs::path& dir = resumed.path();
    // Interrupted in the middle of a pair of many slices, after some of its
    // slices were written to scratch files.
    const MaterialSignature victim = *MaterialSignature::parse("MMvMM");
    bool interrupted = false;
    try {
        generate(
            VariantId::Russian, 4, dir, 2, kDefaultParallel,
            [&](const MaterialSignature& pair, const std::string& stage) {
                if (pair == victim && stage.starts_with("slice 3 distance")) throw std::runtime_error("power cut");
            },
            kSliceFiles);
    } catch (const std::runtime_error& e) {
        interrupted = std::string(e.what()) == "power cut";
    }
    ASSERT_TRUE(interrupted);
    const fs::path work = dir / ".dtb-work" / "russian-MMvMM";
    ASSERT_TRUE(fs::exists(work / "level-04.slice")) << "the slices above were kept";
    EXPECT_FALSE(fs::exists(dir / "russian-MMvMM.wdl"));
    // What else an interruption can leave: a finished table without its
    // manifest, a half-written temporary file, a damaged scratch file.
    fs::remove(dir / "russian-KMvK.json");
    std::ofstream(dir / "russian-KKvM.wdl.tmp") << "half a table";
    fs::resize_file(work / "level-04.slice", fs::file_size(work / "level-04.slice") / 2);
    std::set<std::string> stages;
    const auto rebuilt = generate(
        VariantId::Russian, 4, dir, 2, kDefaultParallel,
        [&](const MaterialSignature& pair, const std::string& stage) {
            if (pair == victim) stages.insert(stage.substr(0, stage.find(' ', 6)));
        },
        kSliceFiles);
    std::set<std::string> names;
    for (const TableStats& s : rebuilt) names.insert(s.signature.name());
    EXPECT_TRUE(names.count("KMvK")) << "manifest rewritten";
    EXPECT_TRUE(names.count("MMvMM")) << "finished";
    EXPECT_FALSE(names.count("KKvK")) << "finished tables are kept";
    EXPECT_FALSE(stages.count("slice 5")) << "slices written before the interruption are not solved again";
    EXPECT_TRUE(stages.count("slice 4")) << "a damaged scratch file is made again";
    EXPECT_FALSE(fs::exists(work)) << "scratch files are removed when the pair is done";
    fs::remove(dir / "russian-KKvM.wdl.tmp");
    expect_same_table_files(fresh.path(), dir, "after resuming");
    // And a second run finds nothing to do.
    EXPECT_TRUE(generate(VariantId::Russian, 4, dir, 2, kDefaultParallel).empty());
}

// Interrupted after every slice of a pair was solved, while its files were
// written: the next run writes them from the scratch files alone.
TEST(Generate, ResumesWhileWritingAPairsFiles) {
    ScratchDir fresh("fresh-write"), resumed("resumed-write");
    generate(VariantId::Russian, 3, fresh.path(), 2, kDefaultParallel);
    const fs::path& dir = resumed.path();
    const MaterialSignature victim = *MaterialSignature::parse("MMvK");
    EXPECT_THROW(generate(
                     VariantId::Russian, 3, dir, 2, kDefaultParallel,
                     [&](const MaterialSignature& pair, const std::string& stage) {
                         if (pair == victim && stage == "compressing KvMM") throw std::runtime_error("power cut");
                     },
                     kSliceFiles),
                 std::runtime_error);
    ASSERT_TRUE(fs::exists(dir / ".dtb-work" / "russian-MMvK")) << "the solved slices are kept";
    std::set<std::string> stages;
    generate(
        VariantId::Russian, 3, dir, 2, kDefaultParallel,
        [&](const MaterialSignature& pair, const std::string& stage) {
            if (pair == victim) stages.insert(stage);
        },
        kSliceFiles);
    for (const std::string& stage : stages) EXPECT_TRUE(stage.starts_with("compressing")) << "solved again: " << stage;
    expect_same_table_files(fresh.path(), dir, "after resuming");
}

// Small pairs hold their solved slices in memory instead of in scratch
// files: the same files either way, and no scratch file is written. An
// interruption in the middle of such a pair leaves nothing of it, and the
// next run solves it again from the start.
TEST(Generate, SlicesHeldInMemoryGiveTheSameFiles) {
    ScratchDir files("slice-files"), held("slices-held");
    generate(VariantId::Russian, 4, files.path(), 2, kDefaultParallel, {}, kSliceFiles);
    const MaterialSignature victim = *MaterialSignature::parse("MMvMM");
    bool interrupted = false, scratch_seen = false;
    try {
        generate(VariantId::Russian, 4, held.path(), 2, kDefaultParallel,
                 [&](const MaterialSignature& pair, const std::string& stage) {
                     scratch_seen = scratch_seen ||
                                    fs::exists(held.path() / ".dtb-work" / table_basename(VariantId::Russian, pair));
                     if (pair == victim && stage.starts_with("slice 3 distance")) throw std::runtime_error("power cut");
                 });
    } catch (const std::runtime_error& e) {
        interrupted = std::string(e.what()) == "power cut";
    }
    ASSERT_TRUE(interrupted);
    EXPECT_FALSE(scratch_seen) << "a small pair wrote scratch files";
    std::set<std::string> stages;
    generate(VariantId::Russian, 4, held.path(), 2, kDefaultParallel,
             [&](const MaterialSignature& pair, const std::string& stage) {
                 if (pair == victim) stages.insert(stage.substr(0, stage.find(' ', 6)));
             });
    EXPECT_TRUE(stages.count("slice 5")) << "the interrupted pair is solved again from its first slice";
    expect_same_table_files(files.path(), held.path(), "with slices held");
}

// Pairs side by side start as soon as what they need is done, across the
// dependency waves: a pair that fails stops the run, no pair that needs it
// is built, and the next run finishes the set with the same files.
TEST(Generate, AFailureSideBySideStopsWhatNeedsThePair) {
    ScratchDir fresh("fresh-side"), dir("failed-side");
    generate(VariantId::Russian, 4, fresh.path(), 2, kDefaultParallel);
    const MaterialSignature victim = pair_key(*MaterialSignature::parse("KMvK"));
    EXPECT_THROW(generate(VariantId::Russian, 4, dir.path(), 2, kDefaultParallel,
                          [&](const MaterialSignature& pair, const std::string&) {
                              if (pair == victim) throw std::runtime_error("power cut");
                          }),
                 std::runtime_error);
    EXPECT_FALSE(fs::exists(dir.path() / "russian-KMvK.wdl"));
    for (const char* needs_it : {"KMvKM", "KKMvK", "KMMvK"})  // a capture or a crowning leads into KMvK
        EXPECT_FALSE(fs::exists(dir.path() / ("russian-" + std::string(needs_it) + ".wdl"))) << needs_it;
    generate(VariantId::Russian, 4, dir.path(), 2, kDefaultParallel);
    expect_same_table_files(fresh.path(), dir.path(), "after the failure");
}

TEST(Generate, ADamagedSmallerTableStopsTheRunAndIsNamed) {
    ScratchDir dir("damaged");
    generate(VariantId::Russian, 2, dir.path(), 1, 0);
    const fs::path victim = dir.path() / "russian-KvK.dtw";
    std::string bytes = read_file(victim);
    bytes[bytes.size() / 2] ^= 1;  // inside the only block
    std::ofstream(victim, std::ios::binary) << bytes;
    try {
        generate(VariantId::Russian, 3, dir.path(), 2, 0);
        FAIL() << "a corrupt table was used";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("russian-KvK.dtw"), std::string::npos) << e.what();
    }
}

// The exact values a run keeps for the pairs built on its tables: every
// position's value, capture positions included, the same as the .raw file's.
TEST(Generate, KeptExactValuesAreEveryPositionsValue) {
    ScratchDir dir("exact-values");
    GenerateOptions o;
    o.variant = VariantId::Russian;
    o.max_pieces = 4;
    o.dir = dir.path();
    o.threads = 2;
    o.keep_raw = true;
    o.keep_exact_values = true;
    std::ostringstream log;
    const std::vector<TableStats> built = generate_tables(o, log);
    ASSERT_GT(built.size(), 20u);
    std::uint64_t captures = 0;
    for (const TableStats& st : built) {
        const fs::path path =
            exact_values_dir(dir.path()) / table_file_name(o.variant, st.signature, compress::Metric::exact);
        const RawTable kept = read_raw_table(path);
        const RawTable raw = read_raw_table(raw_table_path(dir.path(), o.variant, st.signature));
        ASSERT_EQ(kept.header.positions, raw.header.positions) << path;
        const PositionIndex<Russian> index(st.signature);
        typename PositionIndex<Russian>::Cursor cursor(index);
        for (std::uint64_t i = 0; i < raw.header.positions; ++i) {
            ASSERT_EQ(kept.value(i), raw.value(i)) << st.signature.name() << " position " << i;
            captures += MoveGenerator<Russian>::has_capture(cursor.at(i));
        }
    }
    EXPECT_GT(captures, 0u);  // the capture positions the .wdl and .dtw files leave out are there
    // Without --keep-exact-values the run removes them.
    ScratchDir gone("exact-values-removed");
    o.dir = gone.path();
    o.keep_exact_values = false;
    generate_tables(o, log);
    EXPECT_FALSE(fs::exists(exact_values_dir(gone.path())));
}

// Reading the smaller tables' exact values instead of searching their
// capture positions changes no byte: from nothing, on top of a set whose
// values were kept, and past an exact values file that is not its table's.
TEST(Generate, ExactValuesGiveTheSameFiles) {
    ScratchDir searched("searched"), read("read"), on_top("on-top");
    GenerateOptions o;
    o.variant = VariantId::Russian;
    o.max_pieces = 4;
    o.threads = 2;
    std::ostringstream log;
    o.dir = searched.path();
    o.exact_values = false;
    generate_tables(o, log);
    EXPECT_FALSE(fs::exists(exact_values_dir(searched.path())));
    o.dir = read.path();
    o.exact_values = true;
    generate_tables(o, log);
    expect_same_table_files(searched.path(), read.path(), "reading the exact values");

    o.dir = on_top.path();
    o.max_pieces = 3;
    o.keep_exact_values = true;
    generate_tables(o, log);
    // A file of another table under KKvK's name is not read as KKvK's.
    const fs::path kept = exact_values_dir(on_top.path());
    fs::copy_file(kept / "russian-KvK.raw", kept / "russian-KKvK.raw", fs::copy_options::overwrite_existing);
    o.max_pieces = 4;
    generate_tables(o, log);
    expect_same_table_files(searched.path(), on_top.path(), "on top of kept exact values");
}

// The files users have: rewrites a table's .wdl or .dtw file with one
// symbol changed, as a buggy solver would write it (every checksum valid).
void change_symbol(const fs::path& path, std::uint64_t index, std::uint8_t symbol) {
    auto file = compress::TableFile::open(path, nullptr);
    ASSERT_TRUE(file.ok()) << file.error().message;
    std::vector<std::uint8_t> symbols((*file)->position_count());
    ASSERT_FALSE((*file)->read_all(std::span(symbols)));
    symbols[index] = symbol;
    compress::WriterOptions o;
    o.positions_per_block = (*file)->header().positions_per_block;
    const compress::TableDescription d = (*file)->header().table;
    file->reset();
    compress::write_table(path, d, std::span<const std::uint8_t>(symbols), {}, o);
}

TEST(Verify, WorksOnTheDistributedFilesAlone) {
    ScratchDir dir("verify");
    generate(VariantId::Russian, 3, dir.path(), 1, 0);
    for (const auto& e : fs::directory_iterator(dir.path()))
        if (e.path().extension() != ".wdl" && e.path().extension() != ".dtw") fs::remove(e.path());
    std::ostringstream log;
    auto reports = verify_tables(VariantId::Russian, dir.path(), log, false);
    ASSERT_EQ(reports.size(), all_signatures(VariantId::Russian, 3).size());
    for (const VerifyReport& r : reports) EXPECT_TRUE(r.ok()) << r.signature.name() << log.str();
}

TEST(Verify, FindsAWrongValueAndNamesItsPosition) {
    ScratchDir dir("verify-value");
    generate(VariantId::Russian, 3, dir.path(), 1, 0);
    const MaterialSignature kkvk = *MaterialSignature::parse("KKvK");
    // A win in 3 (raw value 3) that the files store, claimed as a win in 5
    // (DTW symbol 2). Not a win in 1: those the files may leave out as
    // threat positions (the lone king, about to be shut in, still attacks).
    const RawTable raw = read_raw_table(raw_table_path(dir.path(), VariantId::Russian, kkvk));
    const PositionIndex<Russian> index(kkvk);
    std::uint64_t i = 0;
    while (i < index.size() && (raw.value(i) != 3 || MoveGenerator<Russian>::has_capture(index.unrank(i)) ||
                                is_unstored_threat(index.unrank(i))))
        ++i;
    ASSERT_LT(i, index.size());
    change_symbol(dir.path() / "russian-KKvK.dtw", i, 2);
    std::ostringstream log;
    const auto reports = verify_tables(VariantId::Russian, dir.path(), log, false, {kkvk});
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_GE(reports[0].mismatches, 1u);
    ASSERT_FALSE(reports[0].examples.empty());
    EXPECT_NE(reports[0].examples[0].find("stored win in 5, from successors win in 3"), std::string::npos)
        << reports[0].examples[0];
    // The window only saves decompressing: one block at a time (each read
    // evicts the last) finds the same positions.
    const auto one_block = verify_tables(VariantId::Russian, dir.path(), log, false, {kkvk}, 16 << 10);
    ASSERT_EQ(one_block.size(), 1u);
    EXPECT_EQ(one_block[0].mismatches, reports[0].mismatches);
    EXPECT_EQ(one_block[0].examples, reports[0].examples);
}

// Besides a win's distance (above): a loss's distance, which every
// successor's distance sets, and a draw stored as a win.
TEST(Verify, FindsAWrongLossAndAWrongDraw) {
    ScratchDir dir("verify-loss-draw");
    generate(VariantId::Russian, 3, dir.path(), 1, 0);
    const MaterialSignature kvkk = *MaterialSignature::parse("KvKK"), kkvk = *MaterialSignature::parse("KKvK");
    // The first position of `sig` without a capture whose value passes
    // `wanted`, and that value.
    const auto find = [&](const MaterialSignature& sig, const std::function<bool(int)>& wanted) {
        const RawTable raw = read_raw_table(raw_table_path(dir.path(), VariantId::Russian, sig));
        const PositionIndex<Russian> index(sig);
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            const Position<Russian> pos = index.unrank(i);
            if (!(pos.pieces[White] & pos.pieces[Black]) && !MoveGenerator<Russian>::has_capture(pos) &&
                !is_unstored_threat(pos) && wanted(raw.value(i)))
                return std::pair{i, raw.value(i)};
        }
        ADD_FAILURE() << "no such position in " << sig.name();
        return std::pair{std::uint64_t{0}, 0};
    };
    const auto [loss, loss_value] = find(kvkk, [](int v) { return v >= 2 && v % 2 == 0; });
    const auto [draw, draw_value] = find(kkvk, [](int v) { return v == kDraw; });
    ASSERT_EQ(draw_value, kDraw);
    change_symbol(dir.path() / "russian-KvKK.dtw", loss, std::uint8_t(loss_value / 2 + 1));  // two plies longer
    change_symbol(dir.path() / "russian-KKvK.wdl", draw, kWdlWin);
    std::ostringstream log;
    const auto reports = verify_tables(VariantId::Russian, dir.path(), log, false, {kvkk, kkvk});
    ASSERT_EQ(reports.size(), 2u);
    for (const VerifyReport& r : reports) {
        EXPECT_GE(r.mismatches, 1u) << r.signature.name();
        ASSERT_FALSE(r.examples.empty()) << r.signature.name();
    }
    const std::string expected_loss =
        "stored loss in " + std::to_string(loss_value + 2) + ", from successors loss in " + std::to_string(loss_value);
    EXPECT_NE(log.str().find(expected_loss), std::string::npos) << log.str();
    EXPECT_NE(log.str().find(", from successors draw"), std::string::npos) << log.str();
}

// By levels, a draw or a win is proven without reading every king move: no
// king move may reach a loss sooner than the value allows (checked
// backwards from the other side's losses), and one move must show the
// value. A win stored sooner than any move wins, and a draw stored where a
// king move wins, fail that proof and are reported as a full read reports
// them, by either method.
TEST(Verify, FindsAWinTooSoonAndADrawWhereAKingMoveWins) {
    ScratchDir dir("verify-proofs");
    generate(VariantId::Russian, 3, dir.path(), 1, 0);
    const MaterialSignature kkvk = *MaterialSignature::parse("KKvK"), kvkk = kkvk.mirror();
    const RawTable raw = read_raw_table(raw_table_path(dir.path(), VariantId::Russian, kkvk));
    const RawTable raw_next = read_raw_table(raw_table_path(dir.path(), VariantId::Russian, kvkk));
    const PositionIndex<Russian> index(kkvk), next(kvkk);
    // Whether a move of `pos` draws: then only the backward check can show
    // that it also wins.
    const auto draws_too = [&](const Position<Russian>& pos) {
        MoveList moves;
        MoveGenerator<Russian>::generate(pos, moves);
        for (const Move& m : moves)
            if (raw_next.value(next.rank(flip(pos.after(m)))) == kDraw) return true;
        return false;
    };
    // Positions of kings alone: every move is a king move.
    std::vector<std::uint64_t> wins_in_5, wins;
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        const Position<Russian> pos = index.unrank(i);
        if ((pos.pieces[White] & pos.pieces[Black]) || MoveGenerator<Russian>::has_capture(pos) ||
            is_unstored_threat(pos))
            continue;
        if (raw.value(i) == 5) wins_in_5.push_back(i);
        if (is_win(raw.value(i)) && raw.value(i) != 5 && draws_too(pos)) wins.push_back(i);
    }
    ASSERT_FALSE(wins_in_5.empty());
    ASSERT_FALSE(wins.empty());
    change_symbol(dir.path() / "russian-KKvK.dtw", wins_in_5.front(), 1);  // a win in 3
    change_symbol(dir.path() / "russian-KKvK.wdl", wins.back(), kWdlDraw);
    const std::string draw_found = "stored draw, from successors win in " + std::to_string(raw.value(wins.back()));
    for (const VerifyMethod method :
         {VerifyMethod::by_levels, VerifyMethod::by_levels_proving_all, VerifyMethod::by_table}) {
        std::ostringstream log;
        const auto reports = verify_tables(VariantId::Russian, dir.path(), log, false, {kkvk},
                                           kDefaultVerifyWindowBytes, nullptr, kVerifyOwnRunsUpTo, method);
        ASSERT_EQ(reports.size(), 1u);
        EXPECT_EQ(reports[0].mismatches, 2u);  // KKvK's predecessors are KvKK's, not checked
        EXPECT_NE(log.str().find("stored win in 3, from successors win in 5"), std::string::npos) << log.str();
        EXPECT_NE(log.str().find(draw_found), std::string::npos) << log.str();
    }
}

// By table, the values of a placement's king-move successors are kept in a
// run, one per thread, or shared by the threads when it is large. Runs only
// spare finding values again: shared runs (forced here on small tables, two
// threads, placement after placement) find the same wrong values at the
// same positions as own runs, and pass the same intact tables; so does the
// check by levels, which holds the pair's values a level at a time.
TEST(Verify, EveryMethodFindsTheSameWrongValues) {
    ScratchDir dir("verify-runs");
    generate(VariantId::Russian, 4, dir.path(), 2, kDefaultParallel);  // also leaves OpenMP at two threads
    const auto wrong = [&](const char* name, const std::function<bool(int)>& wanted, const std::string& file,
                           const std::function<std::uint8_t(int)>& symbol) {
        const MaterialSignature sig = *MaterialSignature::parse(name);
        const RawTable raw = read_raw_table(raw_table_path(dir.path(), VariantId::Russian, sig));
        const PositionIndex<Russian> index(sig);
        for (std::uint64_t i = index.size() / 2; i < index.size(); ++i) {
            const Position<Russian> pos = index.unrank(i);
            if (!(pos.pieces[White] & pos.pieces[Black]) && !MoveGenerator<Russian>::has_capture(pos) &&
                !is_unstored_threat(pos) && signature_of(pos) == sig && wanted(raw.value(i))) {
                change_symbol(dir.path() / file, i, symbol(raw.value(i)));
                return;
            }
        }
        ADD_FAILURE() << "no such position in " << name;
    };
    // A loss two plies longer, a draw stored as a win, a win stored as a
    // draw: in a table of kings and in two with men (several placements).
    wrong(
        "KKvKK", [](int v) { return v >= 2 && v % 2 == 0; }, "russian-KKvKK.dtw",
        [](int v) { return std::uint8_t(v / 2 + 1); });
    wrong(
        "KKMvK", [](int v) { return v == kDraw; }, "russian-KKMvK.wdl", [](int) { return kWdlWin; });
    wrong(
        "KMvKM", [](int v) { return v >= 1 && v % 2 == 1; }, "russian-KMvKM.wdl", [](int) { return kWdlDraw; });
    std::ostringstream log;
    const auto own = verify_tables(VariantId::Russian, dir.path(), log, false, {}, kDefaultVerifyWindowBytes, nullptr,
                                   kVerifyOwnRunsUpTo, VerifyMethod::by_table);
    const auto shared = verify_tables(VariantId::Russian, dir.path(), log, false, {}, kDefaultVerifyWindowBytes,
                                      nullptr, 0, VerifyMethod::by_table);
    // By levels (the default): the pair's values held a level at a time;
    // and proving every level's draws and wins from part of their moves.
    const auto by_levels = verify_tables(VariantId::Russian, dir.path(), log, false);
    const auto proving = verify_tables(VariantId::Russian, dir.path(), log, false, {}, kDefaultVerifyWindowBytes,
                                       nullptr, kVerifyOwnRunsUpTo, VerifyMethod::by_levels_proving_all);
    // With --only one table of a pair: its mirror's levels are read, not checked.
    const auto one_side =
        verify_tables(VariantId::Russian, dir.path(), log, false, {*MaterialSignature::parse("KKMvK")});
    ASSERT_EQ(own.size(), shared.size());
    ASSERT_EQ(own.size(), by_levels.size());
    ASSERT_EQ(own.size(), proving.size());
    ASSERT_EQ(one_side.size(), 1u);
    std::uint64_t mismatches = 0, passed = 0;
    for (std::size_t k = 0; k < own.size(); ++k) {
        for (const auto* other : {&shared, &by_levels, &proving}) {
            EXPECT_EQ(own[k].signature, (*other)[k].signature);
            EXPECT_EQ(own[k].mismatches, (*other)[k].mismatches) << own[k].signature.name();
            EXPECT_EQ(own[k].examples, (*other)[k].examples) << own[k].signature.name();
            EXPECT_TRUE((*other)[k].unchecked.empty() && (*other)[k].damaged.empty()) << own[k].signature.name();
        }
        if (own[k].signature == one_side[0].signature) {
            EXPECT_GE(one_side[0].mismatches, 1u);
            EXPECT_EQ(own[k].mismatches, one_side[0].mismatches);
            EXPECT_EQ(own[k].examples, one_side[0].examples);
        }
        mismatches += own[k].mismatches;
        passed += own[k].ok() ? 1 : 0;
    }
    // Each wrong value is found at its own position (and may show at the
    // positions that move there); the other tables pass.
    EXPECT_GE(mismatches, 3u);
    EXPECT_GE(passed, own.size() - 6);
    for (const char* name : {"KKvKK", "KKMvK", "KMvKM"}) {
        const auto it = std::find_if(own.begin(), own.end(), [&](const VerifyReport& r) {
            return r.signature == *MaterialSignature::parse(name);
        });
        ASSERT_NE(it, own.end());
        EXPECT_GE(it->mismatches, 1u) << name;
    }
}

// Format 3 stores one side of each pair. A wrong value in the side kept is
// found by the check of the whole set, and by `--only` the side left out
// (whose values are the kept side's, one ply on): the check cannot pass
// a set whose values are wrong on either side.
TEST(Verify, FindsAWrongValueThroughTheSideLeftOut) {
    ScratchDir dir("verify-format3");
    GenerateOptions o;
    o.keep_raw = true;
    o.variant = VariantId::Russian;
    o.max_pieces = 3;
    o.dir = dir.path();
    o.format_version = 3;
    std::ostringstream gen_log;
    generate_tables(o, gen_log);
    const MaterialSignature kkvk = *MaterialSignature::parse("KKvK");
    const auto stores = [&](const MaterialSignature& sig) {
        auto file = compress::TableFile::open(
            dir.path() / table_file_name(VariantId::Russian, sig, compress::Metric::wdl), nullptr);
        EXPECT_TRUE(file.ok()) << file.error().message;
        return file.ok() && ((*file)->header().flags & compress::kFlagSideNotStored) == 0;
    };
    ASSERT_NE(stores(kkvk), stores(kkvk.mirror()));
    const MaterialSignature kept = stores(kkvk) ? kkvk : kkvk.mirror(), left_out = kept.mirror();
    // A win stored two plies longer (or a loss, for the side with one king).
    const RawTable raw = read_raw_table(raw_table_path(dir.path(), VariantId::Russian, kept));
    const PositionIndex<Russian> index(kept);
    std::uint64_t i = 0;
    while (i < index.size() && (raw.value(i) < 2 || MoveGenerator<Russian>::has_capture(index.unrank(i)))) ++i;
    ASSERT_LT(i, index.size());
    change_symbol(dir.path() / table_file_name(VariantId::Russian, kept, compress::Metric::dtw), i,
                  std::uint8_t(dtw_symbol(raw.value(i)) + 1));
    std::ostringstream log;
    const auto all = verify_tables(VariantId::Russian, dir.path(), log, false);
    std::uint64_t wrong = 0;
    for (const VerifyReport& r : all) {
        EXPECT_TRUE(r.unchecked.empty() && r.damaged.empty()) << r.signature.name() << log.str();
        if (r.signature == kept) {
            EXPECT_GE(r.mismatches, 1u) << log.str();
        }
        wrong += r.mismatches;
    }
    EXPECT_GE(wrong, 1u);
    const auto alone = verify_tables(VariantId::Russian, dir.path(), log, false, {left_out});
    ASSERT_EQ(alone.size(), 1u);
    EXPECT_GE(alone[0].mismatches, 1u) << log.str();
    ASSERT_FALSE(alone[0].examples.empty());
    // And the intact set passes, both sides.
    change_symbol(dir.path() / table_file_name(VariantId::Russian, kept, compress::Metric::dtw), i,
                  std::uint8_t(dtw_symbol(raw.value(i))));
    for (const VerifyReport& r : verify_tables(VariantId::Russian, dir.path(), log, false))
        EXPECT_TRUE(r.ok()) << r.signature.name() << log.str();
}

// The same on 10x10, whose kings fly across a larger board: a loss stored
// two plies longer is found at its own position by the check by levels and
// by the check by table alike.
TEST(Verify, ByLevelsAndByTableAgreeOnInternational) {
    ScratchDir dir("verify-international");
    generate(VariantId::International, 3, dir.path(), 2, kDefaultParallel);
    const MaterialSignature sig = *MaterialSignature::parse("KvKK");
    const RawTable raw = read_raw_table(raw_table_path(dir.path(), VariantId::International, sig));
    const PositionIndex<International> index(sig);
    std::uint64_t i = 0;
    while (i < index.size() &&
           !(raw.value(i) >= 2 && raw.value(i) % 2 == 0 &&
             !MoveGenerator<International>::has_capture(index.unrank(i)) && !is_unstored_threat(index.unrank(i))))
        ++i;
    ASSERT_LT(i, index.size());
    change_symbol(dir.path() / "international-KvKK.dtw", i, std::uint8_t(raw.value(i) / 2 + 1));
    std::ostringstream log;
    const auto by_levels = verify_tables(VariantId::International, dir.path(), log, false);
    const auto by_table = verify_tables(VariantId::International, dir.path(), log, false, {}, kDefaultVerifyWindowBytes,
                                        nullptr, kVerifyOwnRunsUpTo, VerifyMethod::by_table);
    const auto proving = verify_tables(VariantId::International, dir.path(), log, false, {}, kDefaultVerifyWindowBytes,
                                       nullptr, kVerifyOwnRunsUpTo, VerifyMethod::by_levels_proving_all);
    ASSERT_EQ(by_levels.size(), by_table.size());
    ASSERT_EQ(by_levels.size(), proving.size());
    std::uint64_t mismatches = 0;
    for (std::size_t k = 0; k < by_levels.size(); ++k) {
        EXPECT_EQ(by_levels[k].signature, by_table[k].signature);
        EXPECT_EQ(by_levels[k].mismatches, by_table[k].mismatches) << by_levels[k].signature.name();
        EXPECT_EQ(by_levels[k].examples, by_table[k].examples) << by_levels[k].signature.name();
        EXPECT_EQ(proving[k].mismatches, by_table[k].mismatches) << by_levels[k].signature.name();
        EXPECT_EQ(proving[k].examples, by_table[k].examples) << by_levels[k].signature.name();
        if (by_levels[k].signature == sig) {
            EXPECT_GE(by_levels[k].mismatches, 1u);
        }
        mismatches += by_levels[k].mismatches;
    }
    EXPECT_GE(mismatches, 1u);
}

TEST(Verify, FindsADamagedByteAndNamesTheFile) {
    ScratchDir dir("verify-byte");
    generate(VariantId::Russian, 3, dir.path(), 1, 0);
    const fs::path victim = dir.path() / "russian-KKvK.wdl";
    std::string bytes = read_file(victim);
    bytes[bytes.size() - 20] ^= 0x10;  // in the last block's data
    std::ofstream(victim, std::ios::binary) << bytes;
    std::ostringstream log;
    const auto reports = verify_tables(VariantId::Russian, dir.path(), log, false, {*MaterialSignature::parse("KKvK")});
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_FALSE(reports[0].ok());
    ASSERT_FALSE(reports[0].damaged.empty());
    EXPECT_NE(reports[0].damaged[0].find("russian-KKvK.wdl"), std::string::npos) << reports[0].damaged[0];
}

// A file cut short (a copy that stopped) does not stop the run: its table
// is damaged, the tables whose check needs it are not checked, both name
// it, and every other table is still checked.
TEST(Verify, GoesOnPastATruncatedFileAndNamesIt) {
    ScratchDir dir("verify-truncated");
    generate(VariantId::Russian, 3, dir.path(), 1, 0);
    const fs::path victim = dir.path() / "russian-KKvK.dtw";
    const std::string bytes = read_file(victim);
    std::ofstream(victim, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() - 10);
    std::ostringstream log;
    const auto reports = verify_tables(VariantId::Russian, dir.path(), log, false);
    ASSERT_EQ(reports.size(), all_signatures(VariantId::Russian, 3).size());
    int damaged = 0, unchecked = 0, consistent = 0;
    for (const VerifyReport& r : reports) {
        if (r.signature.name() == "KKvK") {
            ASSERT_EQ(r.damaged.size(), 1u);
            EXPECT_NE(r.damaged[0].find("russian-KKvK.dtw"), std::string::npos) << r.damaged[0];
            ++damaged;
        } else if (!r.unchecked.empty()) {
            EXPECT_FALSE(r.ok());
            EXPECT_NE(r.unchecked[0].find("russian-KKvK.dtw"), std::string::npos) << r.unchecked[0];
            ++unchecked;
        } else {
            EXPECT_TRUE(r.ok()) << r.signature.name() << log.str();
            ++consistent;
        }
    }
    EXPECT_EQ(damaged, 1);
    EXPECT_GE(unchecked, 1);   // KvKK at least: its king moves lead into KKvK
    EXPECT_GE(consistent, 1);  // KvK at least
    EXPECT_NE(log.str().find("NOT CHECKED"), std::string::npos) << log.str();
}

// A table whose .wdl is gone but whose .dtw is left is a damaged set, even
// when no other table needs it (the largest symmetric one); a file that only
// looks like a table's is listed apart, and not read.
TEST(Verify, NamesATableWithOnlyItsDtwLeft) {
    ScratchDir dir("verify-lone-dtw");
    generate(VariantId::Russian, 2, dir.path(), 1, 0);
    fs::remove(dir.path() / "russian-MvM.wdl");
    std::ostringstream log;
    const auto reports = verify_tables(VariantId::Russian, dir.path(), log, false);
    ASSERT_EQ(reports.size(), all_signatures(VariantId::Russian, 2).size()) << log.str();
    bool named = false;
    for (const VerifyReport& r : reports) {
        if (r.signature.name() != "MvM") {
            EXPECT_TRUE(r.ok()) << r.signature.name() << log.str();
            continue;
        }
        EXPECT_FALSE(r.ok());
        for (const auto* why : {&r.damaged, &r.unchecked})
            for (const std::string& e : *why) named |= e.find("russian-MvM.wdl") != std::string::npos;
    }
    EXPECT_TRUE(named) << log.str();

    std::ofstream(dir.path() / "russian-KKvk.wdl") << "x";
    std::ofstream(dir.path() / "russian-KvK.wdl.bak") << "x";
    std::ofstream(dir.path() / "russian-notes.txt") << "x";
    EXPECT_EQ(unrecognised_table_files(VariantId::Russian, dir.path()), std::vector<std::string>{"russian-KKvk.wdl"});
    EXPECT_TRUE(unrecognised_table_files(VariantId::International, dir.path()).empty());
}

// A journal spares the values of a table checked before with the very same
// files, never its checksums, and stops vouching for a table once a file
// its check read is written again.
TEST(Verify, JournalSkipsOnlyWhatItCheckedWithTheSameFiles) {
    ScratchDir dir("verify-journal");
    generate(VariantId::Russian, 3, dir.path(), 1, 0);
    const fs::path journal_path = dir.path() / "verify-journal.json";
    const std::size_t tables = all_signatures(VariantId::Russian, 3).size();
    std::ostringstream log;
    {
        VerifyJournal journal = VerifyJournal::open(journal_path, VariantId::Russian);
        EXPECT_EQ(journal.size(), 0u);
        const auto reports =
            verify_tables(VariantId::Russian, dir.path(), log, false, {}, kDefaultVerifyWindowBytes, &journal);
        ASSERT_EQ(reports.size(), tables);
        for (const VerifyReport& r : reports) {
            EXPECT_TRUE(r.ok()) << r.signature.name() << log.str();
            EXPECT_TRUE(r.journal_verified_at.empty()) << r.signature.name();
        }
        EXPECT_EQ(journal.size(), tables);
    }
    // A second run, reading the journal back from its file: nothing is
    // recomputed.
    {
        VerifyJournal journal = VerifyJournal::open(journal_path, VariantId::Russian);
        EXPECT_EQ(journal.size(), tables);
        const auto reports =
            verify_tables(VariantId::Russian, dir.path(), log, false, {}, kDefaultVerifyWindowBytes, &journal);
        for (const VerifyReport& r : reports) {
            EXPECT_TRUE(r.ok()) << r.signature.name();
            EXPECT_FALSE(r.journal_verified_at.empty()) << r.signature.name();
        }
    }
    // KKvK written again with a wrong value (valid checksums): KKvK, and its
    // mirror KvKK whose check reads it, are recomputed and fail; KvK, which
    // does not read it, is still vouched for.
    const MaterialSignature kkvk = *MaterialSignature::parse("KKvK");
    const PositionIndex<Russian> index(kkvk);
    std::uint64_t draw = 0;
    {
        auto wdl = compress::TableFile::open(dir.path() / "russian-KKvK.wdl", nullptr);
        ASSERT_TRUE(wdl.ok());
        std::vector<std::uint8_t> symbols((*wdl)->position_count());
        ASSERT_FALSE((*wdl)->read_all(std::span(symbols)));
        while (draw < index.size() &&
               (symbols[draw] != kWdlDraw || MoveGenerator<Russian>::has_capture(index.unrank(draw)) ||
                is_unstored_threat(index.unrank(draw))))
            ++draw;
        ASSERT_LT(draw, index.size());
    }
    change_symbol(dir.path() / "russian-KKvK.wdl", draw, kWdlWin);
    {
        VerifyJournal journal = VerifyJournal::open(journal_path, VariantId::Russian);
        const auto reports =
            verify_tables(VariantId::Russian, dir.path(), log, false, {}, kDefaultVerifyWindowBytes, &journal);
        for (const VerifyReport& r : reports) {
            const std::string name = r.signature.name();
            if (name == "KKvK" || name == "KvKK") {
                EXPECT_TRUE(r.journal_verified_at.empty()) << name;
            } else if (name == "KvK") {
                EXPECT_FALSE(r.journal_verified_at.empty()) << name;
            }
            if (name == "KKvK") {
                EXPECT_GE(r.mismatches, 1u);
            }
        }
        // What failed is no longer held: the next run checks it again.
        EXPECT_LT(journal.size(), tables);
        EXPECT_EQ(VerifyJournal::open(journal_path, VariantId::Russian).size(), journal.size());
    }
    // A damaged byte in a file the journal vouches for is still found: the
    // table's own checksums are checked on every run.
    const fs::path victim = dir.path() / "russian-KvK.wdl";
    std::string bytes = read_file(victim);
    bytes[bytes.size() - 20] ^= 0x10;
    std::ofstream(victim, std::ios::binary) << bytes;
    {
        VerifyJournal journal = VerifyJournal::open(journal_path, VariantId::Russian);
        const auto reports = verify_tables(VariantId::Russian, dir.path(), log, false,
                                           {*MaterialSignature::parse("KvK")}, kDefaultVerifyWindowBytes, &journal);
        ASSERT_EQ(reports.size(), 1u);
        EXPECT_FALSE(reports[0].ok());
        ASSERT_FALSE(reports[0].damaged.empty());
        EXPECT_NE(reports[0].damaged[0].find("russian-KvK.wdl"), std::string::npos) << reports[0].damaged[0];
    }
}

TEST(Verify, JournalOfAnotherVariantOrNotAJournalIsRefused) {
    ScratchDir dir("verify-journal-bad");
    fs::create_directories(dir.path());
    const fs::path path = dir.path() / "journal.json";
    std::ofstream(path) << R"({"kind": "dtb verify journal", "version": 1, "variant": "russian", "tables": {}})";
    EXPECT_EQ(VerifyJournal::open(path, VariantId::Russian).size(), 0u);
    EXPECT_THROW(VerifyJournal::open(path, VariantId::International), BadJournal);
    for (const char* text :
         {"{", "[]", R"({"kind": "something else"})",
          R"({"kind": "dtb verify journal", "version": 1, "variant": "russian", "tables": )"
          R"({"KKvK": {"verified_at": "x", "positions": 1, "seconds": 0, "files": {"a": "zz"}}}})"}) {
        std::ofstream(path, std::ios::trunc) << text;
        EXPECT_THROW(VerifyJournal::open(path, VariantId::Russian), BadJournal) << text;
    }
    EXPECT_THROW(VerifyJournal::open(dir.path() / "no-such-dir" / "journal.json", VariantId::Russian), BadJournal);
    // A directory where the journal should be: said so, not a parse error.
    fs::create_directories(dir.path() / "a-directory");
    try {
        VerifyJournal::open(dir.path() / "a-directory", VariantId::Russian);
        ADD_FAILURE() << "a directory was opened as a journal";
    } catch (const BadJournal& e) {
        EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace dtb
