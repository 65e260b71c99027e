#include "gen/dtc_tables.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <set>

#include "gen/memory_budget.hpp"
#include "gen/rule_solver.hpp"
#include "rules/notation.hpp"
#include "tables/signatures.hpp"
#include "tables/table_names.hpp"

namespace dtb {

namespace {

// The pair of `key` solved into `solver`, the tables it converts into read
// from their files.
template <class V>
void solve_from_files(RuleSolver<V>& solver, const MaterialSignature& key, const std::filesystem::path& dir) {
    solver.forget();
    solver.open_files(dir, RuleSolver<V>::conversion_closure(key));
    solver.solve_pair(key);
}

template <class V>
std::vector<VerifyReport> verify(const std::filesystem::path& dir, std::ostream& log,
                                 const std::vector<MaterialSignature>& only) {
    std::set<MaterialSignature> present;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const auto name = parse_table_file_name(entry.path().filename().string());
        if (name && name->variant == V::id && name->metric == compress::Metric::dtc) present.insert(name->signature);
    }
    std::set<MaterialSignature> keys;
    for (const MaterialSignature& s : present)
        if (only.empty() || std::find(only.begin(), only.end(), s) != only.end()) keys.insert(pair_key(s));
    std::vector<VerifyReport> reports;
    RuleSolver<V> solver;
    for (const MaterialSignature& key : solving_order({keys.begin(), keys.end()})) {
        if (!keys.count(key)) continue;
        const auto start = std::chrono::steady_clock::now();
        std::vector<MaterialSignature> sides{key};
        if (!key.is_symmetric()) sides.push_back(key.mirror());
        std::vector<VerifyReport> pair;
        std::vector<compress::WholeTable> stored;
        for (const MaterialSignature& s : sides) {
            VerifyReport r;
            r.signature = s;
            auto whole = compress::read_whole_table(dir / table_file_name(V::id, s, compress::Metric::dtc));
            if (!whole) r.damaged.push_back(whole.error().message);
            stored.push_back(whole ? std::move(*whole) : compress::WholeTable{});
            pair.push_back(std::move(r));
        }
        bool damaged = false;
        for (const VerifyReport& r : pair) damaged = damaged || !r.damaged.empty();
        bool solved = false;
        if (!damaged) {
            // A smaller table's .dtc file missing or damaged: this pair is
            // not checked (named), the others still are.
            try {
                solve_from_files(solver, key, dir);
                solved = true;
            } catch (const std::runtime_error& e) {
                for (std::size_t k = 0; k < pair.size(); ++k) {
                    pair[k].positions = stored[k].header.position_count;
                    pair[k].unchecked.push_back(e.what());
                }
            }
        }
        if (solved) {
            for (std::size_t k = 0; k < sides.size(); ++k) {
                compress::TableDescription d;
                const std::vector<std::uint16_t> want = solver.symbols(sides[k], d);
                const compress::WholeTable& w = stored[k];
                VerifyReport& r = pair[k];
                r.positions = want.size();
                if (w.header.position_count != want.size()) {
                    r.damaged.push_back(sides[k].name() + ".dtc: " + std::to_string(w.header.position_count) +
                                        " positions, the signature has " + std::to_string(want.size()));
                    continue;
                }
                const PositionIndex<V> index(sides[k]);
                // Capture positions are don't-care where the file says so.
                std::vector<std::uint8_t> skip;
                if (w.header.flags & compress::kFlagCapturesNotStored)
                    skip = RuleSolver<V>::capture_positions(sides[k]);
                for (std::uint64_t i = 0; i < want.size(); ++i) {
                    const std::uint16_t got = w.header.symbol_bits == 16 ? w.words[i] : w.bytes[i];
                    if (got == want[i] || (!skip.empty() && skip[i])) continue;
                    if (++r.mismatches <= 5)
                        r.examples.push_back(to_fen(index.unrank(i)) + ": stored symbol " + std::to_string(got) +
                                             ", from successors " + std::to_string(want[i]));
                }
            }
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (VerifyReport& r : pair) {
            if (!present.count(r.signature)) continue;
            if (!only.empty() && std::find(only.begin(), only.end(), r.signature) == only.end()) continue;
            r.seconds = seconds;
            log << std::left << std::setw(12) << r.signature.name() << std::right << " .dtc " << std::setw(12)
                << r.positions << " positions, " << r.mismatches << " inconsistent"
                << (r.damaged.empty() ? "" : ", DAMAGED: " + r.damaged.front())
                << (r.unchecked.empty() ? "" : ", NOT CHECKED: " + r.unchecked.front()) << std::endl;
            reports.push_back(std::move(r));
        }
    }
    solver.forget();
    return reports;
}

template <class V>
std::vector<DtcTableStats> build(const std::vector<MaterialSignature>& targets, const std::filesystem::path& dir,
                                 std::ostream& log, std::uint64_t memory_bytes) {
    std::filesystem::create_directories(dir);
    const auto path_of = [&](const MaterialSignature& s) {
        return dir / table_file_name(V::id, s, compress::Metric::dtc);
    };
    std::vector<DtcTableStats> built;
    RuleSolver<V> solver;
    for (const MaterialSignature& key : solving_order(targets)) {
        std::vector<MaterialSignature> sides{key};
        if (!key.is_symmetric()) sides.push_back(key.mirror());
        bool done = true;
        for (const MaterialSignature& s : sides) done = done && std::filesystem::exists(path_of(s));
        if (done) continue;

        // Refused before it starts if its values and scratch do not fit
        // beside a reserve for the rest of the process.
        constexpr std::uint64_t kReserve = std::uint64_t{256} << 20;
        if (const std::uint64_t need = RuleSolver<V>::memory_bound(key) + kReserve; memory_bytes && need > memory_bytes)
            throw std::runtime_error("the .dtc tables of " + key.name() + "'s pair need " + format_bytes(need) +
                                     ", more than the " + format_bytes(memory_bytes) +
                                     " allowed (--memory); give more, or build without --dtc");
        const auto start = std::chrono::steady_clock::now();
        solve_from_files(solver, key, dir);
        std::vector<DtcTableStats> pair;
        for (const MaterialSignature& s : sides) {
            const compress::Header h = solver.write(dir, s);
            pair.push_back({s, h.position_count, h.file_size, h.table.longest_win, h.table.longest_loss, 0});
        }
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        for (DtcTableStats& t : pair) {
            t.seconds = seconds;
            log << std::left << std::setw(12) << t.signature.name() << std::right << std::setw(12) << t.positions
                << " positions " << std::setw(11) << t.bytes << " bytes .dtc  longest win " << t.longest_win
                << " plies to conversion  " << std::fixed << std::setprecision(2) << seconds << " s" << std::endl;
            built.push_back(t);
        }
    }
    solver.forget();
    return built;
}

}  // namespace

std::vector<VerifyReport> verify_dtc_tables(VariantId variant, const std::filesystem::path& dir, std::ostream& log,
                                            const std::vector<MaterialSignature>& only) {
    return with_variant(variant, [&]<class V>() { return verify<V>(dir, log, only); });
}

std::vector<DtcTableStats> build_dtc_tables(VariantId variant, const std::vector<MaterialSignature>& targets,
                                            const std::filesystem::path& dir, int threads, std::ostream& log,
                                            std::uint64_t memory_bytes) {
    if (threads > 0) omp_set_num_threads(threads);
    return with_variant(variant, [&]<class V>() { return build<V>(targets, dir, log, memory_bytes); });
}

}  // namespace dtb
