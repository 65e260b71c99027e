// The PDN reader and writer: the game records of the rules seeds, every
// piece of movetext syntax, every error, and write -> read round trips.
#include "rules/pdn.hpp"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "tests/rules/pdn_test_support.hpp"

namespace dtb {
namespace {

// The message of the InputError that reading `text` throws; fails the test
// when reading succeeds.
template <class V>
std::string read_error(std::string_view text) {
    try {
        read_pdn_games<V>(text);
    } catch (const InputError& e) {
        return e.what();
    }
    ADD_FAILURE() << "no error reading: " << text;
    return {};
}

template <class V>
PdnGame<V> read_one(std::string_view text) {
    auto games = read_pdn_games<V>(text);
    EXPECT_EQ(games.size(), 1u) << text;
    return games.empty() ? PdnGame<V>{} : games.front();
}

using test::move_texts;

// ---------------------------------------------------------------------------
// The game records printed in the official rules

// Russian rule 2.1.6.2. The full record there has a misprint, "2. f2-e3 f6-g6"
// (g6 is a light square); the shortened record of the same game says fg5.
constexpr std::string_view kRussianFull =
    "1. e3-d4 d6-c5 2. f2-e3 f6-g5 3. c3-b4 g5-h4 4. b4:d6 h4:f2 5. e1:g3 c7:h4 0-1";
constexpr std::string_view kRussianShort = "1. ed4 dc5 2. fe3 fg5 3. cb4 gh4 4. b:d6 h:f2 5. e:g3 c:h4 0-1";

TEST(PdnSeeds, RussianFullAndShortenedRecordsAreTheSameGame) {
    const auto full = read_one<Russian>(kRussianFull);
    const auto shortened = read_one<Russian>(kRussianShort);
    ASSERT_EQ(full.plies.size(), 10u);
    ASSERT_EQ(shortened.plies.size(), 10u);
    for (std::size_t i = 0; i < full.plies.size(); ++i) {
        EXPECT_EQ(full.plies[i].move, shortened.plies[i].move) << "ply " << i + 1;
        EXPECT_EQ(full.plies[i].before, shortened.plies[i].before) << "ply " << i + 1;
    }
    EXPECT_EQ(full.final_position(), shortened.final_position());
    EXPECT_EQ(move_texts(shortened), (std::vector<std::string>{"e3-d4", "d6-c5", "f2-e3", "f6-g5", "c3-b4", "g5-h4",
                                                               "b4:d6", "h4:f2", "e1:g3", "c7:h4"}));
    // Black's last capture takes d6, d4, d2 and g3, crowning on e1 on the way.
    EXPECT_EQ(to_fen(shortened.final_position()), "W:Wa3,e3,b2,h2,a1,c1,g1:Bb8,d8,f8,h8,a7,e7,g7,b6,h6,Kh4");
    EXPECT_EQ(shortened.plies[6].text, "b:d6");
    EXPECT_EQ(shortened.result, "0-1");
    EXPECT_EQ(shortened.start, initial_position<Russian>());
}

TEST(PdnSeeds, InternationalRecord) {
    // International rule 3.3; White resigned.
    const auto game = read_one<International>("1. 32-28 18-23 2. 37-32 23-29 3. 34:23 17-22 4. 28:17 19:26 0-2");
    ASSERT_EQ(game.plies.size(), 8u);
    EXPECT_EQ(move_texts(game),
              (std::vector<std::string>{"32-28", "18-23", "37-32", "23-29", "34x23", "17-22", "28x17", "19x26"}));
    EXPECT_EQ(to_fen(game.final_position()), "W:W17,33,35,36,38-50:B1-16,20,26");
    EXPECT_EQ(game.result, "0-2");
}

// ---------------------------------------------------------------------------
// Games, tags and movetext syntax

TEST(PdnRead, ManyGamesInOneText) {
    const auto games = read_pdn_games<Russian>(R"([Event "First"]
[GameType "25"]
[Result "1-0"]

1. c3-d4 f6-g5 1-0

[Event "Second"]
1. ed4 dc5 *
1. gh4 1/2-1/2
[Event "No result"]
1. ab4
[Event "Tags only"]
)");
    ASSERT_EQ(games.size(), 5u);
    EXPECT_EQ(games[0].tags, (std::vector<PdnTag>{{"Event", "First"}, {"GameType", "25"}, {"Result", "1-0"}}));
    EXPECT_EQ(games[0].plies.size(), 2u);
    EXPECT_EQ(games[0].result, "1-0");
    EXPECT_EQ(games[1].tag("Event"), "Second");
    EXPECT_EQ(games[1].result, "*");
    EXPECT_TRUE(games[2].tags.empty());
    EXPECT_EQ(games[2].plies.size(), 1u);
    EXPECT_EQ(games[2].result, "1/2-1/2");
    // A game cut off by the next tag section has no termination marker.
    EXPECT_EQ(games[3].plies.size(), 1u);
    EXPECT_EQ(games[3].result, "*");
    EXPECT_TRUE(games[4].plies.empty());
    EXPECT_EQ(games[4].tag("Event"), "Tags only");
    EXPECT_EQ(games[4].tag("Site"), std::nullopt);
}

TEST(PdnRead, NothingButCommentsIsNoGame) {
    EXPECT_TRUE(read_pdn_games<Russian>("").empty());
    EXPECT_TRUE(read_pdn_games<Russian>("  \n{a comment}\n; a line comment\n% an escape line\n").empty());
}

TEST(PdnRead, EveryResult) {
    for (const char* result : {"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"}) {
        const auto game = read_one<International>(std::string("1. 32-28 ") + result);
        EXPECT_EQ(game.result, result);
        EXPECT_EQ(game.plies.size(), 1u);
    }
}

TEST(PdnRead, TagValuesUnescapeQuotesAndBackslashes) {
    const auto game = read_one<Russian>(R"([Event "The \"Big\" one \\ 2024"] [Site   "x]y"]
[White""] *)");
    EXPECT_EQ(game.tags, (std::vector<PdnTag>{{"Event", R"(The "Big" one \ 2024)"}, {"Site", "x]y"}, {"White", ""}}));
}

TEST(PdnRead, CommentsVariationsNagsAndAnnotationsAroundMoves) {
    const auto game = read_one<Russian>(R"(
% an escape line, ignored
1. c3-d4! {a comment with ( and ) in it} f6-e5?! $4 ; to the end of the line ) {
2. ( 2. b2-c3 (2. a3-b4 {nested}) h6-... ) d4:f6 $1 $13
2... { Black to move } g7:e5 !! 3. b2-c3 *)");
    ASSERT_EQ(game.plies.size(), 5u);
    EXPECT_EQ(move_texts(game), (std::vector<std::string>{"c3-d4", "f6-e5", "d4:f6", "g7:e5", "b2-c3"}));
    EXPECT_EQ(game.plies[0].annotation, "!");
    EXPECT_EQ(game.plies[1].annotation, "?!");
    EXPECT_EQ(game.plies[1].nags, std::vector<int>{4});
    EXPECT_EQ(game.plies[2].nags, (std::vector<int>{1, 13}));
    EXPECT_EQ(game.plies[2].annotation, "");
    EXPECT_EQ(game.plies[3].annotation, "!!");
    EXPECT_TRUE(game.plies[4].nags.empty());
}

TEST(PdnRead, MoveFormsAndNumbersGluedToMoves) {
    const auto game = read_one<Russian>("1.c3xd4 f6-e5 2.d4xf6 g7:e5 3.bc3 h6-g5 4. 21-17 *");
    EXPECT_EQ(move_texts(game),
              (std::vector<std::string>{"c3-d4", "f6-e5", "d4:f6", "g7:e5", "b2-c3", "h6-g5", "a3-b4"}));
    EXPECT_EQ(game.plies[0].text, "c3xd4");
    EXPECT_EQ(game.plies[6].text, "21-17");  // PDN numbers: 21 = a3, 17 = b4
}

TEST(PdnRead, FullCapturePathPicksTheRoute) {
    const auto game = read_one<Russian>(R"([FEN "W:WKd8:Be7,e5,f4,d2,f2"] 1. d8:f6:d4:g1 *)");
    ASSERT_EQ(game.plies.size(), 1u);
    EXPECT_EQ(move_text(game.plies[0].before, game.plies[0].move), "d8:f6:d4:g1");
}

// Found by the FEN fuzzer: the turning squares written name the route that
// turns exactly there, though another route with the same ends flies over
// them (a7:c5:e7:g5:c1 passes e3) or has turns where the written one has
// none (c5:e7:h4:f2:a7 beside the straight c5:a7). Both used to read as
// ambiguous, so move_text's own text did not read back.
TEST(PdnRead, TurningSquaresNameTheRouteThatTurnsThere) {
    const auto games = read_pdn_games<Russian>(R"([FEN "W:WKh8,Ka7:Bg7,b6,d6,f6,h6,d2"] 1. a7:e3:c1 *
                                                  [FEN "W:WKh8,Ka7:Bg7,b6,d6,f6,h6,d2"] 1. a7:c5:e7:g5:c1 *
                                                  [FEN "W:WKc5:Bb6,d6,f6,g3,d2"] 1. c5:a7 *
                                                  [FEN "W:WKc5:Bb6,d6,f6,g3,d2"] 1. c5:e7:h4:f2:a7 *)");
    ASSERT_EQ(games.size(), 4u);
    std::vector<int> taken;
    for (const auto& game : games) taken.push_back(popcount(game.plies.at(0).move.captured));
    EXPECT_EQ(taken, (std::vector<int>{2, 4, 1, 4}));
    for (const auto& game : games) EXPECT_EQ(move_text(game.start, game.plies[0].move), game.plies[0].text);
}

TEST(PdnRead, FenSetups) {
    // Russian: algebraic and numeric FEN, with or without SetUp, Black to move.
    const auto algebraic = read_one<Russian>(R"([SetUp "1"] [FEN "B:Wc3,Kh2:Bb6,d6"] 12... d6-c5 13. h2-g1 *)");
    EXPECT_EQ(algebraic.start.side_to_move, Black);
    EXPECT_EQ(to_fen(algebraic.start), "B:Wc3,Kh2:Bb6,d6");
    EXPECT_EQ(move_texts(algebraic), (std::vector<std::string>{"d6-c5", "h2-g1"}));
    const auto numeric = read_one<Russian>(R"([FEN "W:W21-32:B1-12"] [SetUp "1"] 1. ed4 *)");
    EXPECT_EQ(numeric.start, initial_position<Russian>());
    const auto international = read_one<International>(R"([GameType "20"][FEN "W:WK46,31:B5,K15"] 1. 31-27 *)");
    EXPECT_EQ(to_fen(international.plies[0].before), "W:W31,K46:B5,K15");
    // GameType may carry more fields after the number.
    EXPECT_EQ(read_one<International>(R"([GameType "20,W,10,10,N2,0"] 1. 32-28 *)").plies.size(), 1u);
    EXPECT_EQ(read_one<Russian>(R"([SetUp "0"] 1. ed4 *)").start, initial_position<Russian>());
}

TEST(PdnRead, BrazilianGames) {
    // GameType 26, algebraic moves, the majority rule: c3 must take the two men.
    const auto game = read_one<Brazilian>(R"([GameType "26"][FEN "W:Wc3:BKb4,d4,f6"] 1. c3:g7 *)");
    EXPECT_EQ(move_texts(game), (std::vector<std::string>{"c3:g7"}));
    EXPECT_EQ(to_fen(game.plies[0].before), "W:Wc3:Bf6,Kb4,d4");
    EXPECT_CONTAINS(read_error<Brazilian>(R"([FEN "W:Wc3:BKb4,d4,f6"] 1. c3:a5 *)"), "c3:a5");
    EXPECT_CONTAINS(read_error<Russian>("[GameType \"26\"] 1. c3-d4 *"),
                    "GameType \"26\" is brazilian, but the games are read as russian");
}

TEST(PdnRead, ShortenedFormsOnlyForRussian) {
    EXPECT_CONTAINS(read_error<International>("1. ed4 *"), "'ed4' is not a square of the international board");
}

// ---------------------------------------------------------------------------
// Errors: each says where and what

TEST(PdnErrors, SyntaxErrorsGiveLineAndColumn) {
    EXPECT_EQ(read_error<Russian>("[Event \"x\"]\n1. c3-d4\n  f6-g5 {never closed\n"),
              "line 3, column 9: unterminated comment: no '}' closes this '{'");
    EXPECT_CONTAINS(read_error<Russian>("1. c3-d4 (1. a3-b4 (1. e3-f4) \n *"),
                    "line 1, column 10: unterminated variation");
    EXPECT_CONTAINS(read_error<Russian>("1. c3-d4 ) *"), "line 1, column 10: unexpected ')'");
    EXPECT_CONTAINS(read_error<Russian>("1. c3-d4 } *"), "line 1, column 10: unexpected '}'");
    EXPECT_CONTAINS(read_error<Russian>("1. c3-d4 ] *"), "unexpected ']'");
    EXPECT_CONTAINS(read_error<Russian>("1. c3-d4 \"x\" *"), "unexpected '\"'");
}

TEST(PdnErrors, MalformedTags) {
    EXPECT_CONTAINS(read_error<Russian>("[Event \"open\n*"),
                    "line 1, column 8: the value of tag 'Event' has no closing");
    EXPECT_CONTAINS(read_error<Russian>("[\"x\"] *"), "line 1, column 2: expected a tag name");
    EXPECT_CONTAINS(read_error<Russian>("[Event x] *"), "expected the value of tag 'Event' in double quotes");
    EXPECT_CONTAINS(read_error<Russian>("[Event \"x\" *"), "expected ']' to close tag 'Event'");
    EXPECT_CONTAINS(read_error<Russian>("[Event \"x\"]\n[Event \"y\"] *"),
                    "line 2, column 1: game 1: tag 'Event' is given twice");
}

TEST(PdnErrors, GameTypes) {
    EXPECT_CONTAINS(read_error<Russian>("[GameType \"20\"] 1. 32-28 *"),
                    "game 1: GameType \"20\" is international, but the games are read as russian");
    EXPECT_CONTAINS(read_error<International>("* [GameType \"25\"] *"),
                    "line 1, column 3: game 2: GameType \"25\" is russian, but the games are read as international");
    EXPECT_CONTAINS(read_error<Russian>("[GameType \"21\"] *"), "GameType \"21\" is not a game dtb reads");
    EXPECT_CONTAINS(read_error<Russian>("[GameType \"checkers\"] *"), "GameType \"checkers\" is not a game dtb reads");
}

TEST(PdnErrors, SetUpAndFen) {
    EXPECT_CONTAINS(read_error<Russian>("[SetUp \"2\"] *"), "SetUp \"2\" must be \"0\" or \"1\"");
    EXPECT_CONTAINS(read_error<Russian>("[SetUp \"1\"] *"), "SetUp \"1\" but no FEN tag");
    EXPECT_CONTAINS(read_error<Russian>("[SetUp \"0\"][FEN \"W:Wc3:Bd6\"] *"), "SetUp \"0\"");
    EXPECT_CONTAINS(read_error<Russian>("\n  [FEN \"W:Wc3:Bz9\"] *"),
                    "line 2, column 3: game 1: FEN tag: bad FEN 'W:Wc3:Bz9'");
    EXPECT_CONTAINS(read_error<Russian>("[FEN \"W:Wc3:Bc3\"]"), "FEN tag: bad FEN");
}

TEST(PdnErrors, MovesSayGameMoveAndSide) {
    const std::string text = "1. ed4 *\n1. ed4 *\n\n1. c3-d4 f6-g5\n2. g3-f4 e5:g3 *";
    EXPECT_CONTAINS(read_error<Russian>(text),
                    "line 5, column 10: game 3, move 2 (black) 'e5:g3': illegal move 'e5:g3'");
    // The numbers written in the record label the moves.
    EXPECT_CONTAINS(read_error<Russian>("[FEN \"B:Wc3:Bb6\"] 12... b6-c5 13. c3-d4 b6-a5 *"),
                    "game 1, move 13 (black) 'b6-a5': illegal move");
    EXPECT_CONTAINS(read_error<Russian>("1. c3-z9 *"), "game 1, move 1 (white) 'c3-z9': bad move 'c3-z9'");
    EXPECT_CONTAINS(read_error<Russian>("1. Белые *"), "game 1, move 1 (white) 'Белые': bad move");
    EXPECT_CONTAINS(read_error<Russian>(R"([FEN "W:WKd8:Be7,e5,f4,d2,f2"] 1. d8:g1 *)"),
                    "ambiguous move 'd8:g1' in W:WKd8:Be7,e5,f4,d2,f2: it could be d8:f6:d4:g1, d8:g5:e3:g1");
    // Moves after a game is over are illegal too.
    EXPECT_CONTAINS(read_error<Russian>(R"([FEN "B:Wc3:B"] 1... d6-c5 *)"), "legal moves: none");
}

TEST(PdnErrors, ShortenedMovesMustMatchExactlyOneMove) {
    EXPECT_CONTAINS(read_error<Russian>("1. ad4 *"), "no legal plain move from file a to d4");
    EXPECT_CONTAINS(read_error<Russian>("1. c:d4 *"), "no legal capture from file c to d4");
    EXPECT_CONTAINS(read_error<Russian>("1. ea4 *"), "'a4' is not a square of the russian board");
    EXPECT_CONTAINS(read_error<Russian>(R"([FEN "W:Wc3,Kc5:Bh8"] 1. cd4 *)"),
                    "shortened plain move 'cd4' is ambiguous in W:WKc5,c3:Bh8: it could be c3-d4, c5-d4");
    EXPECT_CONTAINS(read_error<Russian>(R"([FEN "W:Wa3,e3:Bb4,d4"] 1. c3-d4 *)"), "illegal move");
    EXPECT_CONTAINS(read_error<Russian>(R"([FEN "W:Wa3,e3:Bb4,d4"] 1. x:c5 *)"), "bad move 'x:c5'");
    EXPECT_CONTAINS(read_error<Russian>(R"([FEN "W:Wa3,e3:Bb4,d4"] 1. a:c5 e7-f6 *)"),
                    "move 1 (black) 'e7-f6'");  // a:c5 itself was fine
}

TEST(PdnErrors, AnnotationsAndNags) {
    EXPECT_CONTAINS(read_error<Russian>("1. ed4!!! *"), "line 1, column 7: unknown move annotation '!!!'");
    EXPECT_CONTAINS(read_error<Russian>("1. ed4 $ *"), "expected a number after '$'");
    EXPECT_CONTAINS(read_error<Russian>("1. ed4 $256 *"), "NAG $256 is out of range");
    EXPECT_CONTAINS(read_error<Russian>("1. ed4 $99999999999999 *"), "is out of range");
    EXPECT_CONTAINS(read_error<Russian>("$1 1. ed4 *"), "'$1' annotates a move, but no move of this game");
    EXPECT_CONTAINS(read_error<Russian>("1. ed4 * ! 1. ed4 *"), "'!' annotates a move");
    EXPECT_CONTAINS(read_error<Russian>("1. ed4! ? *"), "annotation '?' follows annotation '!'");
    EXPECT_CONTAINS(read_error<Russian>("1234567. ed4 *"), "move number 1234567 is too large");
}

// ---------------------------------------------------------------------------
// Writing

TEST(PdnWrite, NumbersMovesAndWrapsAt80Columns) {
    auto game = read_one<Russian>(std::string("[Event \"Seed \\\"2.1.6\\\"\"]\n") + std::string(kRussianShort));
    game.plies[0].annotation = "!";
    game.plies[1].nags = {3};
    const std::string text = write_pdn_game(game);
    EXPECT_EQ(text,
              "[GameType \"25\"]\n[Event \"Seed \\\"2.1.6\\\"\"]\n\n"
              "1. e3-d4! d6-c5 $3 2. f2-e3 f6-g5 3. c3-b4 g5-h4 4. b4:d6 h4:f2 5. e1:g3 c7:h4\n0-1\n");
}

TEST(PdnWrite, BlackFirstStartsWithAnEllipsis) {
    const auto game = read_one<Russian>(R"([FEN "B:Wc3:Bb6"] 7... b6-a5 *)");
    EXPECT_EQ(write_pdn_game(game), "[GameType \"25\"]\n[FEN \"B:Wc3:Bb6\"]\n[SetUp \"1\"]\n\n1... b6-a5 *\n");
}

TEST(PdnWrite, RefusesWhatPdnCannotHold) {
    PdnGame<Russian> game;
    game.tags = {{"Event", "two\nlines"}};
    EXPECT_THROW(write_pdn_game(game), InputError);
    game.tags = {{"Bad Name", "x"}};
    EXPECT_THROW(write_pdn_game(game), InputError);
    game.tags.clear();
    game.result = "white won";
    EXPECT_THROW(write_pdn_game(game), InputError);
    game.result = "*";
    game.plies.push_back(PdnPly<Russian>{Move{0, 0, 0, false}, "?", game.start, {}, {}});
    EXPECT_THROW(write_pdn_game(game), InputError);
}

// Random legal games, written and read back: same start, moves, annotations,
// NAGs, tags and result, and the text itself is stable.
template <class V>
PdnGame<V> random_game(std::mt19937& rng, int index) {
    static constexpr const char* results[] = {"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"};
    static constexpr const char* annotations[] = {"!", "?", "!!", "??", "!?", "?!"};
    PdnGame<V> game;
    game.tags = {{"Event", "Random \"" + std::to_string(index) + "\" \\ test"},
                 {"GameType", std::to_string(V::pdn_game_type)}};
    Position<V> pos = initial_position<V>();
    // Every third game starts from a position reached by random play.
    const int setup_plies = index % 3 == 0 ? int(rng() % 40) : 0;
    const int plies = int(rng() % 150);
    for (int i = 0; i < setup_plies + plies; ++i) {
        MoveList moves;
        MoveGenerator<V>::generate(pos, moves);
        if (moves.empty()) break;
        const Move m = moves[rng() % moves.size()];
        if (i >= setup_plies) {
            PdnPly<V> ply{m, move_text(pos, m), pos, {}, {}};
            if (rng() % 10 == 0) ply.annotation = annotations[rng() % 6];
            if (rng() % 10 == 0) ply.nags = {int(rng() % 256), int(rng() % 256)};
            game.plies.push_back(ply);
        } else if (i + 1 == setup_plies) {
            game.tags.push_back({"SetUp", "1"});
            game.tags.push_back({"FEN", to_fen(pos.after(m))});
            game.start = pos.after(m);
        }
        pos = pos.after(m);
    }
    game.result = results[rng() % 8];
    return game;
}

template <class V>
void round_trip(unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<PdnGame<V>> games;
    for (int i = 0; i < 60; ++i) games.push_back(random_game<V>(rng, i));
    const std::string text = write_pdn_games(games);

    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);)
        if (line.empty() || line[0] != '[') {
            EXPECT_LE(line.size(), 80u) << line;
        }

    const auto read = read_pdn_games<V>(text);
    ASSERT_EQ(read.size(), games.size());
    for (std::size_t g = 0; g < games.size(); ++g) {
        SCOPED_TRACE("game " + std::to_string(g + 1));
        EXPECT_EQ(read[g].tags, games[g].tags);
        EXPECT_EQ(read[g].start, games[g].start);
        EXPECT_EQ(read[g].result, games[g].result);
        ASSERT_EQ(read[g].plies.size(), games[g].plies.size());
        for (std::size_t i = 0; i < games[g].plies.size(); ++i) {
            EXPECT_EQ(read[g].plies[i].move, games[g].plies[i].move);
            EXPECT_EQ(read[g].plies[i].before, games[g].plies[i].before);
            EXPECT_EQ(read[g].plies[i].text, games[g].plies[i].text);
            EXPECT_EQ(read[g].plies[i].annotation, games[g].plies[i].annotation);
            EXPECT_EQ(read[g].plies[i].nags, games[g].plies[i].nags);
        }
    }
    EXPECT_EQ(write_pdn_games(read), text);
}

TEST(PdnRoundTrip, RandomRussianGames) { round_trip<Russian>(2024); }
TEST(PdnRoundTrip, RandomInternationalGames) { round_trip<International>(2025); }

}  // namespace
}  // namespace dtb
