// The count oracle with the tables up to 4 pieces: its speed-ups change no
// answer, and it agrees with every exact answer of dtb adjudicate on a
// sample of every table, both variants, every combination of counts
// (adjudicate_sweep.hpp; exhaustive_test.cpp takes every position).
#include <chrono>
#include <string>
#include <vector>

#include "dtb/adjudication.h"
#include "dtb/probe.h"
#include "probe/dtc_tables.hpp"
#include "tests/rules_oracle/adjudicate_sweep.hpp"

namespace dtb::oracle_test {
namespace {

std::string describe(const CountState& c) {
    return "counts " + std::to_string(c.lone_moves) + ", " + std::to_string(c.conversion_plies) + ", " +
           std::to_string(c.king_plies);
}

// Oracles a and b give the same answers (solve(), unless `wins_only`, and
// wins()) on every stride-th position of the tables of `pieces` pieces or
// fewer (down to `fewest`) where each side has a king (men alone walk long
// before a count binds them), for each of `counts`.
template <class V>
void same_answers(CountOracle<V>& a, CountOracle<V>& b, int fewest, int pieces, std::uint64_t stride,
                  const std::vector<CountState>& counts, bool wins_only = false) {
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t compared = 0, decided = 0;
    for (const MaterialSignature& sig : all_signatures(V::id, pieces)) {
        if (sig.total() < fewest || sig.kings[0] == 0 || sig.kings[1] == 0) continue;
        const PositionIndex<V> index(sig);
        for (std::uint64_t i = 0; i < index.size(); i += stride) {
            const Position<V> pos = index.unrank(i);
            for (const CountState& c : counts) {
                if (!wins_only) {
                    const oracle::RuleResult r = a.solve(pos, c);
                    ASSERT_EQ(r, b.solve(pos, c)) << to_fen(pos) << ", " << describe(c);
                    ASSERT_EQ(a.wins(pos, c, pos.side_to_move), r.wdl == 1) << to_fen(pos) << ", " << describe(c);
                    ASSERT_EQ(a.wins(pos, c, opponent(pos.side_to_move)), r.wdl == -1)
                        << to_fen(pos) << ", " << describe(c);
                }
                bool won = false;
                for (const Color side : {White, Black}) {
                    const bool wins = a.wins(pos, c, side);
                    ASSERT_EQ(b.wins(pos, c, side), wins) << to_fen(pos) << ", " << describe(c);
                    won = won || wins;
                }
                ++compared;
                decided += won;
            }
        }
    }
    EXPECT_GT(decided, compared / 50);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << V::name << ", " << fewest << " to " << pieces << " pieces: " << compared << " answers alike, "
              << decided << " of them won or lost, " << seconds << " s" << std::endl;
}

// Merging equivalent states, the search for a win alone and the tables'
// values (the shortcut for what they call drawn, and the order of moves)
// are speed-ups only: the answers are those of the plain full search.
// Counts that leave few moves keep the plain search's product states few.
template <class V>
void speed_ups_change_nothing(std::uint64_t stride3, std::uint64_t stride4, const std::vector<CountState>& counts) {
    const auto tb = open_tables<V>();
    CountOracle<V> plain({.unlimited = {}, .merge_equivalent = false});
    CountOracle<V> merged({.unlimited = {}, .merge_equivalent = true});
    CountOracle<V> hinted({.unlimited = values_from<V>(*tb), .merge_equivalent = true});
    same_answers(plain, merged, 2, 3, stride3, counts);
    same_answers(plain, hinted, 2, 3, stride3, counts);
    // Four pieces: too many product states for the full search; the search
    // for a win with the tables, merged and not.
    CountOracle<V> hinted_plain({.unlimited = values_from<V>(*tb), .merge_equivalent = false});
    same_answers(hinted, hinted_plain, 4, 4, stride4, counts, true);
}

TEST(OracleSpeedUps, Russian) {
    speed_ups_change_nothing<Russian>(41, 19997, {{3, 6, 6}, {4, 9, 9}, {0, 7, 3}, {1, 2, 27}});
}
TEST(OracleSpeedUps, International) {
    speed_ups_change_nothing<International>(401, 9973, {{3, 6, 6}, {4, 8, 8}, {1, 2, 47}});
}

// Whole tables under fresh counts (solve_table, as a check of stored
// rule-aware values would use it), against the values without counts:
// counts only take wins away, so a result under them is the result without
// them or a draw, and no faster for the winner (4.4: the moves are the
// same, fewer lines are wins). Every table up to 3 pieces; with the
// tables' values as a shortcut (the 10x10 board has many more positions)
// or without.
template <class V>
void fresh_counts_only_take_wins_away(bool shortcut) {
    const auto tb = open_tables<V>();
    const auto unlimited = values_from<V>(*tb);
    CountOracle<V> oracle({.unlimited = shortcut ? unlimited : nullptr, .merge_equivalent = true});
    std::uint64_t positions = 0, won = 0, drawn_by_counts = 0;
    for (const MaterialSignature& sig : all_signatures(V::id, 3))
        oracle::solve_table(oracle, sig, {0, 0, 0},
                            [&](std::uint64_t, const Position<V>& pos, const oracle::RuleResult& r) {
                                const int u = unlimited(pos);
                                const int u_wdl = u < 0 ? 0 : u % 2 == 1 ? 1 : -1;
                                ++positions;
                                won += u_wdl != 0;
                                if (r.wdl == 0) {
                                    drawn_by_counts += u_wdl != 0;
                                    return;
                                }
                                ASSERT_EQ(r.wdl, u_wdl) << to_fen(pos) << ": " << r << ", " << u << " without counts";
                                ASSERT_GE(r.plies, u) << to_fen(pos) << ": " << r << ", " << u << " without counts";
                            });
    EXPECT_GT(won, 0u);
    std::cout << V::name << " up to 3 pieces: " << positions << " positions, " << won << " won or lost without counts, "
              << drawn_by_counts << " of them drawn under fresh counts" << std::endl;
}

TEST(OracleWholeTables, RussianFreshCountsOnlyTakeWinsAway) { fresh_counts_only_take_wins_away<Russian>(false); }
TEST(OracleWholeTables, InternationalFreshCountsOnlyTakeWinsAway) {
    fresh_counts_only_take_wins_away<International>(true);
}

// The sample: every table, `positions` of it evenly spread, every
// combination of counts; every 200th answer that DTW leaves open searched
// (at most 40 per table: a search may take a second), every 50th still
// open answered by the oracle for the record. Fewer Russian positions: the
// oracle takes longer there (its counts of plies start again at man moves).
SweepOptions sample(std::uint64_t positions) {
    SweepOptions o;
    o.samples_per_table = positions;
    o.counts_per_position = 0;
    o.search_nodes = 1000000;
    o.search_every = 200;
    o.searches_per_table = 40;
    o.judge_every = 50;
    return o;
}

TEST(OracleAgainstAdjudicate, Russian) { EXPECT_EQ(sweep_all<Russian>(sample(500)).disagreements, 0u); }
TEST(OracleAgainstAdjudicate, International) { EXPECT_EQ(sweep_all<International>(sample(2000)).disagreements, 0u); }

// With the .dtc tables every answer is exact, from the values under the
// counts (basis dtc), with the count since the last conversion apart too:
// each is compared with the oracle.
SweepOptions with_dtc(std::uint64_t positions, std::size_t counts) {
    SweepOptions o;
    o.samples_per_table = positions;
    o.counts_per_position = counts;
    o.all_counts_up_to = 3;
    o.with_dtc = true;
    return o;
}

TEST(OracleAgainstDtc, Russian) {
    const SweepTally t = sweep_all<Russian>(with_dtc(100, 60), oracle_dtc_tables());
    EXPECT_EQ(t.disagreements, 0u);
    EXPECT_EQ(t.not_dtc, 0u);
    EXPECT_GT(t.winnable, t.answers / 50);
}
TEST(OracleAgainstDtc, International) {
    const SweepTally t = sweep_all<International>(with_dtc(500, 0), oracle_dtc_tables());
    EXPECT_EQ(t.disagreements, 0u);
    EXPECT_EQ(t.not_dtc, 0u);
    EXPECT_GT(t.winnable, t.answers / 50);
}

// Under a running king-move count beside 2.1.9.1.5 the search may solve the
// position's king block whole, by layers (tables/king_block.hpp), instead
// of position by position (the other tests see the search mostly): forced
// that way, every value under the counts is the oracle's, on a sample of every table up to 4 pieces with kings on
// both sides, the king-move count from its first ply to its last, the
// conversion count level with it or ahead.
template <class V>
void king_blocks_agree(std::uint64_t per_table) {
    const auto tb = open_tables<V>(oracle_dtc_tables());
    const probe::DtcTables<V> store(*tb);
    using Judge = RuleJudge<V, probe::DtcTables<V>>;
    Judge by_blocks(store);
    by_blocks.set_block_solving(Judge::BlockSolving::Always);
    std::uint64_t answers = 0, decided = 0, count_drawn = 0;
    for (const MaterialSignature& sig : all_signatures(V::id, 4)) {
        if (sig.kings[0] == 0 || sig.kings[1] == 0 || lone_king_material(sig)) continue;
        CountOracle<V> oracle({.unlimited = values_from<V>(*tb), .merge_equivalent = true});
        const PositionIndex<V> index(sig);
        const std::uint64_t stride = std::max<std::uint64_t>(1, index.size() / per_table);
        for (std::uint64_t i = stride / 3; i < index.size(); i += stride) {
            const Position<V> pos = index.unrank(i);
            if (game_over(pos)) continue;
            const int fresh = oracle.wdl(pos, CountState{});
            for (const int king : {1, 14, 27, 29})
                for (const int lead : {0, 24}) {
                    const CountState c{0, king + lead, king};
                    const RuleCounts counts{0, c.conversion_plies, c.king_plies};
                    const int want = oracle.wdl(pos, c);
                    ASSERT_EQ(by_blocks.exact_value(pos, counts), want) << to_fen(pos) << " " << describe(c);
                    ++answers;
                    decided += want != 0;
                    count_drawn += want == 0 && fresh != 0;
                }
        }
    }
    EXPECT_GT(decided, answers / 10);
    EXPECT_GT(count_drawn, answers / 500);
    std::cout << V::name << ": " << answers << " values under a running king-move count, " << decided
              << " won or lost, " << count_drawn << " drawn by the counts, each the oracle's" << std::endl;
}

TEST(OracleAgainstDtc, RussianKingBlocks) { king_blocks_agree<Russian>(10000); }

// Whether a move count without conversion (rules 2.1.9.1.5) covers a
// material: then its binding count starts again only at a capture or a
// crowning; else the king-move count binds, which a man move starts again
// too. Read here from the rule table, not from tables/rule_values.hpp.
template <class V>
bool conversion_count_binds(const MaterialSignature& sig) {
    if (sig.kings[0] == 0 || sig.kings[1] == 0) return false;
    for (const DrawRule& r : V::draw_rules)
        if (r.count == DrawCount::moves_without_conversion && r.total.contains(sig.total())) return true;
    return false;
}

// The most states the oracle makes for one distance to conversion (every
// line searched: long counts make many); a distance that needs more is
// not compared.
constexpr std::size_t kDistanceBudget = 5000;

// Calls f(sig, oracle, start, m, counts) for a sample of about `per_table`
// positions of every table up to 4 pieces (those not lost already), each
// at three sets of counts (m moves of each, the king-move count at most 5),
// with one oracle per table.
template <class V, class Tables, class F>
void for_each_sample(const Tables& tb, std::uint64_t per_table, F&& f) {
    for (const MaterialSignature& sig : all_signatures(V::id, 4)) {
        CountOracle<V> oracle({.unlimited = values_from<V>(tb), .merge_equivalent = true});
        const PositionIndex<V> index(sig);
        const std::uint64_t stride = std::max<std::uint64_t>(1, index.size() / per_table);
        for (std::uint64_t i = 0; i < index.size(); i += stride) {
            const Position<V> start = index.unrank(i);
            if (oracle::detail::lost(start)) continue;
            for (const int m : {0, 3, 9}) f(sig, oracle, start, m, CountState{m, 2 * m, 2 * std::min(m, 5)});
        }
    }
}

// Best play under the counts to the next conversion (dtb_rule_line): every
// position on the line keeps the start's value for the side that had it,
// by the oracle; the line ends at the first move that starts the
// material's binding count again (a capture, a crowning or the end of the
// game, and a man move where the king-move count binds), and with every
// count fresh it has exactly the stored distance to conversion.
template <class V>
void lines_keep_the_value(std::uint64_t per_table) {
    const auto tb = open_tables<V>(oracle_dtc_tables());
    const probe::DtcTables<V> rules(*tb);
    std::uint64_t lines = 0, plies = 0, measured = 0;
    for_each_sample<V>(*tb, per_table,
                       [&](const MaterialSignature& sig, CountOracle<V>& oracle, const Position<V>& start, int m,
                           const CountState& c) {
                           const bool man_moves_convert = !conversion_count_binds<V>(sig);
                           const int value = oracle.wdl(start, c);  // the side to move's, under the counts
                           auto line = rules.line(start, RuleCounts{c.lone_moves, c.conversion_plies, c.king_plies});
                           ASSERT_TRUE(line) << line.error().message;
                           if (value == 0) {
                               EXPECT_TRUE(line->empty()) << to_fen(start);
                               return;
                           }
                           ASSERT_FALSE(line->empty()) << to_fen(start);
                           // As long as the oracle's distance under these counts, and with
                           // every count fresh, the DTC dtb probe gives.
                           try {
                               const std::optional<int> distance =
                                   oracle.plies_to_conversion(start, c, kDistanceBudget);
                               ASSERT_TRUE(distance) << to_fen(start);
                               EXPECT_EQ(int(line->size()), *distance) << to_fen(start) << " counts " << m;
                               if (m == 0) {
                                   const auto dtc = rules.dtc(start);
                                   ASSERT_TRUE(dtc) << dtc.error().message;
                                   EXPECT_EQ(dtc->plies, *distance) << to_fen(start);
                                   EXPECT_EQ(dtc->wdl, value) << to_fen(start);
                               }
                               ++measured;
                           } catch (const typename CountOracle<V>::TooCostly&) {
                           }
                           // The game's counts along the line, stepped by the oracle's own counting.
                           oracle::GameCounts<V> counts = oracle::resumed_counts(start, c);
                           Position<V> p = start;
                           for (std::size_t k = 0; k < line->size(); ++k) {
                               const Move& mv = (*line)[k];
                               const bool last = k + 1 == line->size();
                               const Position<V> after = p.after(mv);
                               const bool man_moved = (p.kings & bit(mv.from)) == 0;
                               const bool converts =
                                   game_over(after) || mv.is_capture() || mv.crowns || (man_moves_convert && man_moved);
                               ASSERT_EQ(converts, last) << to_fen(start) << " ply " << k;
                               if (last) break;
                               counts = oracle::detail::after_move(p, mv, counts);
                               p = after;
                               const int want = k % 2 == 0 ? -value : value;  // the other side is to move after ply k
                               const Color winner = want > 0 ? p.side_to_move : opponent(p.side_to_move);
                               ASSERT_TRUE(oracle.wins(p, counts, winner)) << to_fen(start) << " after ply " << k + 1;
                           }
                           ++lines;
                           plies += line->size();
                       });
    EXPECT_GT(lines, 100u);
    EXPECT_GT(measured, lines / 2);
    std::cout << V::name << ": " << lines << " lines under the counts, " << plies << " plies, each keeping its value; "
              << measured << " of them as long as the oracle's distance" << std::endl;
}

TEST(OracleAgainstDtc, RussianLinesKeepTheValue) { lines_keep_the_value<Russian>(30); }
TEST(OracleAgainstDtc, InternationalLinesKeepTheValue) { lines_keep_the_value<International>(60); }

// Every move's value under the counts (dtb_rule_root): for the side that
// plays it, the oracle's value of the position after it with the counts
// stepped by the oracle's own counting, and its plies to the conversion
// the oracle's (1 for a move that converts, else one more than the
// oracle's distance after it); and the line takes them: its first move has
// the line's length, the least of the winning moves' (the most of the
// losing moves', where the side to move loses).
template <class V>
void moves_under_counts_agree(std::uint64_t per_table) {
    const auto tb = open_tables<V>(oracle_dtc_tables());
    const probe::DtcTables<V> rules(*tb);
    std::uint64_t moves = 0, decided = 0, measured = 0;
    for_each_sample<V>(*tb, per_table,
                       [&](const MaterialSignature& sig, CountOracle<V>& oracle, const Position<V>& start, int m,
                           const CountState& c) {
                           const RuleCounts counts{c.lone_moves, c.conversion_plies, c.king_plies};
                           const auto valued = rules.moves(start, counts);
                           ASSERT_TRUE(valued) << valued.error().message;
                           MoveList legal;
                           MoveGenerator<V>::generate(start, legal);
                           ASSERT_EQ(valued->size(), legal.size()) << to_fen(start);
                           const oracle::GameCounts<V> before = oracle::resumed_counts(start, c);
                           const Color mover = start.side_to_move;
                           int best = -1;
                           for (const auto& u : *valued) {
                               const Position<V> after = start.after(u.move);
                               const oracle::GameCounts<V> next = oracle::detail::after_move(start, u.move, before);
                               // A count already at its end has drawn the game: no move changes that.
                               const int want = oracle::detail::count_ended(start, before)  ? 0
                                                : oracle.wins(after, next, mover)           ? 1
                                                : oracle.wins(after, next, opponent(mover)) ? -1
                                                                                            : 0;
                               ASSERT_EQ(u.wdl, want) << to_fen(start) << " counts " << m;
                               ASSERT_EQ(u.plies < 0, u.wdl == 0) << to_fen(start);
                               if (u.wdl != 0) {
                                   const bool man_moved = (start.kings & bit(u.move.from)) == 0;
                                   const bool converts = game_over(after) || u.move.is_capture() || u.move.crowns ||
                                                         (man_moved && !conversion_count_binds<V>(sig));
                                   try {
                                       int plies = 1;
                                       if (!converts) {
                                           const std::optional<int> rest =
                                               oracle.plies_to_conversion(after, next, kDistanceBudget);
                                           ASSERT_TRUE(rest) << to_fen(start) << " " << move_text(start, u.move);
                                           plies += *rest;
                                       }
                                       EXPECT_EQ(u.plies, plies)
                                           << to_fen(start) << " " << move_text(start, u.move) << " counts " << m;
                                       ++measured;
                                   } catch (const typename CountOracle<V>::TooCostly&) {
                                   }
                                   ++decided;
                               }
                               best = std::max(best, u.wdl);
                               ++moves;
                           }
                           const auto line = rules.line(start, counts);
                           ASSERT_TRUE(line) << line.error().message;
                           if (best == 0) return;
                           ASSERT_FALSE(line->empty()) << to_fen(start);
                           int chosen = best > 0 ? 1 << 20 : -1;
                           for (const auto& u : *valued)
                               if (u.wdl == best)
                                   chosen = best > 0 ? std::min(chosen, u.plies) : std::max(chosen, u.plies);
                           const auto first = std::find_if(valued->begin(), valued->end(),
                                                           [&](const auto& u) { return u.move == line->front(); });
                           ASSERT_NE(first, valued->end());
                           EXPECT_EQ(first->wdl, best) << to_fen(start);
                           EXPECT_EQ(first->plies, chosen) << to_fen(start);
                           EXPECT_EQ(int(line->size()), chosen) << to_fen(start) << " counts " << m;
                       });
    EXPECT_GT(moves, 1000u);
    EXPECT_GT(measured, decided / 2);
    std::cout << V::name << ": " << moves << " moves valued under the counts, as the oracle values them; " << measured
              << " of the " << decided << " that win or lose as far from the conversion as the oracle's distance"
              << std::endl;
}

TEST(OracleAgainstDtc, RussianMovesUnderTheCounts) { moves_under_counts_agree<Russian>(10); }
TEST(OracleAgainstDtc, InternationalMovesUnderTheCounts) { moves_under_counts_agree<International>(30); }

// Games under the counts (adjudication::adjudicate_in_game, as dtb adjudicate
// --pdn asks it): from a sample of starts in every table up to 4 pieces,
// moves chosen half at random and half along the line under the counts
// (so that counts run long and conversions carry a lone-king count into
// the next material), the counts stepped by DrawCounts
// (rules/draw_tracker.hpp) on one side and by the oracle's own counting on
// the other, every ply's answer exact and the oracle's.
template <class V>
void games_agree_with_the_oracle(std::uint64_t per_table, int max_plies) {
    const auto tb = open_tables<V>(oracle_dtc_tables());
    const probe::DtcTables<V> rules(*tb);
    std::uint64_t games = 0, plies = 0, won = 0, carried = 0;
    std::uint64_t seed = 0x9E3779B97F4A7C15ULL;
    const auto random = [&seed](std::size_t n) {
        seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
        return std::size_t(seed % n);
    };
    for (const MaterialSignature& sig : all_signatures(V::id, 4)) {
        CountOracle<V> oracle({.unlimited = values_from<V>(*tb), .merge_equivalent = true});
        const PositionIndex<V> index(sig);
        const std::uint64_t stride = std::max<std::uint64_t>(1, index.size() / per_table);
        for (std::uint64_t i = random(std::size_t(stride)); i < index.size(); i += stride) {
            Position<V> p = index.unrank(i);
            if (game_over(p)) continue;
            DrawCounts<V> counts(p);
            oracle::GameCounts<V> mirror = oracle::resumed_counts(p, CountState{0, 0, 0});
            const std::string start = to_fen(p);
            for (int ply = 0; ply < max_plies; ++ply) {
                const std::string where = start + " ply " + std::to_string(ply) + " at " + to_fen(p);
                auto a = adjudication::adjudicate_in_game(*tb, p, counts);
                ASSERT_TRUE(a) << where << ": " << a.error().message;
                auto value = rules.exact_value(p, counts);
                ASSERT_TRUE(value) << where << ": " << value.error().message;
                ASSERT_EQ(oracle.wins(p, mirror, p.side_to_move), *value > 0) << where;
                ASSERT_EQ(oracle.wins(p, mirror, opponent(p.side_to_move)), *value < 0) << where;
                if (a->rule && a->probed) {
                    ASSERT_TRUE(a->exact) << where;
                    ASSERT_EQ(a->winnable, oracle.wins(p, mirror, *a->stronger)) << where;
                    won += a->winnable;
                }
                ++plies;
                MoveList moves;
                MoveGenerator<V>::generate(p, moves);
                Move m = moves[random(moves.size())];
                if (random(2) == 0)
                    if (auto line = rules.line(p, counts); line && !line->empty()) m = line->front();
                const bool converts = m.is_capture() || m.crowns;
                const std::vector<std::size_t> ended = counts.play(p, m);
                mirror = oracle::detail::after_move(p, m, mirror);
                p = p.after(m);
                if (converts && counts.stronger())
                    for (std::size_t r = 0; r < V::draw_rules.size(); ++r)
                        carried +=
                            counts_stronger_side(V::draw_rules[r]) && counts.counting(r, p) && counts.moves_made(r) > 0;
                if (game_over(p) || !ended.empty()) break;
            }
            ++games;
        }
    }
    EXPECT_GT(won, plies / 50);
    EXPECT_GT(carried, 0u);
    std::cout << V::name << ": " << games << " games, " << plies << " plies alike, " << won
              << " of them winnable under the game's counts, " << carried
              << " lone-king counts carried across a conversion" << std::endl;
}

TEST(OracleAgainstDtc, RussianGames) { games_agree_with_the_oracle<Russian>(12, 80); }
TEST(OracleAgainstDtc, InternationalGames) { games_agree_with_the_oracle<International>(12, 80); }

// dtb_adjudicate_plies, the C call for a game in progress: counts in plies,
// odd ones too, on a sample of every table up to 4 pieces; each answer
// exact and the oracle's for the stronger side it names.
template <class V>
void plies_agree_with_the_oracle(std::uint64_t per_table, int c_variant) {
    const std::string dir = oracle_dtc_tables().string();
    const char* dirs[] = {dir.c_str()};
    dtb_tablebase* tb = nullptr;
    char err[512];
    ASSERT_EQ(dtb_open(dirs, 1, nullptr, &tb, err, sizeof err), DTB_OK) << err;
    const auto tables = open_tables<V>(oracle_dtc_tables());
    std::uint64_t answers = 0, winnable = 0;
    dtb_position c{};
    for (const MaterialSignature& sig : all_signatures(V::id, 4)) {
        if (sig.kings[0] == 0 || sig.kings[1] == 0) continue;
        CountOracle<V> oracle({.unlimited = values_from<V>(*tables), .merge_equivalent = true});
        const PositionIndex<V> index(sig);
        const std::uint64_t stride = std::max<std::uint64_t>(1, index.size() / per_table);
        for (std::uint64_t i = stride / 2; i < index.size(); i += stride) {
            const Position<V> pos = index.unrank(i);
            if (game_over(pos)) continue;
            ASSERT_EQ(dtb_position_from_fen(c_variant, to_fen(pos).c_str(), &c, err, sizeof err), DTB_OK) << err;
            for (const CountState& s : {CountState{1, 1, 1}, CountState{2, 5, 3}, CountState{4, 9, 7},
                                        CountState{0, 29, 13}, CountState{3, 57, 29}}) {
                dtb_adjudication a;
                ASSERT_EQ(dtb_adjudicate_plies(tb, &c, s.lone_moves, s.king_plies, s.conversion_plies, &a), DTB_OK)
                    << to_fen(pos) << ": " << dtb_error_message(tb);
                ++answers;
                if (a.rule < 0 || a.basis == DTB_BASIS_NO_RULE) continue;
                ASSERT_TRUE(a.exact) << to_fen(pos) << " " << describe(s);
                const Color stronger = a.stronger_side == DTB_WHITE ? White : Black;
                ASSERT_EQ(a.winnable != 0, oracle.wins(pos, s, stronger)) << to_fen(pos) << " " << describe(s);
                winnable += a.winnable != 0;
            }
        }
    }
    dtb_adjudication a;
    EXPECT_EQ(dtb_adjudicate_plies(tb, &c, 0, -1, 0, &a), DTB_BAD_ARGUMENT);
    dtb_close(tb);
    EXPECT_GT(winnable, answers / 50);
    std::cout << V::name << ": " << answers << " answers to the ply, " << winnable << " winnable, each the oracle's"
              << std::endl;
}

TEST(OracleAgainstDtc, RussianPlies) { plies_agree_with_the_oracle<Russian>(25, DTB_RUSSIAN); }
TEST(OracleAgainstDtc, InternationalPlies) { plies_agree_with_the_oracle<International>(200, DTB_INTERNATIONAL); }

}  // namespace
}  // namespace dtb::oracle_test
