// dtc_crosscheck DIR VARIANT PIECES SAMPLES [SEED]: on random positions of
// the tables of exactly PIECES pieces in DIR, or of one table where PIECES
// is its signature (DIR must hold their .wdl, .dtw and .dtc files and those
// of every table they lead to), at random counts,
// `dtb adjudicate` must answer exactly from the .dtc tables (basis dtc)
// every time; each answer is then asked of CountSearch over the WDL and DTW
// tables alone (adjudication/count_search.hpp: a bounded search through DrawCounts
// that never reads a .dtc file), and where that search settles it the two
// must agree. Each answer is also worked out with every king block solved
// whole (RuleJudge's BlockSolving::Always, tables/king_block.hpp), which
// must give the same. Prints the tally; exit status 1 on any disagreement or
// inexact answer, 2 on bad arguments. scripts/dtc-crosscheck.sh runs it.
#include <cstdint>
#include <iostream>
#include <random>
#include <string>

#include "adjudication/judge.hpp"
#include "adjudication/ruling_text.hpp"
#include "probe/dtc_tables.hpp"
#include "rules/notation.hpp"
#include "tables/signatures.hpp"

namespace dtb {
namespace {

struct Tally {
    std::uint64_t positions = 0, asked = 0, no_rule = 0, not_dtc = 0, searched = 0, settled = 0, agree = 0,
                  disagree = 0, winnable = 0, blocks_disagree = 0;
};

template <class V>
int run(const probe::Tablebase& tb, const std::string& pieces, std::uint64_t samples, std::uint64_t seed) {
    std::vector<MaterialSignature> sigs;
    if (pieces.find('v') != std::string::npos) {
        const std::optional<MaterialSignature> sig = MaterialSignature::parse(pieces);
        if (!sig) {
            std::cerr << "not a material signature: " << pieces << '\n';
            return 2;
        }
        sigs.push_back(*sig);
    } else {
        for (const MaterialSignature& s : all_signatures(V::id, std::stoi(pieces)))
            if (s.total() == std::stoi(pieces)) sigs.push_back(s);
    }
    const probe::DtcTables<V> store(tb);
    RuleJudge<V, probe::DtcTables<V>> by_blocks(store);
    by_blocks.set_block_solving(RuleJudge<V, probe::DtcTables<V>>::BlockSolving::Always);
    std::mt19937_64 rng(seed);
    Tally t;
    while (t.asked < samples) {
        const MaterialSignature& sig = sigs[rng() % sigs.size()];
        const PositionIndex<V> index(sig);
        const Position<V> pos = index.unrank(rng() % index.size());
        if (game_over(pos)) continue;
        ++t.positions;
        // A game's counts: the king-move count at most the conversion count
        // (a conversion starts both again).
        const int m = int(rng() % 32), k = int(rng() % 16), c = k + int(rng() % 32);
        adjudication::AdjudicateOptions o;
        o.moves_played = m;
        o.king_moves_played = k;
        o.conversion_moves_played = c;
        auto a = adjudication::adjudicate(tb, pos, o);
        if (!a) {
            std::cerr << to_fen(pos) << ": " << a.error().message << '\n';
            return 1;
        }
        if (!a->rule) {
            ++t.no_rule;
            continue;
        }
        ++t.asked;
        if (a->wdl <= 0 || a->moves_left == 0) continue;  // no win to judge: the tables' value decides
        if (!a->exact || a->basis != adjudication::Basis::dtc) {
            ++t.not_dtc;
            std::cerr << "not exact by DTC: " << to_fen(pos) << " " << m << "/" << k << "/" << c << ": "
                      << adjudication::verdict_text(V::draw_rules, *a) << '\n';
            continue;
        }
        t.winnable += a->winnable;
        ++t.searched;
        const int value = by_blocks.exact_value(pos, DrawCounts<V>::resumed(pos, m, k, c));
        if ((value == (pos.side_to_move == *a->stronger ? 1 : -1)) != a->winnable) {
            ++t.blocks_disagree;
            std::cerr << "BLOCKS DISAGREE: " << to_fen(pos) << " " << m << "/" << k << "/" << c << '\n';
        }
        adjudication::CountSearch<V> search(tb, *a->stronger, 2000000);
        auto r = search.wins(pos, DrawCounts<V>::resumed(pos, m, k, c));
        if (!r) {
            std::cerr << to_fen(pos) << ": " << r.error().message << '\n';
            return 1;
        }
        if (!r->has_value()) continue;
        ++t.settled;
        if (**r == a->winnable) {
            ++t.agree;
        } else {
            ++t.disagree;
            std::cerr << "DISAGREE: " << to_fen(pos) << " moves " << m << " king moves " << k << " conversion " << c
                      << ": dtc says " << (a->winnable ? "winnable" : "not winnable") << ", the search "
                      << (**r ? "winnable" : "not winnable") << '\n';
        }
    }
    std::cout << V::name << " " << (sigs.size() == 1 ? sigs[0].name() : pieces + " pieces") << ", seed " << seed << ": "
              << t.positions << " positions, " << t.asked << " answers under a rule (" << t.no_rule
              << " positions with none), " << t.searched << " with a win to judge, all exact by DTC except "
              << t.not_dtc << "; " << t.winnable << " winnable; the search without DTC settled " << t.settled << ": "
              << t.agree << " agree, " << t.disagree << " disagree; by king blocks " << t.blocks_disagree << " disagree"
              << std::endl;
    return t.disagree == 0 && t.not_dtc == 0 && t.blocks_disagree == 0 ? 0 : 1;
}

}  // namespace
}  // namespace dtb

int main(int argc, char** argv) {
    if (argc < 5) {
        std::cerr << "usage: dtc_crosscheck DIR russian|international PIECES|SIGNATURE SAMPLES [SEED]\n";
        return 2;
    }
    const std::string variant = argv[2];
    if (variant != "russian" && variant != "international") {
        std::cerr << "unknown variant " << variant << '\n';
        return 2;
    }
    const std::string pieces = argv[3];
    const std::uint64_t samples = std::stoull(argv[4]);
    const std::uint64_t seed = argc > 5 ? std::stoull(argv[5]) : 1;
    auto tb = dtb::probe::Tablebase::open({argv[1]}, std::size_t{1} << 30);
    if (!tb) {
        std::cerr << tb.error().message << '\n';
        return 2;
    }
    const dtb::VariantId id = variant == "russian" ? dtb::VariantId::Russian : dtb::VariantId::International;
    return dtb::with_variant(id, [&]<class V>() { return dtb::run<V>(**tb, pieces, samples, seed); });
}
