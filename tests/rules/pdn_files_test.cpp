// PdnReader on files written the way real collections are (pdn_files/):
// encodings, a byte-order mark, stray characters, bad games among good
// ones, captures settled by their stops or by the next move, and games of
// other rules, each rejected with its move named.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "rules/pdn.hpp"
#include "tests/rules/pdn_test_support.hpp"

namespace dtb {
namespace {

template <class V>
std::vector<PdnEntry<V>> read_file(const std::string& name, TextEncoding encoding = TextEncoding::automatic) {
    std::ifstream in(std::string(DTB_PDN_FILES) + "/" + name, std::ios::binary);
    EXPECT_TRUE(in) << name;
    PdnReader<V> reader(in, PdnReadOptions{encoding});
    std::vector<PdnEntry<V>> entries;
    while (auto e = reader.next()) entries.push_back(std::move(*e));
    return entries;
}

template <class V>
std::vector<PdnEntry<V>> read_text(const std::string& text) {
    std::istringstream in(text);
    PdnReader<V> reader(in);
    std::vector<PdnEntry<V>> entries;
    while (auto e = reader.next()) entries.push_back(std::move(*e));
    return entries;
}

using test::move_texts;

// The moves of a game as the record wrote them.
template <class V>
std::vector<std::string> written_moves(const PdnGame<V>& game) {
    std::vector<std::string> texts;
    for (const auto& ply : game.plies) texts.push_back(ply.text);
    return texts;
}

// The game of Russian rule 2.1.6.2.
const std::vector<std::string> kSeedGame{"e3-d4", "d6-c5", "f2-e3", "f6-g5", "c3-b4",
                                         "g5-h4", "b4:d6", "h4:f2", "e1:g3", "c7:h4"};

TEST(PdnFiles, Utf8WithByteOrderMarkAndWindowsLineEnds) {
    const auto e = read_file<Russian>("russian_bom_crlf.pdn");
    ASSERT_EQ(e.size(), 4u);
    for (const auto& entry : e) ASSERT_TRUE(entry.game) << entry.error.message();
    // The mark is not a move or part of a tag name; the literal "\r" after
    // the tags is a space.
    EXPECT_EQ(e[0].game->tags.front().name, "Event");
    EXPECT_EQ(e[0].game->tag("Event"), "Чемпионат России");
    EXPECT_EQ(e[0].game->tag("White"), "Иванов И.");
    EXPECT_EQ(move_texts(*e[0].game), kSeedGame);
    EXPECT_EQ(e[0].game->result, "0-1");
    // "[Empty]" is dropped, "[[Event" is a tag, "23- 18" and "17x 10" are
    // moves, "-" is an unknown result.
    EXPECT_EQ(e[1].game->tags.size(), 3u);
    EXPECT_EQ(e[1].game->tag("White"), "Сидоров С.");
    EXPECT_EQ(move_texts(*e[1].game), kSeedGame);
    EXPECT_EQ(e[1].game->result, "*");
    // A tag section with no moves, then (after an empty line) the next game
    // with the same tags.
    EXPECT_TRUE(e[2].game->plies.empty());
    EXPECT_EQ(e[2].game->tag("Black"), "Сидоров С.");
    // Squares with no separator: "e3d4", "b4d6".
    EXPECT_EQ(move_texts(*e[3].game), kSeedGame);
    EXPECT_EQ(e[3].number, 4);
}

TEST(PdnFiles, CyrillicCodePagesAreDetected) {
    for (const char* name : {"russian_cp1251.pdn", "russian_cp866.pdn"}) {
        SCOPED_TRACE(name);
        const auto e = read_file<Russian>(name);
        ASSERT_EQ(e.size(), 2u);
        ASSERT_TRUE(e[0].game && e[1].game);
        EXPECT_EQ(e[0].game->tag("Event"), "Кубок Москвы");
        EXPECT_EQ(e[0].game->tag("Black"), "Ёлкин Б.");
        EXPECT_EQ(e[1].game->tag("White"), "Ёлкин Б.");
        EXPECT_EQ(move_texts(*e[0].game), kSeedGame);
        EXPECT_EQ(e[1].game->result, "1-0");
    }
    // Forced, the encoding is used as told: CP866 bytes read as CP1251 are
    // other letters, but still UTF-8.
    const auto forced = read_file<Russian>("russian_cp866.pdn", TextEncoding::cp1251);
    ASSERT_TRUE(forced[0].game);
    EXPECT_NE(forced[0].game->tag("Event"), "Кубок Москвы");
    EXPECT_TRUE(is_valid_utf8(*forced[0].game->tag("Event")));
    EXPECT_EQ(read_file<Russian>("russian_cp866.pdn", TextEncoding::cp866)[0].game->tag("Event"), "Кубок Москвы");
}

TEST(PdnFiles, Latin1WithOldMacLineEndsAndAScoreForAResult) {
    const auto e = read_file<International>("international_latin1.pdn");
    ASSERT_EQ(e.size(), 3u);
    for (const auto& entry : e) ASSERT_TRUE(entry.game) << entry.error.message();
    EXPECT_EQ(e[0].game->tag("White"), "Hervé Müller");
    EXPECT_EQ(e[0].game->tag("Black"), "Gérard Sørensen");
    EXPECT_EQ(move_texts(*e[0].game),
              (std::vector<std::string>{"32-28", "18-23", "37-32", "23-29", "34x23", "17-22", "28x17", "19x26"}));
    EXPECT_EQ(e[0].game->result, "0-2");  // "4-6": Black scored more
    EXPECT_TRUE(e[1].game->plies.empty());
    EXPECT_EQ(e[2].game->tag("White"), "François Noël");
    EXPECT_EQ(e[2].game->result, "1-1");
}

TEST(PdnFiles, BadGamesAmongGoodOnesAreReportedOneByOne) {
    const auto e = read_file<Russian>("russian_bad_among_good.pdn");
    ASSERT_EQ(e.size(), 7u);
    std::vector<bool> read;
    for (const auto& entry : e) read.push_back(bool(entry.game));
    EXPECT_EQ(read, (std::vector<bool>{true, false, false, true, false, false, true}));
    for (int i = 0; i < 7; ++i) EXPECT_EQ(e[i].number, i + 1);

    const PdnError& illegal = e[1].error;
    EXPECT_EQ(illegal.game, 2);
    EXPECT_EQ(illegal.line, 6);
    EXPECT_EQ(illegal.move, "a1-b2");
    EXPECT_EQ(illegal.move_number, 2);
    EXPECT_EQ(illegal.side, White);
    EXPECT_CONTAINS(illegal.reason, "illegal move 'a1-b2'");
    EXPECT_EQ(illegal.tags, (std::vector<PdnTag>{{"Event", "Illegal move"}, {"Round", "2"}}));
    EXPECT_CONTAINS(illegal.message(), "line 6, column 19: game 2, move 2 (white) 'a1-b2': illegal move");
    EXPECT_EQ(move_texts(e[1].partial), (std::vector<std::string>{"c3-d4", "f6-g5"}));

    EXPECT_EQ(e[2].error.line, 9);
    EXPECT_CONTAINS(e[2].error.message(), "unterminated comment");
    EXPECT_EQ(e[2].error.tags.front().value, "Unclosed comment");
    EXPECT_CONTAINS(e[4].error.message(), "game 5: FEN tag: bad FEN");
    EXPECT_CONTAINS(e[5].error.message(), "game 6: GameType \"20\" is international");
    EXPECT_EQ(e[6].game->tag("Event"), "Good 3");
    EXPECT_EQ(move_texts(*e[6].game), (std::vector<std::string>{"d8:f6:d4:g1", "f4-g3"}));
}

TEST(PdnFiles, CapturesSettledByStopsThenByTheNextMove) {
    const auto e = read_file<Russian>("russian_captures.pdn");
    ASSERT_EQ(e.size(), 5u);
    ASSERT_TRUE(e[0].game && e[1].game && e[2].game);
    EXPECT_EQ(move_texts(*e[0].game), (std::vector<std::string>{"d8:g5:e3:g1", "e5-d4"}));
    EXPECT_EQ(move_texts(*e[1].game), (std::vector<std::string>{"d8:f6:d4:g1", "f4-g3"}));
    EXPECT_EQ(move_texts(*e[2].game), (std::vector<std::string>{"d8:g5:e3:g1", "e5-d4"}));
    EXPECT_EQ(e[1].game->plies[0].text, "d8:g1");
    // Still open: the candidates are named.
    ASSERT_FALSE(e[3].game);
    EXPECT_CONTAINS(e[3].error.message(), "game 4, move 1 (white) 'd8:g1': ambiguous move 'd8:g1'");
    EXPECT_CONTAINS(e[3].error.reason, "it could be d8:f6:d4:g1, d8:g5:e3:g1");
    EXPECT_TRUE(e[3].partial.plies.empty());  // the capture left open is not kept
    ASSERT_FALSE(e[4].game);
    EXPECT_CONTAINS(e[4].error.reason, "the next move 'd2-c1' is legal after more than one");

    const auto i = read_file<International>("international_captures.pdn");
    ASSERT_EQ(i.size(), 3u);
    ASSERT_TRUE(i[0].game && i[1].game);
    EXPECT_EQ(move_texts(*i[0].game), (std::vector<std::string>{"45x29x42x26", "28-33"}));
    EXPECT_EQ(move_texts(*i[1].game), (std::vector<std::string>{"45x23x37x26", "33-39"}));
    ASSERT_FALSE(i[2].game);
    EXPECT_CONTAINS(i[2].error.reason, "it could be 45x29x42x26, 45x23x37x26");
}

TEST(PdnFiles, OtherRulesAreRejectedGameByGameWithTheMoveNamed) {
    const auto r = read_file<Russian>("other_rules_as_russian.pdn");
    ASSERT_EQ(r.size(), 3u);
    ASSERT_FALSE(r[0].game);
    EXPECT_EQ(r[0].error.move, "b6:d8");  // crowned, the man goes on capturing as a king (2.1.5.4)
    EXPECT_CONTAINS(r[0].error.reason, "legal moves: b6:d8:g5, b6:d8:h4");
    ASSERT_FALSE(r[1].game);
    EXPECT_EQ(r[1].error.move, "32-28");
    ASSERT_TRUE(r[2].game);

    const auto i = read_file<International>("other_rules_as_international.pdn");
    ASSERT_EQ(i.size(), 2u);
    ASSERT_FALSE(i[0].game);
    EXPECT_EQ(i[0].error.move, "36x27");  // the majority rule: 32x14 takes two
    EXPECT_CONTAINS(i[0].error.reason, "legal moves: 32x14");
    ASSERT_TRUE(i[1].game);
}

// Tournament exports whose tag lines end in a literal "\r" (a backslash
// and an r, then the real line end): each game keeps all its tags.
TEST(PdnResync, LiteralCarriageReturnsAfterTagsKeepTheTagsWithTheirGame) {
    const auto e = read_file<International>("international_literal_cr_tags.pdn");
    ASSERT_EQ(e.size(), 3u);
    for (const auto& entry : e) {
        ASSERT_TRUE(entry.game) << entry.error.message();
        EXPECT_EQ(entry.game->tags.size(), 8u);
        EXPECT_EQ(entry.game->tag("Event"), "Open Nederlands Kampioenschap");
        EXPECT_EQ(entry.game->tag("GameType"), "20");
        EXPECT_FALSE(entry.game->plies.empty());
    }
    EXPECT_EQ(e[0].game->tag("White"), "Jansen, P.");
    EXPECT_EQ(e[1].game->tag("Round"), "2");
    EXPECT_EQ(e[2].game->tag("Black"), "Jansen, P.");
    EXPECT_EQ(written_moves(*e[0].game),
              (std::vector<std::string>{"32-28", "18-23", "37-32", "23-29", "34x23", "17-22", "28x17", "19x26"}));
    EXPECT_EQ(e[1].game->plies.size(), 8u);
    EXPECT_EQ(e[1].game->result, "2-0");
    EXPECT_EQ(e[2].game->plies.size(), 4u);
    EXPECT_EQ(e[2].number, 3);
    // The escapes are skipped with one warning per game, where the first is.
    ASSERT_EQ(e[1].warnings.size(), 1u);
    EXPECT_EQ(e[1].warnings[0].line, 11);
    EXPECT_EQ(e[1].warnings[0].column, 40);
    EXPECT_EQ(e[1].warnings[0].count, 8);
    EXPECT_EQ(e[1].warnings[0].message(),
              "line 11, column 40: a literal '\\r' (a backslash and 'r') is read as a space (8 times in this game)");
}

// Moves written "-" (not recorded): one error for the game, at the first
// of them, and the next game is read as usual.
TEST(PdnResync, AnUnknownMoveCostsItsGameOnceAndOnlyItsGame) {
    const auto e = read_file<International>("international_unknown_moves.pdn");
    ASSERT_EQ(e.size(), 4u);
    ASSERT_TRUE(e[0].game) << e[0].error.message();
    ASSERT_FALSE(e[1].game);
    ASSERT_FALSE(e[2].game);
    ASSERT_TRUE(e[3].game) << e[3].error.message();

    const PdnError& black_unknown = e[1].error;
    EXPECT_EQ(black_unknown.game, 2);
    EXPECT_EQ(black_unknown.line, 13);
    EXPECT_EQ(black_unknown.column, 10);
    EXPECT_EQ(black_unknown.move, "-");
    EXPECT_EQ(black_unknown.move_number, 1);
    EXPECT_EQ(black_unknown.side, Black);
    EXPECT_EQ(black_unknown.tags.size(), 5u);
    EXPECT_EQ(black_unknown.tags[1], (PdnTag{"Round", "2"}));
    EXPECT_CONTAINS(black_unknown.message(), "line 13, column 10: game 2, move 1 (black) '-': ");
    EXPECT_CONTAINS(black_unknown.reason, "no move");
    // What was read of the game is kept: its tags, and the moves before.
    EXPECT_EQ(e[1].partial.tags, black_unknown.tags);
    EXPECT_EQ(written_moves(e[1].partial), (std::vector<std::string>{"32-28"}));
    EXPECT_EQ(e[1].partial.result, "*");

    const PdnError& all_unknown = e[2].error;
    EXPECT_EQ(all_unknown.game, 3);
    EXPECT_EQ(all_unknown.line, 21);
    EXPECT_EQ(all_unknown.column, 4);
    EXPECT_EQ(all_unknown.move, "-");
    EXPECT_EQ(all_unknown.side, White);
    EXPECT_EQ(all_unknown.tags[1], (PdnTag{"Round", "3"}));
    EXPECT_TRUE(e[2].partial.plies.empty());
    for (const auto& entry : e) EXPECT_TRUE(entry.warnings.empty());

    EXPECT_EQ(e[3].number, 4);
    EXPECT_EQ(e[3].game->tag("Round"), "4");
    EXPECT_EQ(written_moves(*e[3].game), (std::vector<std::string>{"32-28", "19-23", "28x19", "14x23"}));
    EXPECT_EQ(e[3].game->result, "1-1");
}

// A tag line without its '[' (or its ']') is read as a tag: the game is
// not split, and its tags stay with its moves.
TEST(PdnResync, ATagLineWithoutItsBracketIsReadAsATag) {
    const auto e = read_file<Russian>("russian_tag_missing_bracket.pdn");
    ASSERT_EQ(e.size(), 4u);
    for (const auto& entry : e) {
        ASSERT_TRUE(entry.game) << entry.error.message();
        EXPECT_EQ(move_texts(*entry.game), (std::vector<std::string>{"c3-d4", "f6-g5", "g3-f4"}));
        EXPECT_EQ(entry.game->tag("Event"), "Кубок Москвы");
    }
    EXPECT_EQ(e[1].game->tags.size(), 4u);
    EXPECT_EQ(e[1].game->tags.front(), (PdnTag{"Event", "Кубок Москвы"}));
    EXPECT_EQ(e[1].game->tag("White"), "Петров П.");
    EXPECT_EQ(e[1].game->result, "0-1");
    EXPECT_EQ(e[2].game->tag("White"), "Сидоров С.");
    EXPECT_EQ(e[2].game->tag("Round"), "3");
    EXPECT_EQ(e[3].game->tag("Black"), "Сидоров С.");
    EXPECT_EQ(e[3].game->tag("Round"), "4");
    EXPECT_EQ(e[3].number, 4);
    // Each is read with a warning that names the tag and where it is.
    EXPECT_TRUE(e[0].warnings.empty());
    ASSERT_EQ(e[1].warnings.size(), 1u);
    EXPECT_EQ(e[1].warnings[0].message(), "line 6, column 1: tag 'Event' has no '[' before it; read as a tag");
    ASSERT_EQ(e[2].warnings.size(), 1u);
    EXPECT_EQ(e[2].warnings[0].message(), "line 13, column 1: tag 'White' has no '[' before it; read as a tag");
    ASSERT_EQ(e[3].warnings.size(), 1u);
    EXPECT_EQ(e[3].warnings[0].message(), "line 20, column 1: tag 'Black' has no ']' after it; read as a tag");
}

TEST(PdnResync, JunkBetweenTagsIsSkippedWithAWarning) {
    const auto e = read_text<Russian>("[Event \"x\"]]\n\\\n[White \"a\"] \"\n1. ed4 *\n[Event \"y\"]\n1. ed4 *");
    ASSERT_EQ(e.size(), 2u);
    ASSERT_TRUE(e[0].game) << e[0].error.message();
    EXPECT_EQ(e[0].game->tags, (std::vector<PdnTag>{{"Event", "x"}, {"White", "a"}}));
    EXPECT_EQ(e[0].game->plies.size(), 1u);
    ASSERT_EQ(e[0].warnings.size(), 3u);
    EXPECT_EQ(e[0].warnings[0].message(), "line 1, column 12: a stray ']' between tags is skipped");
    EXPECT_EQ(e[0].warnings[1].message(), "line 2, column 1: a stray '\\' between tags is skipped");
    EXPECT_EQ(e[0].warnings[2].message(), "line 3, column 13: a stray '\"' between tags is skipped");
    ASSERT_TRUE(e[1].game);
    EXPECT_TRUE(e[1].warnings.empty());
}

TEST(PdnResync, JunkAmongTheMovesIsStillAnErrorOfItsGameAlone) {
    const auto e = read_text<Russian>("[Event \"x\"]\n1. ed4 ] f6-g5 2. - *\n[Event \"y\"]\n1. ed4 *");
    ASSERT_EQ(e.size(), 2u);
    ASSERT_FALSE(e[0].game);
    EXPECT_EQ(e[0].error.message(), "line 2, column 8: unexpected ']'");
    EXPECT_EQ(e[0].error.tags, (std::vector<PdnTag>{{"Event", "x"}}));
    EXPECT_EQ(e[0].partial.plies.size(), 1u);
    ASSERT_TRUE(e[1].game) << e[1].error.message();
    EXPECT_EQ(e[1].game->tag("Event"), "y");
}

// A game with no result ends at the next game's tags, one without its '['
// too; an unknown move at the end of a game is still its result.
TEST(PdnResync, ATagLineWithoutItsBracketStartsTheNextGame) {
    const auto e = read_text<Russian>("[Event \"a\"]\n1. ed4 ba5\nEvent \"b\"]\n1. ed4 -\n\n1. cd4 -");
    ASSERT_EQ(e.size(), 3u);
    for (const auto& entry : e) ASSERT_TRUE(entry.game) << entry.error.message();
    EXPECT_EQ(e[0].game->plies.size(), 2u);
    EXPECT_EQ(e[1].game->tag("Event"), "b");
    EXPECT_EQ(e[1].game->plies.size(), 1u);
    EXPECT_EQ(e[1].game->result, "*");
    EXPECT_EQ(e[2].game->plies.size(), 1u);
}

TEST(PdnLenient, LiteralEscapesAndStrayCarriageReturns) {
    const auto e = read_text<Russian>("[Event \"x\"]\\r\\n\r\r\n1. c3-d4\\r f6-g5 *\\r\\n\r\n[Event \"y\"]\n1. ed4 *");
    ASSERT_EQ(e.size(), 2u);
    ASSERT_TRUE(e[0].game) << e[0].error.message();
    EXPECT_EQ(e[0].game->plies.size(), 2u);
    ASSERT_TRUE(e[1].game);
    EXPECT_EQ(e[1].game->tag("Event"), "y");
}

TEST(PdnErrorsBetweenGames, AStrayCharacterCostsNoGame) {
    const auto e = read_text<Russian>("[Event \"a\"]\n1. ed4 *\n}\n[Event \"b\"]\n1. ed4 *\n");
    ASSERT_EQ(e.size(), 3u);
    EXPECT_TRUE(e[0].game);
    ASSERT_FALSE(e[1].game);
    EXPECT_EQ(e[1].error.message(), "line 3, column 1: unexpected '}'");
    ASSERT_TRUE(e[2].game);
    EXPECT_EQ(e[2].game->tag("Event"), "b");
    // A broken tag takes its game with it, and only its game.
    const auto t = read_text<Russian>("[Event \"a]\n[Site \"x\"]\n1. ed4 *\n\n[Event \"b\"]\n1. ed4 *\n");
    ASSERT_EQ(t.size(), 2u);
    EXPECT_FALSE(t[0].game);
    ASSERT_TRUE(t[1].game);
    EXPECT_EQ(t[1].game->tag("Event"), "b");
}

TEST(PdnLenient, NoBreakSpaces) {
    const auto e = read_text<International>("1.\u00A032-28\u00A018-23 2.\u00A0\u00A037-32 *");
    ASSERT_EQ(e.size(), 1u);
    ASSERT_TRUE(e[0].game) << e[0].error.message();
    EXPECT_EQ(e[0].game->plies.size(), 3u);
}

TEST(PdnLenient, LooseResultsOnlyWhereAGameEnds) {
    const auto e = read_text<International>("1. 32-28 4-6\n\n1. 32-28 3-3\n\n1. 32-28 -\n\n1. 32-28 4-6 2. 31-27 *");
    ASSERT_EQ(e.size(), 4u);
    EXPECT_EQ(e[0].game->result, "0-2");
    EXPECT_EQ(e[1].game->result, "1-1");
    EXPECT_EQ(e[2].game->result, "*");
    // Before more moves, "4-6" is a move, and an illegal one.
    ASSERT_FALSE(e[3].game);
    EXPECT_EQ(e[3].error.move, "4-6");
    const auto r = read_text<Russian>("1. c3-d4 2-0\n1. c3-d4 ½-½");
    EXPECT_EQ(r[0].game->result, "2-0");
    EXPECT_EQ(r[1].game->result, "1/2-1/2");
}

TEST(PdnLenient, TagsBeginningAgainStartTheNextGame) {
    const auto e = read_text<Russian>("[Event \"x\"]\n[White \"a\"]\n[Event \"x\"]\n[White \"b\"]\n1. ed4 *");
    ASSERT_EQ(e.size(), 2u);
    ASSERT_TRUE(e[0].game && e[1].game);
    EXPECT_TRUE(e[0].game->plies.empty());
    EXPECT_EQ(e[0].game->tag("White"), "a");
    EXPECT_EQ(e[1].game->tag("White"), "b");
    EXPECT_EQ(e[1].game->plies.size(), 1u);
}

TEST(PdnLenient, ARepeatedTagWithNoEmptyLineIsStillAnError) {
    const auto e =
        read_text<Russian>("[Event \"x\"]\n[White \"a\"]\n[White \"b\"]\n1. ed4 *\n\n[Event \"z\"]\n1. ed4 *");
    ASSERT_EQ(e.size(), 2u);
    EXPECT_FALSE(e[0].game);
    EXPECT_CONTAINS(e[0].error.message(), "tag 'White' is given twice");
    ASSERT_TRUE(e[1].game);
    EXPECT_EQ(e[1].game->tag("Event"), "z");
}

TEST(PdnEncoding, GuessesAndNames) {
    EXPECT_EQ(guess_legacy_encoding("M\xFCller"), TextEncoding::latin1);
    EXPECT_EQ(guess_legacy_encoding("\xC8\xE2\xE0\xED\xEE\xE2"), TextEncoding::cp1251);  // Иванов
    EXPECT_EQ(guess_legacy_encoding("\x88\xA2\xA0\xAD\xAE\xA2"), TextEncoding::cp866);   // Иванов
    EXPECT_EQ(to_utf8("\xC8\xE2\xE0\xED\xEE\xE2", TextEncoding::cp1251), "Иванов");
    EXPECT_EQ(to_utf8("\x88\xA2\xA0\xAD\xAE\xA2", TextEncoding::cp866), "Иванов");
    EXPECT_EQ(to_utf8("M\xFCller", TextEncoding::latin1), "Müller");
    EXPECT_EQ(to_utf8("a\xFF"
                      "b",
                      TextEncoding::utf8),
              "a\uFFFDb");  // never invalid UTF-8 out
    EXPECT_EQ(parse_text_encoding("Windows-1251"), TextEncoding::cp1251);
    EXPECT_EQ(parse_text_encoding("latin1"), TextEncoding::latin1);
    EXPECT_EQ(parse_text_encoding("koi8-r"), std::nullopt);
    EXPECT_EQ(encoding_name(TextEncoding::cp866), "cp866");
}

// A collection joined from an old export (CP1251) and a new one (UTF-8):
// each line is read in the encoding it is valid in.
TEST(PdnEncoding, JoinedFilesKeepBothEncodingsReadable) {
    TextDecoder decoder(TextEncoding::automatic);
    EXPECT_EQ(decoder.decode("[White \"\xC8\xE2\xE0\xED\xEE\xE2\"]"), "[White \"Иванов\"]");
    EXPECT_EQ(decoder.encoding(), TextEncoding::cp1251);
    EXPECT_EQ(decoder.decode("[Black \"Петров\"]"), "[Black \"Петров\"]");
    EXPECT_EQ(decoder.decode("[Event \"\xCA\xF3\xE1\xEE\xEA\"]"), "[Event \"Кубок\"]");
    TextDecoder forced(TextEncoding::latin1);
    EXPECT_EQ(forced.decode("Caf\xC3\xA9"), "CafÃ©");  // told: Latin-1 throughout
}

TEST(PdnStream, GamesComeOneAtATimeAndNumbersRunOn) {
    std::string text;
    for (int i = 0; i < 50; ++i)
        text +=
            "[Event \"" + std::to_string(i) + "\"]\n1. c3-d4 f6-g5 2. " + (i % 7 == 3 ? "a1-b2" : "g3-f4") + " *\n\n";
    std::istringstream in(text);
    PdnReader<Russian> reader(in);
    int n = 0, bad = 0;
    while (auto e = reader.next()) {
        ++n;
        EXPECT_EQ(e->number, n);
        if (!e->game) {
            ++bad;
            EXPECT_EQ(e->error.tags.front().value, std::to_string(n - 1));
            EXPECT_EQ(e->error.line, 3 * (n - 1) + 2);
        }
    }
    EXPECT_EQ(n, 50);
    EXPECT_EQ(bad, 7);
}

}  // namespace
}  // namespace dtb

namespace dtb {
namespace {

TEST(PdnWriteComments, CommentsFollowTheirMovesAndReadBack) {
    const auto game = read_pdn_games<Russian>("[Event \"x\"]\n1. c3-d4 f6-g5 2. g3-f4 *").front();
    const std::string text = write_pdn_game(game, {"a {braced} note", "", "last"});
    EXPECT_NE(text.find("1. c3-d4 {a (braced) note} f6-g5 2. g3-f4 {last} *"), std::string::npos) << text;
    const auto again = read_pdn_games<Russian>(text);
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(again[0].plies.size(), 3u);
    // Long comments wrap at 80 columns like the moves.
    const std::string long_text =
        write_pdn_game(game, {std::string(30, 'a') + " " + std::string(30, 'b') + " " + std::string(30, 'c')});
    std::istringstream lines(long_text);
    for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 80u) << line;
}

}  // namespace
}  // namespace dtb
