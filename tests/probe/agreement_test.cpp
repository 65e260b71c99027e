// The probe against the generator: every position of every Russian table up
// to 5 pieces and every international table up to 4, through the C API,
// must get exactly the value the generator's raw table holds (WDL and DTW),
// with either side to move, capture positions included (the compressed
// files do not store those: the probe searches them). The best move (at
// some 50000 positions of each table) must lead to a position whose raw
// value realises the DTW.
//
// One test per signature, so that ctest runs them in parallel and a failure
// names its table.
#include <gtest/gtest.h>

#include "gen/raw_table.hpp"
#include "tables/signatures.hpp"
#include "tests/probe/test_support.hpp"

namespace dtb::probe_test {
namespace {

struct Case {
    VariantId variant;
    MaterialSignature signature;
};

// How CTest and gtest show a case ("russian-KKvK"), instead of its bytes.
void PrintTo(const Case& c, std::ostream* out) { *out << variant_name(c.variant) << "-" << c.signature.name(); }

std::vector<Case> cases(VariantId variant, int pieces) {
    std::vector<Case> out;
    for (const MaterialSignature& sig : all_signatures(variant, pieces)) out.push_back({variant, sig});
    return out;
}

std::filesystem::path agreement_tables() {
    ensure_tables(DTB_AGREEMENT_TABLES, VariantId::Russian, 5);
    ensure_tables(DTB_AGREEMENT_TABLES, VariantId::International, 4);
    ensure_tables(DTB_AGREEMENT_TABLES, VariantId::Brazilian, 4);
    return DTB_AGREEMENT_TABLES;
}

// A best move costs a probe of every legal move (some 40 for international
// kings): they are checked at about this many positions of each table,
// evenly spread (every position of the smaller tables).
constexpr std::uint64_t kBestMovesPerTable = 50000;
// Black-to-move probes, at every 5th position: they differ from White's
// only in how the position is turned before the look-up.
constexpr std::uint64_t kFlipStride = 5;

template <class V>
void check_table(const MaterialSignature& sig) {
    const auto dir = agreement_tables();
    const VariantId variant = variant_of<V>();
    const RawTable raw = read_raw_table(raw_table_path(dir, variant, sig));
    ASSERT_EQ(raw.header.signature, sig);

    // The raw values of every position a move can reach, for checking best
    // moves without the probe.
    ExactTables<V> children;
    children.add(read_raw_table(raw_table_path(dir, variant, sig.mirror())));
    for (const MaterialSignature& s : successor_signatures(sig))
        children.add(read_raw_table(raw_table_path(dir, variant, s)));

    Handle tb(dir, std::size_t{64} << 20);
    const PositionIndex<V> index(sig);
    ASSERT_EQ(index.size(), raw.header.positions);
    const std::uint64_t stride = std::max<std::uint64_t>(1, index.size() / kBestMovesPerTable);
    std::uint64_t failures = 0, captures = 0, best_moves = 0;
    const auto fail = [&](const Position<V>& pos, const std::string& what) {
        if (++failures <= 10) ADD_FAILURE() << table_basename(variant, sig) << " " << to_fen(pos) << ": " << what;
    };
    for (std::uint64_t i = 0; i < index.size(); ++i) {
        const Position<V> pos = index.unrank(i);
        const int raw_value = raw.value(i);
        const dtb_value expected = expected_value(raw_value);
        captures += MoveGenerator<V>::has_capture(pos) ? 1 : 0;

        const dtb_position c = c_position(pos);
        dtb_value wdl{}, dtw{};
        if (dtb_probe_wdl(tb, &c, &wdl) != DTB_OK)
            fail(pos, "dtb_probe_wdl: " + tb.error());
        else if (wdl.wdl != expected.wdl || wdl.dtw != -1)
            fail(pos, "WDL " + show(wdl) + ", raw " + show(expected));
        if (dtb_probe_dtw(tb, &c, &dtw) != DTB_OK)
            fail(pos, "dtb_probe_dtw: " + tb.error());
        else if (!same(dtw, expected))
            fail(pos, "DTW " + show(dtw) + ", raw " + show(expected));
        // The same position with Black to move (colours swapped, board
        // turned) reads the same entry through the other path of the probe.
        if (i % kFlipStride == 0) {
            const dtb_position turned = c_position(flip(pos));
            if (dtb_probe_dtw(tb, &turned, &dtw) != DTB_OK)
                fail(flip(pos), "dtb_probe_dtw: " + tb.error());
            else if (!same(dtw, expected))
                fail(flip(pos), "DTW " + show(dtw) + ", raw " + show(expected));
        }

        if (i % stride != 0) continue;
        ++best_moves;
        dtb_move m{};
        dtb_value v{};
        const int status = dtb_best_move(tb, &c, &m, &v);
        if (raw_value == 0) {  // lost now: no legal move
            if (status != DTB_NO_MOVE) fail(pos, "a position lost now has a best move " + std::string(m.text));
            continue;
        }
        if (status != DTB_OK) {
            fail(pos, "dtb_best_move: " + tb.error());
            continue;
        }
        if (!same(v, expected)) fail(pos, "dtb_best_move value " + show(v) + ", raw " + show(expected));
        // The move's text must name it (notation round trip), and the raw
        // value of the position it leads to must realise the DTW: a win in d
        // goes to a loss in d-1, a loss in d to a win in d-1, a draw to a draw.
        Move move{};
        try {
            move = parse_move(pos, m.text);
        } catch (const InputError& e) {
            fail(pos, std::string("best move text does not read back: ") + e.what());
            continue;
        }
        if (square_number<V>(BitIndex{move.from}) != m.from || square_number<V>(BitIndex{move.to}) != m.to)
            fail(pos, std::string("best move squares do not match its text ") + m.text);
        const int child = children.value(pos.after(move));
        const int realised = child == kDraw ? kDraw : child + 1;
        if (realised != raw_value)
            fail(pos, std::string("best move ") + m.text + " reaches " + std::to_string(child) + ", raw value " +
                          std::to_string(raw_value));
    }
    EXPECT_EQ(failures, 0u);
    // Guard against a vacuous pass.
    EXPECT_GT(index.size(), 0u);
    EXPECT_GT(best_moves, 0u);
    ::testing::Test::RecordProperty("positions", std::to_string(index.size()));
    ::testing::Test::RecordProperty("capture_positions", std::to_string(captures));
}

class Agreement : public ::testing::TestWithParam<Case> {};

TEST_P(Agreement, EveryPosition) {
    const Case& c = GetParam();
    with_variant(c.variant, [&]<class V>() { check_table<V>(c.signature); });
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) { return info.param.signature.name(); }

INSTANTIATE_TEST_SUITE_P(Russian, Agreement, ::testing::ValuesIn(cases(VariantId::Russian, 5)), case_name);
INSTANTIATE_TEST_SUITE_P(International, Agreement, ::testing::ValuesIn(cases(VariantId::International, 4)), case_name);
INSTANTIATE_TEST_SUITE_P(Brazilian, Agreement, ::testing::ValuesIn(cases(VariantId::Brazilian, 4)), case_name);

}  // namespace
}  // namespace dtb::probe_test
