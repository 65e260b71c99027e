// Fuzz target: a table file from a hostile source, read through the public
// probe API (dtb_open, dtb_probe_wdl, dtb_probe_dtw, dtb_best_move), as an
// engine reads whatever a user downloads.
//
// Input: one selector byte, then the file's bytes. The selector's low bits
// pick the name the bytes are written under (one of kNames: both variants,
// both metrics); its high bit asks the harness to recompute every checksum
// first ("repaired"), so that mutations get past the checksums to the range
// checks, the block index and zstd. The file goes into a directory of this
// process, listed before a directory of valid tables (DTB_FUZZ_TABLES, all
// tables up to 3 pieces of both variants) that supplies the other tables the
// probes need and the reference answers.
//
// Invariants, for a fixed list of positions of the file's material:
//  - no crash, hang or out-of-bounds access (AddressSanitizer in the fuzz
//    build), and every status is the valid table's own or DTB_CORRUPT_TABLE,
//    whose message names the file;
//  - bytes identical to the valid table: every answer is the valid one;
//  - other bytes with their checksums as given: every DTB_OK answer is the
//    valid table's. A changed file passes its checks only if a change keeps
//    an XXH3 checksum (64 bits for the header and the block index, 32 for a
//    block): practically never, so a wrong value here is a hole in the
//    checks (a field the reader trusts without checking), not bad luck;
//  - repaired checksums: the file may be a valid table with other values,
//    so only what every table guarantees is checked: a WDL value is a win,
//    draw or loss; a DTW is -1 exactly for a draw; a best move is a legal
//    move whose value is the position's.
#include <unistd.h>
#include <xxhash.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "dtb/probe.h"
#include "tests/fuzz/fuzz_check.hpp"

namespace fs = std::filesystem;
namespace fuzz = dtb::fuzz;

namespace {

// Material as the file name says it: the side to move's kings and men, then
// the other side's.
struct TableName {
    const char* file;
    int variant;
    int kings[2];
    int men[2];
};

constexpr std::array<TableName, 8> kNames{{
    {"russian-KKvK.wdl", DTB_RUSSIAN, {2, 1}, {0, 0}},
    {"russian-KKvK.dtw", DTB_RUSSIAN, {2, 1}, {0, 0}},
    {"russian-KMvK.wdl", DTB_RUSSIAN, {1, 1}, {1, 0}},
    {"russian-KMvK.dtw", DTB_RUSSIAN, {1, 1}, {1, 0}},
    {"international-KKvK.wdl", DTB_INTERNATIONAL, {2, 1}, {0, 0}},
    {"international-KKvK.dtw", DTB_INTERNATIONAL, {2, 1}, {0, 0}},
    {"international-MMvK.wdl", DTB_INTERNATIONAL, {0, 1}, {2, 0}},
    {"international-MMvK.dtw", DTB_INTERNATIONAL, {0, 1}, {2, 0}},
}};
constexpr int kPositionsPerTable = 24;

struct Answer {
    int status;
    dtb_value value;
    dtb_move move;  // dtb_best_move only
};

struct Reference {
    std::vector<char> bytes;  // the valid file
    std::vector<dtb_position> positions;
    std::vector<Answer> wdl, dtw, best;
};

struct Harness {
    fs::path valid_dir;
    fs::path scratch;
    std::vector<Reference> references;
};

std::vector<char> read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    fuzz::check(bool(in), "the valid tables can be read", path.string());
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Random positions of the material, the side to move either colour; men
// never on the row where they would be crowned.
std::vector<dtb_position> positions_of(const TableName& t, std::uint64_t seed) {
    const int squares = t.variant == DTB_RUSSIAN ? 32 : 50;
    const int row = t.variant == DTB_RUSSIAN ? 4 : 5;
    std::mt19937_64 rng(seed);
    std::vector<dtb_position> out;
    while (static_cast<int>(out.size()) < kPositionsPerTable) {
        dtb_position p{0, 0, 0, static_cast<int>(rng() % 2), t.variant};
        for (int s = 0; s < 2; ++s) {
            const int colour = s == 0 ? p.side_to_move : 1 - p.side_to_move;
            std::uint64_t& mine = colour == DTB_WHITE ? p.white : p.black;
            for (int n = 0; n < t.kings[s] + t.men[s];) {
                const int sq = static_cast<int>(rng() % static_cast<unsigned>(squares));
                const std::uint64_t b = std::uint64_t{1} << sq;
                const bool man = n >= t.kings[s];
                const bool crown_row = colour == DTB_WHITE ? sq < row : sq >= squares - row;
                if (((p.white | p.black) & b) || (man && crown_row)) continue;
                mine |= b;
                if (!man) p.kings |= b;
                ++n;
            }
        }
        out.push_back(p);
    }
    return out;
}

bool same_move(const dtb_move& a, const dtb_move& b) {
    if (a.from != b.from || a.to != b.to || a.crowns != b.crowns || a.n_captured != b.n_captured) return false;
    for (int i = 0; i < a.n_captured; ++i)
        if (a.captured[i] != b.captured[i]) return false;
    return true;
}

struct Probes {
    std::vector<Answer> wdl, dtw, best;
};

Probes probe_all(dtb_tablebase* tb, const std::vector<dtb_position>& positions, std::vector<std::string>* messages) {
    Probes out;
    for (const dtb_position& p : positions) {
        Answer a{};
        a.status = dtb_probe_wdl(tb, &p, &a.value);
        if (messages) messages->push_back(a.status == DTB_OK ? "" : dtb_error_message(tb));
        out.wdl.push_back(a);
        a = Answer{};
        a.status = dtb_probe_dtw(tb, &p, &a.value);
        if (messages) messages->push_back(a.status == DTB_OK ? "" : dtb_error_message(tb));
        out.dtw.push_back(a);
        a = Answer{};
        a.status = dtb_best_move(tb, &p, &a.move, &a.value);
        if (messages) messages->push_back(a.status == DTB_OK || a.status == DTB_NO_MOVE ? "" : dtb_error_message(tb));
        out.best.push_back(a);
    }
    return out;
}

dtb_tablebase* open_tables(const std::vector<fs::path>& dirs) {
    std::vector<std::string> names;
    for (const fs::path& d : dirs) names.push_back(d.string());
    std::vector<const char*> c_names;
    for (const std::string& n : names) c_names.push_back(n.c_str());
    const dtb_options options{std::size_t{1} << 20};
    dtb_tablebase* tb = nullptr;
    char err[512];
    fuzz::check(dtb_open(c_names.data(), c_names.size(), &options, &tb, err, sizeof err) == DTB_OK,
                "the table directories open", err);
    return tb;
}

void remove_scratch();

Harness& harness() {
    static Harness* h = [] {
        auto* made = new Harness;
        const char* dir = std::getenv("DTB_FUZZ_TABLES");
        fuzz::check(dir != nullptr && fs::is_directory(dir), "DTB_FUZZ_TABLES names the folder of valid tables",
                    "generate them: dtb gen --variant russian --pieces 3 --dir DIR; the same for international");
        made->valid_dir = dir;
        std::string pattern = (fs::temp_directory_path() / "dtb-fuzz-table-XXXXXX").string();
        fuzz::check(mkdtemp(pattern.data()) != nullptr, "a scratch folder can be made", pattern);
        made->scratch = pattern;
        dtb_tablebase* tb = open_tables({made->valid_dir});
        for (std::size_t i = 0; i < kNames.size(); ++i) {
            Reference r;
            r.bytes = read_file(made->valid_dir / kNames[i].file);
            r.positions = positions_of(kNames[i], 1000 + i);
            Probes p = probe_all(tb, r.positions, nullptr);
            for (const Answer& a : p.wdl)
                fuzz::check(a.status == DTB_OK, "the valid tables answer every position", kNames[i].file);
            r.wdl = std::move(p.wdl);
            r.dtw = std::move(p.dtw);
            r.best = std::move(p.best);
            made->references.push_back(std::move(r));
        }
        dtb_close(tb);
        return made;
    }();
    static const bool registered = (std::atexit(remove_scratch), true);
    (void)registered;
    return *h;
}

void remove_scratch() {
    std::error_code ec;
    fs::remove_all(harness().scratch, ec);
}

std::uint64_t load64(const std::vector<char>& b, std::size_t at) {
    std::uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
    return v;
}
void store(std::vector<char>& b, std::size_t at, std::uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) b[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
}

// Recomputes the block, index, data and header checksums wherever the
// (possibly mutated) header's layout lies inside the file (docs/FORMAT.md).
void repair_checksums(std::vector<char>& b) {
    if (b.size() < 128) return;
    const std::uint32_t blocks = static_cast<std::uint32_t>(load64(b, 44) & 0xffffffffu);
    const std::uint64_t index_offset = load64(b, 48), index_size = load64(b, 56);
    const std::uint64_t data_offset = load64(b, 64), data_size = load64(b, 72);
    const bool data_inside = data_offset <= b.size() && data_size <= b.size() - data_offset;
    const bool index_inside = index_offset <= b.size() && index_size <= b.size() - index_offset;
    if (index_inside && data_inside && (std::uint64_t(blocks) + 1) * 8 + std::uint64_t(blocks) * 4 <= index_size) {
        const std::size_t offsets = index_offset, sums = index_offset + (std::uint64_t(blocks) + 1) * 8;
        for (std::uint32_t i = 0; i < blocks; ++i) {
            const std::uint64_t start = load64(b, offsets + 8 * i), end = load64(b, offsets + 8 * (i + 1));
            if (start > end || end > data_size) continue;
            const std::uint64_t sum = XXH3_64bits_withSeed(b.data() + data_offset + start, end - start, i);
            store(b, sums + 4 * i, sum & 0xffffffffu, 4);
        }
    }
    if (index_inside) store(b, 88, XXH3_64bits(b.data() + index_offset, index_size), 8);
    if (data_inside) store(b, 96, XXH3_64bits(b.data() + data_offset, data_size), 8);
    store(b, 120, XXH3_64bits(b.data(), 120), 8);
}

std::string describe(const char* probe, const TableName& t, const dtb_position& p, bool repaired) {
    char fen[256];
    dtb_position_to_fen(&p, fen, sizeof fen);
    return std::string(probe) + " of " + fen + " with a fuzzed " + t.file +
           (repaired ? " (checksums recomputed)" : " (checksums as given)");
}

void check_answer(const char* probe, const TableName& t, const dtb_position& p, const Answer& got,
                  const std::string& message, const Answer& valid, bool identical, bool repaired) {
    const std::string where = describe(probe, t, p, repaired);
    if (identical) {
        fuzz::check(got.status == valid.status, "a valid file gives the valid status", where);
    } else {
        fuzz::check(got.status == valid.status || got.status == DTB_CORRUPT_TABLE,
                    "a damaged file gives its table's status or DTB_CORRUPT_TABLE",
                    where + ": " + dtb_status_name(got.status));
    }
    // A repaired file may pass every check of its own and still disagree
    // with the other tables, which dtb finds without knowing which of them
    // is wrong: its message names the position.
    if (got.status == DTB_CORRUPT_TABLE && valid.status != DTB_CORRUPT_TABLE && !repaired)
        fuzz::check(message.find(t.file) != std::string::npos, "the message names the damaged file",
                    where + ": " + message);
    if (got.status != DTB_OK) return;
    const bool is_best = std::strcmp(probe, "best move") == 0;
    if (!repaired || identical) {
        fuzz::check(got.value.wdl == valid.value.wdl && got.value.dtw == valid.value.dtw,
                    "a file that passes its checks gives the valid value", where);
        if (is_best) fuzz::check(same_move(got.move, valid.move), "... and the valid best move", where);
        return;
    }
    fuzz::check(got.value.wdl >= DTB_LOSS && got.value.wdl <= DTB_WIN, "a value is a win, draw or loss", where);
    if (std::strcmp(probe, "wdl") != 0)
        fuzz::check((got.value.wdl == DTB_DRAW) == (got.value.dtw == -1) && got.value.dtw >= -1,
                    "a DTW is -1 exactly for a draw", where);
    if (is_best) {
        dtb_position next;
        fuzz::check(dtb_position_after(&p, &got.move, &next) == DTB_OK, "a best move is a legal move", where);
    }
}

// The file under its name, probed; every answer checked against the valid
// table's.
void run_one(std::size_t which, bool repaired, std::vector<char> bytes) {
    Harness& h = harness();
    const TableName& t = kNames[which];
    const Reference& ref = h.references[which];
    if (repaired) repair_checksums(bytes);
    const bool identical = bytes == ref.bytes;

    const fs::path file = h.scratch / t.file;
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        fuzz::check(bool(out), "the fuzzed file can be written", file.string());
    }
    dtb_tablebase* tb = open_tables({h.scratch, h.valid_dir});
    std::vector<std::string> messages;
    const Probes got = probe_all(tb, ref.positions, &messages);
    dtb_close(tb);
    std::error_code ec;
    fs::remove(file, ec);

    for (std::size_t i = 0; i < ref.positions.size(); ++i) {
        const dtb_position& p = ref.positions[i];
        check_answer("wdl", t, p, got.wdl[i], messages[3 * i], ref.wdl[i], identical, repaired);
        check_answer("dtw", t, p, got.dtw[i], messages[3 * i + 1], ref.dtw[i], identical, repaired);
        check_answer("best move", t, p, got.best[i], messages[3 * i + 2], ref.best[i], identical, repaired);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // Once, whatever the corpus holds (its seeds are the tables of the dtb
    // that wrote them): each valid table as it is and with its checksums
    // recomputed, which must change nothing.
    static const bool self_checked = [] {
        for (std::size_t i = 0; i < kNames.size(); ++i) {
            run_one(i, false, harness().references[i].bytes);
            run_one(i, true, harness().references[i].bytes);
        }
        return true;
    }();
    (void)self_checked;
    if (size < 1) return 0;
    run_one(data[0] % kNames.size(), (data[0] & 0x80) != 0,
            std::vector<char>(reinterpret_cast<const char*>(data) + 1, reinterpret_cast<const char*>(data) + size));
    return 0;
}
