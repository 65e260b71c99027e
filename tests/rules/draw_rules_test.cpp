// The move-count draw rules (rules/draw_rules.hpp) and the counts that apply
// them (rules/draw_tracker.hpp), without tables: the rules as the official
// texts state them, which material each covers, and games that end by each
// rule at the ply the rule says.
//
// The games in draw_games/*.pdn walk without captures, crownings (unless
// the game is about one) or repeated positions; the plies expected below
// come from the rules, not from the tracker: a lone-king count ends at the
// stronger side's N-th move, the others after N moves of each side (2N
// plies), a repetition at the third occurrence.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "rules/draw_tracker.hpp"
#include "rules/notation.hpp"
#include "rules/pdn.hpp"

namespace dtb {
namespace {

template <class V>
const DrawRule& rule(std::string_view id) {
    for (const DrawRule& r : V::draw_rules)
        if (r.id == id) return r;
    ADD_FAILURE() << "no rule " << id;
    return V::draw_rules.front();
}

template <class V>
std::size_t index_of(std::string_view id) {
    for (std::size_t i = 0; i < V::draw_rules.size(); ++i)
        if (V::draw_rules[i].id == id) return i;
    ADD_FAILURE() << "no rule " << id;
    return 0;
}

// The ids of the rules whose material (and board condition) `fen` stands in.
template <class V>
std::vector<std::string> covering(std::string_view fen) {
    const Position<V> pos = parse_fen<V>(fen);
    const auto stronger = lone_king_opponent(pos);
    std::vector<std::string> ids;
    for (const DrawRule& r : V::draw_rules)
        if (r.count != DrawCount::repetitions && material_covers(r, pos, stronger) &&
            board_condition_holds(r, pos, stronger))
            ids.emplace_back(r.id);
    return ids;
}

// ---------------------------------------------------------------------------
// The rules as the texts state them

TEST(DrawRulesData, RussianLimitsAreThoseOf2_1_9_1) {
    using V = Russian;
    EXPECT_EQ(rule<V>("2.1.9.1.3").limit, 15);  // "своим 15-м ходом"
    EXPECT_EQ(rule<V>("2.1.9.1.4").limit, 15);
    EXPECT_EQ(rule<V>("2.1.9.1.5 (2-3 pieces)").limit, 5);
    EXPECT_EQ(rule<V>("2.1.9.1.5 (4-5 pieces)").limit, 30);
    EXPECT_EQ(rule<V>("2.1.9.1.5 (6-7 pieces)").limit, 60);
    EXPECT_EQ(rule<V>("2.1.9.1.7").limit, 5);
    EXPECT_EQ(rule<V>("2.1.9.1.8").limit, 15);
    EXPECT_EQ(rule<V>("2.1.9.1.9").limit, 3);
    EXPECT_EQ(rule<V>("2.1.9.1.4").count, DrawCount::stronger_side_moves);
    EXPECT_EQ(rule<V>("2.1.9.1.5 (4-5 pieces)").count, DrawCount::moves_without_conversion);
    EXPECT_EQ(rule<V>("2.1.9.1.8").count, DrawCount::king_moves);
}

TEST(DrawRulesData, InternationalLimitsAreThoseOf3_5) {
    using V = International;
    EXPECT_EQ(rule<V>("3.5 (16 moves)").limit, 16);
    EXPECT_EQ(rule<V>("3.5 (5 moves)").limit, 5);
    EXPECT_EQ(rule<V>("3.5 (25 king moves)").limit, 25);
    EXPECT_EQ(rule<V>("3.5 (repetition, 2.1.9.1.9)").limit, 3);
    for (const DrawRule& r : V::draw_rules) EXPECT_TRUE(r.source == "3.5" || r.source == "2.1.9.1.9") << r.id;
}

TEST(DrawRulesData, IdsAreUniqueAndNameTheRuleNumber) {
    const auto check = [](std::span<const DrawRule> rules) {
        std::set<std::string_view> ids;
        for (const DrawRule& r : rules) {
            EXPECT_TRUE(ids.insert(r.id).second) << r.id;
            EXPECT_NE(r.id.find(r.source), std::string_view::npos) << r.id;
            EXPECT_FALSE(r.title.empty() || r.starts.empty() || r.resets.empty()) << r.id;
        }
    };
    check(Russian::draw_rules);
    check(International::draw_rules);
    EXPECT_EQ(shortest_limit(Russian::draw_rules), 5);
    EXPECT_EQ(shortest_limit(International::draw_rules), 5);
}

TEST(DrawRulesData, MainRoadIsTheLongDiagonal) {
    std::vector<std::string> russian, international;
    for (int b : bits_of{main_road<Board8>()}) russian.push_back(square_name<Russian>(BitIndex{b}));
    for (int b : bits_of{main_road<Board10>()}) international.push_back(square_name<International>(BitIndex{b}));
    EXPECT_EQ(russian, (std::vector<std::string>{"h8", "g7", "f6", "e5", "d4", "c3", "b2", "a1"}));
    EXPECT_EQ(international, (std::vector<std::string>{"5", "10", "14", "19", "23", "28", "32", "37", "41", "46"}));
}

// ---------------------------------------------------------------------------
// Which rules cover which material

TEST(DrawRulesCover, RussianThreeKingsAgainstOne) {
    // No king on the main road: 2.1.9.1.4 (and the balance and king-move counts).
    EXPECT_EQ(covering<Russian>("W:WKf8,Ke7,Kh6:BKb8"),
              (std::vector<std::string>{"2.1.9.1.4", "2.1.9.1.5 (4-5 pieces)", "2.1.9.1.8"}));
    // A white king on a1 holds the main road: 2.1.9.1.3 as well.
    EXPECT_EQ(covering<Russian>("W:WKa1,Ke7,Kh6:BKb8"),
              (std::vector<std::string>{"2.1.9.1.3", "2.1.9.1.4", "2.1.9.1.5 (4-5 pieces)", "2.1.9.1.8"}));
    // The lone king on the main road: 2.1.9.1.7, whoever moves.
    EXPECT_EQ(covering<Russian>("B:WKc1,Ke1,Kg1:BKh8"),
              (std::vector<std::string>{"2.1.9.1.4", "2.1.9.1.5 (4-5 pieces)", "2.1.9.1.7", "2.1.9.1.8"}));
}

TEST(DrawRulesCover, RussianMenAgainstALoneKing) {
    // Three men against a lone king on the main road: only 2.1.9.1.7.
    EXPECT_EQ(covering<Russian>("W:Wa3,c3,e3:BKd4"), (std::vector<std::string>{"2.1.9.1.7"}));
    // Off the main road, and two men, nothing counts.
    EXPECT_EQ(covering<Russian>("W:Wa3,c3,e3:BKh6"), (std::vector<std::string>{}));
    EXPECT_EQ(covering<Russian>("W:Wc3,e3:BKh8"), (std::vector<std::string>{}));
    // Four kings and a man: 2.1.9.1.4 covers three kings "and more".
    EXPECT_EQ(covering<Russian>("W:WKa3,Kc3,Ke3,Kg3,b2:BKh6"),
              (std::vector<std::string>{"2.1.9.1.4", "2.1.9.1.5 (6-7 pieces)", "2.1.9.1.8"}));
    // Two kings and a man against a lone king: not 2.1.9.1.4 (two kings).
    EXPECT_EQ(covering<Russian>("W:WKa3,Kc3,e3:BKh6"),
              (std::vector<std::string>{"2.1.9.1.5 (4-5 pieces)", "2.1.9.1.8"}));
}

TEST(DrawRulesCover, InternationalLoneKing) {
    EXPECT_EQ(covering<International>("W:WK47,K48,K49:BK3"),
              (std::vector<std::string>{"3.5 (16 moves)", "3.5 (25 king moves)"}));
    // With men on the board the king-move count still covers (a man move restarts it).
    EXPECT_EQ(covering<International>("W:WK47,35,36:BK3"),
              (std::vector<std::string>{"3.5 (16 moves)", "3.5 (25 king moves)"}));
    EXPECT_EQ(covering<International>("W:WK47,K48:BK3"),
              (std::vector<std::string>{"3.5 (5 moves)", "3.5 (25 king moves)"}));
    EXPECT_EQ(covering<International>("B:WK47,35:BK3"),
              (std::vector<std::string>{"3.5 (5 moves)", "3.5 (25 king moves)"}));
    EXPECT_EQ(covering<International>("W:WK47:BK3"),
              (std::vector<std::string>{"3.5 (5 moves)", "3.5 (25 king moves)"}));
    // Three men are not in 3.5's list; nor is a man alone.
    EXPECT_EQ(covering<International>("W:W35,36,37:BK3"), (std::vector<std::string>{}));
    EXPECT_EQ(covering<International>("W:W35:BK3"), (std::vector<std::string>{}));
    // Four kings against one: only the 25 king moves.
    EXPECT_EQ(covering<International>("W:WK46,K47,K48,K49:BK3"), (std::vector<std::string>{"3.5 (25 king moves)"}));
}

// ---------------------------------------------------------------------------
// Counts move by move

// Plays `moves` (texts) from `fen`; returns the draw reached, if any.
template <class V>
std::optional<DrawReached> play(std::string_view fen, const std::vector<std::string>& moves) {
    DrawTracker<V> t(parse_fen<V>(fen));
    for (const std::string& text : moves) {
        const Move m = parse_move(t.position(), text);
        if (auto d = t.play(m)) return d;
    }
    return std::nullopt;
}

TEST(DrawCounts, ResumedCountEndsAtTheLimitMove) {
    // 14 of the 15 moves of 2.1.9.1.4 played: White's next move that does
    // not capture the lone king ends the game.
    using V = Russian;
    const Position<V> pos = parse_fen<V>("W:WKf8,Ke7,Kh6:BKb8");
    DrawCounts<V> counts = DrawCounts<V>::resumed(pos, 14, 14);
    const auto ended = counts.play(pos, parse_move(pos, "h6-g5"));
    ASSERT_FALSE(ended.empty());
    EXPECT_EQ(V::draw_rules[ended.front()].id, "2.1.9.1.4");
    // With 13 played the same move leaves one more.
    DrawCounts<V> earlier = DrawCounts<V>::resumed(pos, 13, 13);
    EXPECT_TRUE(earlier.play(pos, parse_move(pos, "h6-g5")).empty());
}

TEST(DrawCounts, CapturingTheLoneKingOnTheLastMoveWins) {
    // 2.1.9.1.4: the 15th move may still capture the lone king.
    using V = Russian;
    const Position<V> pos = parse_fen<V>("W:WKa1,Ke1,Kg1:BKg7");
    ASSERT_EQ(move_text(pos, parse_move(pos, "a1:h8")), "a1:h8");
    DrawCounts<V> counts = DrawCounts<V>::resumed(pos, 14, 14);
    EXPECT_TRUE(counts.play(pos, parse_move(pos, "a1:h8")).empty());
}

TEST(DrawCounts, TheDefenderMovesDoNotCountForLoneKingRules) {
    using V = International;
    const Position<V> pos = parse_fen<V>("B:WK47,K48:BK3");
    DrawCounts<V> counts = DrawCounts<V>::resumed(pos, 4, 4);
    EXPECT_TRUE(counts.play(pos, parse_move(pos, "3-8")).empty());  // Black's move: still 4 of 5
    const Position<V> next = parse_fen<V>("W:WK47,K48:BK8");
    const auto ended = counts.play(next, parse_move(next, "47-41"));
    ASSERT_EQ(ended.size(), 1u);
    EXPECT_EQ(V::draw_rules[ended.front()].id, "3.5 (5 moves)");
}

TEST(DrawCounts, RepetitionAtTheThirdOccurrence) {
    const auto d = play<Russian>("W:WKh2:BKa7", {"h2-g1", "a7-b8", "g1-h2", "b8-a7", "h2-g1", "a7-b8", "g1-h2"});
    EXPECT_FALSE(d);  // the start position has stood twice; once more
    const auto d2 =
        play<Russian>("W:WKh2:BKa7", {"h2-g1", "a7-b8", "g1-h2", "b8-a7", "h2-g1", "a7-b8", "g1-h2", "b8-a7"});
    ASSERT_TRUE(d2);
    EXPECT_EQ(Russian::draw_rules[d2->rule].id, "2.1.9.1.9");
    EXPECT_EQ(d2->ply, 8);
    EXPECT_EQ(d2->moves_counted, 3);
}

TEST(DrawCounts, ACaptureForgetsEarlierPositions) {
    // After a capture the counts start again: KKvKK becomes KKvK, 2-3 pieces.
    using V = Russian;
    DrawTracker<V> t(parse_fen<V>("W:WKa1,Kc1:BKd4,Kh6"));
    ASSERT_FALSE(t.play(parse_move(t.position(), "a1:e5")));
    EXPECT_EQ(t.counts().start_ply(index_of<V>("2.1.9.1.5 (2-3 pieces)")), 1);
    EXPECT_TRUE(t.counts().counting(index_of<V>("2.1.9.1.5 (2-3 pieces)"), t.position()));
    EXPECT_FALSE(t.counts().counting(index_of<V>("2.1.9.1.5 (4-5 pieces)"), t.position()));
}

// ---------------------------------------------------------------------------
// Whole games

template <class V>
std::vector<PdnGame<V>> games(const std::string& file) {
    std::ifstream in(std::string(DTB_DRAW_GAMES) + "/" + file);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_FALSE(text.str().empty()) << file;
    return read_pdn_games<V>(text.str());
}

struct Expected {
    std::string rule;  // "" for none
    int ply;
    std::vector<std::string> also = {};
};

template <class V>
void check_games(const std::string& file, const std::vector<Expected>& expected) {
    const auto all = games<V>(file);
    ASSERT_EQ(all.size(), expected.size());
    for (std::size_t g = 0; g < all.size(); ++g) {
        SCOPED_TRACE(file + " game " + std::to_string(g + 1) + ": " + all[g].tag("Event").value_or(""));
        DrawTracker<V> t(all[g].start);
        std::optional<DrawReached> d;
        for (const auto& ply : all[g].plies)
            if ((d = t.play(ply.move))) break;
        if (expected[g].rule.empty()) {
            EXPECT_FALSE(d) << (d ? V::draw_rules[d->rule].id : "");
            continue;
        }
        ASSERT_TRUE(d);
        EXPECT_EQ(V::draw_rules[d->rule].id, expected[g].rule);
        EXPECT_EQ(d->ply, expected[g].ply);
        std::vector<std::string> also;
        for (std::size_t i : d->also) also.emplace_back(V::draw_rules[i].id);
        EXPECT_EQ(also, expected[g].also);
    }
}

TEST(DrawGames, RussianEachRuleAtItsPly) {
    check_games<Russian>("russian_games.pdn",
                         {
                             {"2.1.9.1.7", 9},                  // White's 5th move
                             {"2.1.9.1.4", 29},                 // White's 15th move
                             {"2.1.9.1.3", 29, {"2.1.9.1.4"}},  // both, the more specific named
                             {"2.1.9.1.5 (2-3 pieces)", 10},    // 5 moves of each side
                             {"2.1.9.1.5 (4-5 pieces)", 60},    // 30 moves each; men moved, no 2.1.9.1.8
                             {"2.1.9.1.8", 30},                 // 15 king moves each, before 2.1.9.1.5's 30
                             {"2.1.9.1.9", 8},                  // the start position a third time
                             {"2.1.9.1.5 (2-3 pieces)", 15},    // the crowning at ply 5 started it again
                             {"2.1.9.1.5 (2-3 pieces)", 10},    // a man move does not
                             {"", 0},                           // an opening
                             {"2.1.9.1.5 (2-3 pieces)", 10},    // Black moved first
                         });
}

TEST(DrawGames, InternationalEachRuleAtItsPly) {
    check_games<International>("international_games.pdn",
                               {
                                   {"3.5 (16 moves)", 31},              // White's 16th move
                                   {"3.5 (5 moves)", 9},                // White's 5th move
                                   {"3.5 (25 king moves)", 50},         // 25 king moves each
                                   {"3.5 (repetition, 2.1.9.1.9)", 8},  // before the 5 moves end
                                   {"3.5 (5 moves)", 9},                // crowning at ply 1 does not restart it
                               });
}

}  // namespace
}  // namespace dtb
