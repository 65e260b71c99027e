#include "bench.hpp"

#include <stdexcept>

namespace engine {

// The positions depend on the board only: the 8x8 ones are legal positions
// of every 8x8 variant.
const std::vector<const char*>& bench_positions(int variant) {
    static const std::vector<const char*> board8 = {
        "W:Wa3,c3,e3,g3,b2:Bb6,d6,f6,h6", "W:Wc3,e3,g3,Kd2:Bb6,f6,h6,Kd8", "B:Wa3,c3,f2,h2:Ba7,c7,f6,h6",
        "W:Wb4,d4,f4,h4:Ba5,c5,e7,g7",    "W:WKa1,c3,e3,g1:Bb8,Kh8,f6,d6", "B:WKc1,e3,g3,a3:Bb6,Kd8,f6,h6",
        "W:Wa1,c1,e3,g3,h2:Bb8,d8,f6,h6", "B:Wc3,d2,e3,f2:Bc7,d6,e7,f8",
    };
    static const std::vector<const char*> board10 = {
        "W:W28,32,33,37,38:B12,13,17,18,19",
        "W:W27,31,36,K46:B5,14,15,K4",
        "B:W31,32,33,34:B16,17,18,19",
        "W:W35,40,45,K49:B6,11,16,K2",
    };
    return Geometry::of(variant).size == 8 ? board8 : board10;
}

static BenchRun bench_once(int variant, Tables* tables, const Limits& limits, std::size_t hash_bytes) {
    BenchRun run;
    for (const char* fen : bench_positions(variant)) {
        dtb_position p;
        char err[256];
        if (dtb_position_from_fen(variant, fen, &p, err, sizeof err) != DTB_OK)
            throw std::logic_error(std::string("bench position ") + fen + ": " + err);
        // A fresh engine for each position: every search starts cold alike.
        Engine engine(variant, tables, hash_bytes);
        const SearchResult r = engine.think(from_dtb(p), limits);
        run.nodes += r.nodes;
        run.seconds += r.seconds;
        run.probes.probes += r.probes.probes;
        run.probes.hits += r.probes.hits;
        run.probes.from_memory += r.probes.from_memory;
    }
    return run;
}

BenchReport run_bench(int variant, Tables* tables, const Limits& limits, std::size_t hash_bytes) {
    BenchReport report;
    report.variant = variant;
    report.positions = static_cast<int>(bench_positions(variant).size());
    report.nodes_per_position = limits.nodes;
    report.without_tables = bench_once(variant, nullptr, limits, hash_bytes);
    if (tables) {
        report.max_pieces = dtb_max_pieces(tables->handle(), variant);
        bench_once(variant, tables, limits, hash_bytes);  // reads the blocks it needs: the figures are warm
        report.with_tables = bench_once(variant, tables, limits, hash_bytes);
    }
    return report;
}

}  // namespace engine
