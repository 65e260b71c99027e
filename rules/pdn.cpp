// PDN reading and writing (see pdn.hpp). pdn::Source (pdn_source.hpp) cuts
// the stream into stretches of whole games; the lexer (pdn_lexer.hpp) turns
// a stretch into tokens; GameReader, here, turns tokens into games, each on
// its own, the moves read by pdn_moves.hpp; the writer turns a game back
// into text.
#include "rules/pdn.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <deque>
#include <sstream>

#include "rules/movegen.hpp"
#include "rules/pdn_lexer.hpp"
#include "rules/pdn_moves.hpp"
#include "rules/pdn_source.hpp"

namespace dtb {

namespace {

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

using pdn::is_space;
using pdn::is_tag_name_char;
using pdn::kAnnotations;
using pdn::kMaxNag;
using pdn::parse_bounded;

constexpr std::array<std::string_view, 8> kResults{"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"};
constexpr std::size_t kLineWidth = 80;

bool is_result(std::string_view w) { return std::find(kResults.begin(), kResults.end(), w) != kResults.end(); }
bool is_annotation(std::string_view w) {
    return std::find(kAnnotations.begin(), kAnnotations.end(), w) != kAnnotations.end();
}

// ---------------------------------------------------------------------------
// Games

using pdn::Lexer;
using pdn::SyntaxError;
using pdn::Token;
using pdn::TokenKind;

// A game that cannot be read: what and where (thrown inside GameReader).
struct Failure {
    Failure() = default;
    Failure(std::size_t at, std::string why, std::string text = {}, int number = 0, Color by = White)
        : offset(at), reason(std::move(why)), move(std::move(text)), move_number(number), side(by) {}
    std::size_t offset = 0;
    std::string reason;
    std::string move;  // empty: not at a move
    int move_number = 0;
    Color side = White;
};

// "4-6", "2:0": a score where a result belongs.
std::optional<std::pair<int, int>> score(std::string_view w) {
    const std::size_t sep = w.find_first_of("-:");
    if (sep == std::string_view::npos) return std::nullopt;
    const auto a = parse_bounded(w.substr(0, sep), 99), b = parse_bounded(w.substr(sep + 1), 99);
    if (!a || !b) return std::nullopt;
    return std::pair{*a, *b};
}

// The result a lenient record means at the end of a game: "-" (unknown),
// "½-½", or a score; nullopt for anything else.
template <class V>
std::optional<std::string> loose_result(std::string_view w) {
    constexpr bool two_points = V::points_for_win == 2;
    if (w == "-" || w == "--") return "*";
    if (w == "\u00BD-\u00BD" || w == "1/2" || w == "\u00BD") return two_points ? "1-1" : "1/2-1/2";
    const auto s = score(w);
    if (!s) return std::nullopt;
    if (s->first == s->second) return two_points ? "1-1" : "1/2-1/2";
    if (s->first > s->second) return two_points ? "2-0" : "1-0";
    return two_points ? "0-2" : "0-1";
}

// Reads the games of one stretch of text (pdn::Source), each on its own.
template <class V>
class GameReader {
public:
    GameReader(const pdn::Stretch& stretch, int games_before)
        : lexer_(stretch.text), first_line_(stretch.first_line), games_before_(games_before) {}

    std::vector<PdnEntry<V>> read_all() {
        for (;;) {
            Token t;
            try {
                t = lexer_.next();
            } catch (const SyntaxError& e) {
                take_notes();
                if (skipping_) continue;
                // Junk between the tags of a game is skipped. Elsewhere,
                // between games (no tag or move of the next one read yet),
                // the error is reported and the next game read as usual;
                // within a game, the rest of the game goes with it.
                if (e.stray && open_ && !in_movetext_) {
                    warn(e.offset, std::string("stray ") + e.stray,
                         std::string("a stray '") + e.stray + "' between tags is skipped");
                    continue;
                }
                fail_game(Failure(e.offset, e.what), open_ || e.in_tag, true);
                continue;
            }
            take_notes();
            if (skipping_ && !skip(t)) continue;
            try {
                if (!handle(t)) return std::move(entries_);
            } catch (const Failure& f) {
                fail_game(f, open_, false);
            }
        }
    }

private:
    int number() const { return games_before_ + int(entries_.size()) + 1; }

    // What the lexer read leniently, as warnings of the game being read
    // (none while the rest of a failed game is skipped).
    void take_notes() {
        for (pdn::LexNote& n : lexer_.take_notes())
            if (!skipping_) warn(n.offset, n.key, std::move(n.what));
    }

    // A warning of the game being read; one of a kind already given (the
    // same key) is counted instead.
    void warn(std::size_t offset, const std::string& key, std::string what) {
        if (!key.empty())
            for (std::size_t i = 0; i < warnings_.size(); ++i)
                if (warning_keys_[i] == key) {
                    ++warnings_[i].count;
                    return;
                }
        warnings_.push_back(
            PdnWarning{lexer_.line_of(offset, first_line_), lexer_.column_of(offset), std::move(what), 1});
        warning_keys_.push_back(key);
    }

    // Whether the game ends after the token just read: at the end, before a
    // tag, or before an empty line. Only there is "-" or a score a result.
    bool at_game_end() const {
        const Token after = lexer_.peek();
        return after.kind == TokenKind::End || after.kind == TokenKind::Tag || after.after_blank;
    }

    // After an error, the rest of its game: up to its result, or a tag
    // that begins the next game (never a move of the same game: "1. 32-28 -
    // 2. 37-32 -" is one game). Whether `t` is still to be handled.
    bool skip(const Token& t) {
        if (t.kind == TokenKind::End) {
            skipping_ = false;
            return true;
        }
        if (t.kind == TokenKind::Tag && (skipped_movetext_ || t.after_blank)) {
            skipping_ = false;
            return true;
        }
        if (t.kind != TokenKind::Tag) skipped_movetext_ = true;
        if (t.kind == TokenKind::Word && (is_result(t.text) || (loose_result<V>(t.text) && at_game_end())))
            skipping_ = false;
        return false;
    }

    // Whether there is more to read.
    bool handle(const Token& t) {
        switch (t.kind) {
            case TokenKind::End:
                if (open_) finish("*");
                // Junk after the last game of the stretch is its game's.
                if (!entries_.empty())
                    for (PdnWarning& w : warnings_) entries_.back().warnings.push_back(std::move(w));
                return false;
            case TokenKind::Tag:
                if (open_ && (in_movetext_ || starts_next_tag_section(t))) finish("*");
                open_ = true;
                add_tag(t);
                return true;
            case TokenKind::MoveNumber:
                begin_movetext();
                move_number_ = t.number;
                return true;
            case TokenKind::Word:
                begin_movetext();
                word(t);
                return true;
            case TokenKind::Nag:
                last_ply(t).nags.push_back(t.number);
                return true;
            case TokenKind::Annotation: {
                PdnPly<V>& ply = last_ply(t);
                if (!ply.annotation.empty())
                    throw Failure{t.offset, "annotation " + quoted(t.text) + " follows annotation " +
                                                quoted(ply.annotation) + " of the same move"};
                ply.annotation = t.text;
                return true;
            }
        }
        return false;
    }

    void word(const Token& t) {
        if (is_result(t.text)) return finish(t.text);
        if (at_game_end()) {
            if (const auto r = loose_result<V>(t.text); r && !reads_as_move(t.text)) return finish(*r);
        }
        play(t);
    }

    bool reads_as_move(const std::string& text) const {
        try {
            pdn_move_candidates(position_, text);
            return true;
        } catch (const InputError&) {
            return false;
        }
    }

    // A tag already given starts the next game's tags (the last game had
    // tags and no moves) after an empty line, or when the tags begin again
    // from the first ("[Event] [White] [Event] ..."). Otherwise it is an error.
    bool starts_next_tag_section(const Token& t) const {
        if (!game_.tag(t.text)) return false;
        return t.after_blank || (game_.tags.size() >= 2 && game_.tags.front().name == t.text);
    }

    void add_tag(const Token& t) {
        if (game_.tag(t.text)) throw Failure{t.offset, "tag " + quoted(t.text) + " is given twice"};
        game_.tags.push_back(PdnTag{t.text, t.value});
        tag_offsets_.push_back(t.offset);
    }

    std::size_t tag_offset(std::string_view name) const {
        for (std::size_t i = 0; i < game_.tags.size(); ++i)
            if (game_.tags[i].name == name) return tag_offsets_[i];
        return 0;
    }

    void begin_movetext() {
        open_ = true;
        if (in_movetext_) return;
        in_movetext_ = true;
        apply_tags();
    }

    // The tags that decide how the moves read: GameType, SetUp and FEN.
    void apply_tags() {
        if (const auto type = game_.tag("GameType")) check_game_type(*type, tag_offset("GameType"));
        const auto setup = game_.tag("SetUp");
        const auto fen = game_.tag("FEN");
        if (setup && *setup != "0" && *setup != "1")
            throw Failure{tag_offset("SetUp"), "SetUp \"" + *setup + "\" must be \"0\" or \"1\""};
        if (setup && *setup == "1" && !fen)
            throw Failure{tag_offset("SetUp"), "SetUp \"1\" but no FEN tag gives the start position"};
        if (setup && *setup == "0" && fen)
            throw Failure{tag_offset("FEN"),
                          "a FEN tag, but SetUp \"0\" says the game starts from the initial position"};
        if (fen) {
            try {
                game_.start = parse_fen<V>(*fen);
            } catch (const InputError& e) {
                throw Failure{tag_offset("FEN"), std::string("FEN tag: ") + e.what()};
            }
        }
        position_ = game_.start;
    }

    // The value's first field is the game type; PDN may add more after commas
    // (start colour, board size, notation), which say nothing new for 20 and 25.
    void check_game_type(const std::string& value, std::size_t offset) {
        std::string_view field = std::string_view(value).substr(0, value.find(','));
        while (!field.empty() && is_space(field.front())) field.remove_prefix(1);
        while (!field.empty() && is_space(field.back())) field.remove_suffix(1);
        const auto type = parse_bounded(field, 999);
        if (type == V::pdn_game_type) return;
        if (const auto other = type ? variant_of_game_type(*type) : std::nullopt)
            throw Failure{offset, "GameType \"" + value + "\" is " + std::string(variant_name(*other)) +
                                      ", but the games are read as " + std::string(V::name)};
        throw Failure{offset, "GameType \"" + value + "\" is not a game dtb reads (" + game_types_text() + ")"};
    }

    Failure move_failure(const Token& t, const std::string& reason) const {
        return Failure{t.offset, reason, t.text, move_number_, position_.side_to_move};
    }

    void play(const Token& t) {
        if (!pending_.empty()) settle(t);
        if (t.text == "-" || t.text == "--")
            throw move_failure(t,
                               "the record gives no move here ('-' stands for a move not recorded), so the game "
                               "cannot be followed past it");
        std::vector<Move> candidates;
        try {
            candidates = pdn_move_candidates(position_, t.text);
        } catch (const InputError& e) {
            throw move_failure(t, e.what());
        }
        game_.plies.push_back(PdnPly<V>{candidates.front(), t.text, position_, {}, {}});
        if (candidates.size() == 1) return advance(candidates.front());
        pending_ = std::move(candidates);  // the next move decides
        pending_failure_ = move_failure(t, "");
    }

    void advance(const Move& m) {
        if (position_.side_to_move == Black) ++move_number_;
        position_ = position_.after(m);
    }

    // The capture that leaves the next move (`t`) legal, among those the
    // last move's text left open.
    void settle(const Token& t) {
        std::vector<Move> fit;
        for (const Move& m : pending_) {
            try {
                pdn_move_candidates(position_.after(m), t.text);
                fit.push_back(m);
            } catch (const InputError&) {
            }
        }
        if (fit.size() != 1) {
            Failure f = pending_failure_;
            f.reason = ambiguous_move_message(position_, f.move, pending_) + "; the next move " + quoted(t.text) +
                       (fit.empty() ? " is legal after none of them" : " is legal after more than one");
            throw f;
        }
        game_.plies.back().move = fit.front();
        pending_.clear();
        advance(fit.front());
    }

    PdnPly<V>& last_ply(const Token& t) {
        if (!open_ || game_.plies.empty())
            throw Failure{t.offset, quoted(t.text) + " annotates a move, but no move of this game comes before it"};
        return game_.plies.back();
    }

    // The game is over: an entry for it, then a fresh game.
    void finish(const std::string& result) {
        try {
            begin_movetext();
            if (!pending_.empty()) {
                Failure f = pending_failure_;
                f.reason = ambiguous_move_message(position_, f.move, pending_) + "; write the turning squares";
                throw f;
            }
            game_.result = result;
            entries_.push_back(PdnEntry<V>{number(), std::move(game_), {}, {}, std::move(warnings_)});
            reset();
        } catch (const Failure& f) {
            fail_game(f, false, false);
        }
    }

    // The game ends with an error. What was read of it is kept: its tags and
    // the moves before the one that failed (not a capture its text left open).
    void fail_game(const Failure& f, bool skip_rest, bool syntax) {
        if (!pending_.empty()) game_.plies.pop_back();
        game_.result = "*";
        PdnError e{number(),
                   lexer_.line_of(f.offset, first_line_),
                   lexer_.column_of(f.offset),
                   f.move,
                   f.move_number,
                   f.side,
                   f.reason,
                   game_.tags,
                   !syntax};
        entries_.push_back(PdnEntry<V>{number(), std::nullopt, std::move(e), std::move(game_), std::move(warnings_)});
        reset();
        skipping_ = skip_rest;
        skipped_movetext_ = false;
    }

    void reset() {
        game_ = PdnGame<V>{};
        tag_offsets_.clear();
        warnings_.clear();
        warning_keys_.clear();
        pending_.clear();
        open_ = in_movetext_ = false;
        move_number_ = 1;
        position_ = game_.start;
    }

    Lexer lexer_;
    int first_line_;
    int games_before_;
    std::vector<PdnEntry<V>> entries_;
    bool skipping_ = false;          // after an error, until its game ends
    bool skipped_movetext_ = false;  // a token other than a tag was skipped

    // The game being read.
    PdnGame<V> game_;
    std::vector<std::size_t> tag_offsets_;  // where each of game_.tags was written
    bool open_ = false;                     // a tag or a move of it has been read
    bool in_movetext_ = false;              // its tags have been applied
    Position<V> position_ = game_.start;
    int move_number_ = 1;
    std::vector<Move> pending_;  // the captures the last move's text leaves open
    Failure pending_failure_{};  // where that move was written
    std::vector<PdnWarning> warnings_;
    std::vector<std::string> warning_keys_;  // of each warning: the kind, counted as one
};

// ---------------------------------------------------------------------------
// Writing

std::string tag_line(const std::string& name, const std::string& value) {
    if (name.empty() || !std::all_of(name.begin(), name.end(), is_tag_name_char))
        throw InputError("tag name " + quoted(name) + ": PDN tag names are letters, digits and '_'");
    if (value.find('\n') != std::string::npos)
        throw InputError("tag " + quoted(name) + ": its value holds a line break, which PDN cannot write");
    std::string line = "[" + name + " \"";
    for (char c : value) {
        if (c == '"' || c == '\\') line += '\\';
        line += c;
    }
    return line + "\"]\n";
}

template <class V>
std::string write_tags(const PdnGame<V>& game) {
    // A FEN tag, or a SetUp tag that promises one, is kept; a start other
    // than the initial position needs one.
    const bool needs_fen = game.tag("FEN") || game.tag("SetUp") == "1" || !(game.start == initial_position<V>());
    std::string out;
    if (!game.tag("GameType")) out += tag_line("GameType", std::to_string(V::pdn_game_type));
    bool setup_written = false, fen_written = false;
    for (const PdnTag& t : game.tags) {
        if (t.name == "FEN") {
            out += tag_line("FEN", to_fen(game.start));
            fen_written = true;
        } else if (t.name == "SetUp" && needs_fen) {
            out += tag_line("SetUp", "1");
            setup_written = true;
        } else {
            out += tag_line(t.name, t.value);
        }
    }
    if (needs_fen && !setup_written) out += tag_line("SetUp", "1");
    if (needs_fen && !fen_written) out += tag_line("FEN", to_fen(game.start));
    return out;
}

// "{a comment}" as one token per word, so that wrap() can break it. A '}'
// inside would end it early: braces inside become parentheses.
void add_comment(std::vector<std::string>& tokens, const std::string& comment) {
    std::vector<std::string> words;
    std::string word;
    for (char c : comment + " ") {
        if (c == ' ' || c == '\n' || c == '\t') {
            if (!word.empty()) words.push_back(std::move(word));
            word.clear();
        } else {
            word += c == '}' ? ')' : c == '{' ? '(' : c;
        }
    }
    if (words.empty()) return;
    words.front() = "{" + words.front();
    words.back() += "}";
    tokens.insert(tokens.end(), words.begin(), words.end());
}

// Movetext tokens: "1. c3-d4", "d6-c5!", "$3", ..., the result. A number
// and its move stay together so that a line never ends with a bare "12.".
template <class V>
std::vector<std::string> movetext_tokens(const PdnGame<V>& game, const std::vector<std::string>& comments = {}) {
    std::vector<std::string> tokens;
    Position<V> pos = game.start;
    int number = 1;
    for (std::size_t i = 0; i < game.plies.size(); ++i) {
        const PdnPly<V>& ply = game.plies[i];
        MoveList legal;
        MoveGenerator<V>::generate(pos, legal);
        if (std::find(legal.begin(), legal.end(), ply.move) == legal.end())
            throw InputError("cannot write ply " + std::to_string(i + 1) + ": not a legal move in " + to_fen(pos));
        if (!ply.annotation.empty() && !is_annotation(ply.annotation))
            throw InputError("cannot write ply " + std::to_string(i + 1) + ": unknown annotation " +
                             quoted(ply.annotation));
        std::string token;
        if (pos.side_to_move == White)
            token = std::to_string(number) + ". ";
        else if (i == 0)
            token = std::to_string(number) + "... ";
        tokens.push_back(token + move_text(pos, ply.move) + ply.annotation);
        for (int nag : ply.nags) {
            if (nag < 0 || nag > kMaxNag)
                throw InputError("cannot write ply " + std::to_string(i + 1) + ": NAG " + std::to_string(nag) +
                                 " is out of range");
            tokens.push_back("$" + std::to_string(nag));
        }
        if (i < comments.size()) add_comment(tokens, comments[i]);
        if (pos.side_to_move == Black) ++number;
        pos = pos.after(ply.move);
    }
    const std::string result = game.result.empty() ? "*" : game.result;
    if (!is_result(result)) throw InputError("cannot write result " + quoted(result) + ": not a PDN result");
    tokens.push_back(result);
    return tokens;
}

std::string wrap(const std::vector<std::string>& tokens) {
    std::string out, line;
    for (const std::string& token : tokens) {
        if (!line.empty() && line.size() + 1 + token.size() > kLineWidth) {
            out += line + '\n';
            line.clear();
        }
        line += (line.empty() ? "" : " ") + token;
    }
    return out + line + '\n';
}

}  // namespace

std::string PdnError::message() const {
    std::string where = "line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
    if (!names_game) return where + reason;
    where += "game " + std::to_string(game);
    if (!move.empty())
        where += ", move " + std::to_string(move_number) + (side == White ? " (white) " : " (black) ") + quoted(move);
    return where + ": " + reason;
}

std::string PdnWarning::message() const {
    return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + what +
           (count > 1 ? " (" + std::to_string(count) + " times in this game)" : "");
}

template <class V>
struct PdnReader<V>::Impl {
    Impl(std::istream& in, TextEncoding encoding) : source(in, encoding) {}
    pdn::Source source;
    std::deque<PdnEntry<V>> ready;
    int games = 0;
};

template <class V>
PdnReader<V>::PdnReader(std::istream& in, PdnReadOptions options)
    : impl_(std::make_unique<Impl>(in, options.encoding)) {}

template <class V>
PdnReader<V>::~PdnReader() = default;

template <class V>
std::optional<PdnEntry<V>> PdnReader<V>::next() {
    while (impl_->ready.empty()) {
        const auto stretch = impl_->source.next();
        if (!stretch) return std::nullopt;
        for (PdnEntry<V>& e : GameReader<V>(*stretch, impl_->games).read_all()) {
            ++impl_->games;
            impl_->ready.push_back(std::move(e));
        }
    }
    PdnEntry<V> e = std::move(impl_->ready.front());
    impl_->ready.pop_front();
    return e;
}

template <class V>
TextEncoding PdnReader<V>::encoding() const {
    return impl_->source.encoding();
}

template <class V>
std::vector<PdnGame<V>> read_pdn_games(std::string_view text) {
    std::istringstream in{std::string(text)};
    PdnReader<V> reader(in);
    std::vector<PdnGame<V>> games;
    while (auto e = reader.next()) {
        if (!e->game) throw InputError(e->error.message());
        games.push_back(std::move(*e->game));
    }
    return games;
}

template <class V>
std::string write_pdn_game(const PdnGame<V>& game) {
    return write_tags(game) + "\n" + wrap(movetext_tokens(game));
}

template <class V>
std::string write_pdn_game(const PdnGame<V>& game, const std::vector<std::string>& comments) {
    return write_tags(game) + "\n" + wrap(movetext_tokens(game, comments));
}

template <class V>
std::string write_pdn_games(const std::vector<PdnGame<V>>& games) {
    std::string out;
    for (const PdnGame<V>& game : games) out += (out.empty() ? "" : "\n") + write_pdn_game(game);
    return out;
}

#define DTB_INSTANTIATE_PDN(V)                                                                  \
    template class PdnReader<V>;                                                                \
    template std::vector<PdnGame<V>> read_pdn_games<V>(std::string_view);                       \
    template std::string write_pdn_game<V>(const PdnGame<V>&);                                  \
    template std::string write_pdn_game<V>(const PdnGame<V>&, const std::vector<std::string>&); \
    template std::string write_pdn_games<V>(const std::vector<PdnGame<V>>&);

DTB_FOR_EACH_VARIANT(DTB_INSTANTIATE_PDN)

}  // namespace dtb
