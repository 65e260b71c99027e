// The count oracle against dtb adjudicate (adjudication/judge.hpp): on the
// positions of every table up to 4 pieces and many combinations of counts,
// each answer adjudicate marks exact must be the oracle's. Shared by the
// everyday test (a sample of each table) and the slow one (every position).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "adjudication/judge.hpp"
#include "adjudication/ruling_text.hpp"
#include "rules/notation.hpp"
#include "tables/signatures.hpp"
#include "tests/rules_oracle/count_oracle.hpp"

namespace dtb::oracle_test {

using oracle::CountOracle;
using oracle::CountState;

// Russian and international up to 4 pieces, made by the CTest fixture
// rules_oracle_make_tables.
inline std::filesystem::path oracle_tables() { return DTB_ORACLE_TABLES; }
#ifdef DTB_ORACLE_DTC_TABLES
// The same with the .dtc tables (dtb gen --dtc), made by the CTest fixture
// rules_oracle_make_dtc_tables.
inline std::filesystem::path oracle_dtc_tables() { return DTB_ORACLE_DTC_TABLES; }
#endif

template <class V>
std::unique_ptr<probe::Tablebase> open_tables(const std::filesystem::path& dir = oracle_tables()) {
    auto tb = probe::Tablebase::open({dir}, std::size_t{256} << 20);
    if (!tb) throw std::runtime_error("cannot open " + dir.string() + ": " + tb.error().message);
    if (tb.value()->max_pieces(V::id) < 4)
        throw std::runtime_error(dir.string() + " lacks the " + std::string(V::name) +
                                 " tables up to 4 pieces (ctest -R rules_oracle_make makes them)");
    return std::move(*tb);
}

// The tables' values, for the oracle's shortcuts (CountOracle::Options::unlimited).
template <class V>
typename CountOracle<V>::UnlimitedValue values_from(const probe::Tablebase& tb) {
    return [search = probe::Search<V>(tb)](const Position<V>& pos) {
        auto value = search.value(pos);
        if (!value) throw std::runtime_error("value of " + to_fen(pos) + ": " + value.error().message);
        return *value;
    };
}

// The counts worth asking at `pos`: moves played m from 0 to one past the
// largest limit of the rules that cover it (all of them have ended by
// then), king moves k from 0 to min(m, one past the king-move limit). In a
// game k never exceeds m: whatever starts the other counts again starts the
// king-move count again too.
template <class V>
std::vector<CountState> all_counts(const Position<V>& pos) {
    const std::optional<Color> stronger = oracle::detail::stronger_against_lone_king(pos);
    int highest = 0, king_limit = 0;
    for (const DrawRule& r : V::draw_rules) {
        const bool covers = r.count == DrawCount::stronger_side_moves
                                ? stronger && oracle::detail::lone_material_stands(r, pos, *stronger)
                                : r.count != DrawCount::repetitions && oracle::detail::plies_rule_covers(r, pos);
        if (covers) highest = std::max(highest, r.limit + 1);
        if (r.count == DrawCount::king_moves) king_limit = r.limit + 1;
    }
    std::vector<CountState> out;
    for (int m = 0; m <= highest; ++m)
        for (int k = 0; k <= std::min(m, king_limit); ++k) out.push_back({m, 2 * m, 2 * k});
    return out;
}

struct SweepOptions {
    std::uint64_t samples_per_table = 0;  // positions of each table, evenly spread; 0: every position
    std::size_t counts_per_position = 0;  // a few of all_counts() (fresh counts and some drawn by the
                                          // position's index); 0: all of them
    int all_counts_up_to = 0;             // but all of them on tables of at most this many pieces
    // Answers that DTW leaves open: every search_every-th is asked again
    // with search_nodes nodes (adjudication::CountSearch), at most
    // searches_per_table of them per table (a search can take a second).
    std::size_t search_nodes = 1000000;
    int search_every = 1;
    int searches_per_table = 0;
    // Of the answers still open after that, every judge_every-th is given
    // the oracle's answer, for the record (0: none).
    int judge_every = 0;
    // With the .dtc tables: every answer must be exact (basis dtc), and each
    // combination of counts is also asked with a count since the last
    // conversion of its own (--conversion-moves), from 0 to past its limit.
    bool with_dtc = false;
};

struct SweepTally {
    std::uint64_t positions = 0;
    std::uint64_t answers = 0;
    std::uint64_t no_rule = 0;          // no count covers the material: nothing to adjudicate
    std::uint64_t exact_by_dtw = 0;     // exact without a search: compared with the oracle
    std::uint64_t exact_by_search = 0;  // exact after the search: compared with the oracle
    std::uint64_t not_exact = 0;        // not settled, even by the search
    std::uint64_t not_searched = 0;     // not settled by DTW, and the table's searches were spent
    std::uint64_t winnable = 0;         // of the exact ones
    std::uint64_t disagreements = 0;
    std::uint64_t not_dtc = 0;  // with_dtc: answers not exact by the .dtc tables
    // Of the answers not exact, those the oracle answered, how many of them
    // it finds winnable, and where adjudicate's provisional answer (DTW's)
    // is not the oracle's: not winnable where it is (too low), and the other
    // way round.
    std::uint64_t open_judged = 0;
    std::uint64_t open_winnable = 0;
    std::uint64_t open_guess_too_low = 0;
    std::uint64_t open_guess_too_high = 0;

    std::uint64_t exact() const { return exact_by_dtw + exact_by_search; }
    void add(const SweepTally& o) {
        positions += o.positions;
        answers += o.answers;
        no_rule += o.no_rule;
        exact_by_dtw += o.exact_by_dtw;
        exact_by_search += o.exact_by_search;
        not_exact += o.not_exact;
        not_searched += o.not_searched;
        winnable += o.winnable;
        disagreements += o.disagreements;
        not_dtc += o.not_dtc;
        open_judged += o.open_judged;
        open_winnable += o.open_winnable;
        open_guess_too_low += o.open_guess_too_low;
        open_guess_too_high += o.open_guess_too_high;
    }
    std::string text() const {
        std::ostringstream s;
        s << positions << " positions, " << answers << " answers: " << exact() << " exact (" << exact_by_dtw
          << " without a search, " << exact_by_search << " by search; " << winnable << " winnable), " << not_exact
          << " not exact after a search, " << not_searched << " not exact and not searched; of those not exact, "
          << open_judged << " given to the oracle: " << open_winnable << " winnable, DTW's provisional answer "
          << open_guess_too_low << " times not winnable and " << open_guess_too_high
          << " times winnable where the oracle says otherwise; " << no_rule << " with no rule";
        if (disagreements) s << ", " << disagreements << " DISAGREEMENTS";
        if (not_dtc) s << ", " << not_dtc << " NOT EXACT BY DTC";
        return s.str();
    }
};

// One table: adjudicate each position and counts, and compare every exact
// answer with the oracle.
template <class V>
class TableSweep {
public:
    TableSweep(const probe::Tablebase& tb, CountOracle<V>& oracle, const SweepOptions& o)
        : tb_(tb), oracle_(oracle), o_(o) {}

    SweepTally run(const MaterialSignature& sig) {
        all_counts_ = sig.total() <= o_.all_counts_up_to;
        const PositionIndex<V> index(sig);
        const std::uint64_t size = index.size();
        const std::uint64_t stride =
            o_.samples_per_table == 0 ? 1 : std::max<std::uint64_t>(1, size / o_.samples_per_table);
        for (std::uint64_t i = (size / 7) % stride; i < size; i += stride) {
            const Position<V> pos = index.unrank(i);
            if (oracle::detail::lost(pos)) continue;
            ++t_.positions;
            for (const CountState& c : chosen_counts(pos, i)) check(pos, c);
        }
        return t_;
    }

private:
    std::vector<CountState> chosen_counts(const Position<V>& pos, std::uint64_t i) const {
        std::vector<CountState> all = all_counts(pos);
        if (o_.with_dtc) {
            // A conversion count apart: at least the king-move count (a
            // conversion starts that one again too), spread to past the
            // limit of 2.1.9.1.5 (60 moves at most).
            const std::size_t n = all.size();
            std::uint64_t x = i * 0xD1B54A32D192ED03ULL + 7;
            for (std::size_t j = 0; j < n; ++j) {
                x ^= x >> 31;
                x *= 0x94D049BB133111EBULL;
                const int k = all[j].king_plies / 2;
                all.push_back(
                    {all[j].lone_moves, 2 * (k + int(x % std::uint64_t(62 - std::min(k, 61)))), all[j].king_plies});
            }
        }
        if (all_counts_ || o_.counts_per_position == 0 || all.size() <= o_.counts_per_position) return all;
        std::vector<CountState> some{all.front()};  // fresh counts
        std::uint64_t x = i * 0x9E3779B97F4A7C15ULL + 1;
        while (some.size() < o_.counts_per_position) {
            x ^= x >> 29;
            x *= 0xBF58476D1CE4E5B9ULL;
            x ^= x >> 32;
            some.push_back(all[x % all.size()]);
        }
        return some;
    }

    void check(const Position<V>& pos, const CountState& c) {
        ++t_.answers;
        adjudication::AdjudicateOptions o;
        o.moves_played = c.lone_moves;
        o.king_moves_played = c.king_plies / 2;
        o.conversion_moves_played = c.conversion_plies / 2;
        o.search_nodes = 0;
        adjudication::Ruling a = adjudicated(pos, o);
        if (!a.rule) {
            ++t_.no_rule;
            return;
        }
        if (o_.with_dtc && a.wdl > 0 && a.moves_left > 0 && (!a.exact || a.basis != adjudication::Basis::dtc) &&
            ++t_.not_dtc <= 10)
            ADD_FAILURE() << to_fen(pos) << " moves played " << c.lone_moves
                          << ": not answered by the .dtc tables: " << adjudication::verdict_text(V::draw_rules, a);
        if (a.exact) {
            ++t_.exact_by_dtw;
        } else if (open_++ % o_.search_every != 0 || searches_ >= o_.searches_per_table) {
            ++t_.not_searched;
        } else {
            ++searches_;
            o.search_nodes = o_.search_nodes;
            a = adjudicated(pos, o);
            ++(a.exact ? t_.exact_by_search : t_.not_exact);
        }
        if (!a.exact) {
            // Not a claim of adjudicate's: what the rules' answer is there.
            if (o_.judge_every > 0 && still_open_++ % o_.judge_every == 0) {
                const bool wins = oracle_.wins(pos, c, *a.stronger);
                ++t_.open_judged;
                t_.open_winnable += wins;
                t_.open_guess_too_low += wins && !a.winnable;
                t_.open_guess_too_high += !wins && a.winnable;
            }
            return;
        }
        const bool wins = oracle_.wins(pos, c, *a.stronger);
        t_.winnable += a.winnable;
        if (wins != a.winnable && ++t_.disagreements <= 10)
            ADD_FAILURE() << to_fen(pos) << " moves played " << c.lone_moves << ", king moves " << c.king_plies / 2
                          << ", since conversion " << c.conversion_plies / 2 << ": adjudicate says "
                          << (a.winnable ? "winnable" : "not winnable") << ", the oracle says the stronger side "
                          << (wins ? "wins" : "does not win") << "\n"
                          << adjudication::verdict_text(V::draw_rules, a);
    }

    adjudication::Ruling adjudicated(const Position<V>& pos, const adjudication::AdjudicateOptions& o) const {
        auto a = adjudication::adjudicate(tb_, pos, o);
        if (!a) throw std::runtime_error("adjudicate " + to_fen(pos) + ": " + a.error().message);
        return std::move(*a);
    }

    const probe::Tablebase& tb_;
    CountOracle<V>& oracle_;
    const SweepOptions& o_;
    SweepTally t_;
    bool all_counts_ = false;
    int open_ = 0;        // answers DTW left open so far
    int still_open_ = 0;  // answers not exact so far
    int searches_ = 0;
};

// Every table of V up to 4 pieces. Prints a line per table and the total.
template <class V>
SweepTally sweep_all(const SweepOptions& o, const std::filesystem::path& dir = oracle_tables()) {
    const auto tb = open_tables<V>(dir);
    SweepTally total;
    for (const MaterialSignature& sig : all_signatures(V::id, 4)) {
        const auto start = std::chrono::steady_clock::now();
        // One oracle per table: what it keeps is freed before the next.
        CountOracle<V> oracle({.unlimited = values_from<V>(*tb), .merge_equivalent = true});
        const SweepTally t = TableSweep<V>(*tb, oracle, o).run(sig);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cout << V::name << " " << sig.name() << ": " << t.text() << "; " << oracle.states() << " oracle states, "
                  << seconds << " s" << std::endl;
        total.add(t);
    }
    std::cout << V::name << " up to 4 pieces: " << total.text() << std::endl;
    ::testing::Test::RecordProperty("answers", std::to_string(total.answers));
    ::testing::Test::RecordProperty("exact", std::to_string(total.exact()));
    ::testing::Test::RecordProperty("not_exact", std::to_string(total.not_exact + total.not_searched));
    return total;
}

}  // namespace dtb::oracle_test
