// PDN reading and writing (see pdn.hpp). Three parts, each usable on its
// own: the lexer turns text into tokens and skips what carries no moves
// (comments, variations, escape lines); GameReader turns tokens into games;
// the writer turns a game back into text.
#include "rules/pdn.hpp"

#include <algorithm>
#include <array>
#include <charconv>

#include "rules/movegen.hpp"

namespace dtb {

namespace {

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_tag_name_char(char c) { return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

// Reads a run of digits as a number no larger than `max`; nullopt otherwise.
std::optional<int> parse_bounded(std::string_view digits, int max) {
    if (digits.empty() || digits.size() > 9) return std::nullopt;
    int value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc() || end != digits.data() + digits.size() || value > max) return std::nullopt;
    return value;
}

constexpr std::array<std::string_view, 8> kResults{"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"};
constexpr std::array<std::string_view, 6> kAnnotations{"!", "?", "!!", "??", "!?", "?!"};
constexpr int kMaxNag = 255;  // PGN defines glyphs 0..255
constexpr std::size_t kLineWidth = 80;

bool is_result(std::string_view w) { return std::find(kResults.begin(), kResults.end(), w) != kResults.end(); }
bool is_annotation(std::string_view w) {
    return std::find(kAnnotations.begin(), kAnnotations.end(), w) != kAnnotations.end();
}

// "line 14, column 7" of a byte offset; worked out only when an error needs it.
std::string location(std::string_view text, std::size_t offset) {
    int line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            line_start = i + 1;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(offset - line_start + 1);
}

// ---------------------------------------------------------------------------
// Lexer

enum class TokenKind { Tag, MoveNumber, Word, Nag, Annotation, End };

struct Token {
    TokenKind kind = TokenKind::End;
    std::size_t offset = 0;  // where the token starts in the text
    std::string_view text;   // as written; for a tag, its name
    std::string value;       // a tag's value, unescaped
    int number = 0;          // a move number or a NAG
};

class Lexer {
public:
    explicit Lexer(std::string_view text) : text_(text) {}

    // The next token; comments, variations, escape lines and "..." are
    // skipped on the way.
    Token next() {
        for (;;) {
            while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
            if (pos_ == text_.size()) return Token{TokenKind::End, pos_, {}, {}, 0};
            const char c = text_[pos_];
            const bool line_start = pos_ == 0 || text_[pos_ - 1] == '\n';
            if (c == '{') {
                skip_comment();
            } else if (c == ';' || (c == '%' && line_start)) {  // '%' at a line start: PGN escape line
                skip_line();
            } else if (c == '(') {
                skip_variation();
            } else if (c == '.') {
                while (pos_ < text_.size() && text_[pos_] == '.') ++pos_;  // "1. ... 18-23"
            } else if (c == '[') {
                return read_tag();
            } else if (c == '$') {
                return read_nag();
            } else if (c == '!' || c == '?') {
                return read_annotation();
            } else if (c == ')' || c == ']' || c == '}' || c == '"') {
                fail(pos_,
                     std::string("unexpected '") + c + "'" + (c == ')' ? ": no '(' opened a variation before it" : ""));
            } else {
                return read_number_or_word();
            }
        }
    }

    [[noreturn]] void fail(std::size_t offset, const std::string& what) const {
        throw InputError(location(text_, offset) + ": " + what);
    }

private:
    static bool ends_word(char c) {
        return is_space(c) || std::string_view("{}()[];$!?\".").find(c) != std::string_view::npos;
    }

    void skip_line() {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
    }

    void skip_comment() {
        const std::size_t close = text_.find('}', pos_ + 1);
        if (close == std::string_view::npos) fail(pos_, "unterminated comment: no '}' closes this '{'");
        pos_ = close + 1;
    }

    // Variations nest and may hold comments, whose brackets do not count.
    void skip_variation() {
        const std::size_t start = pos_;
        int depth = 0;
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (c == '{') {
                skip_comment();
            } else if (c == ';') {
                skip_line();
            } else {
                ++pos_;
                if (c == '(') ++depth;
                if (c == ')' && --depth == 0) return;
            }
        }
        fail(start, "unterminated variation: no ')' closes this '('");
    }

    Token read_tag() {
        const std::size_t start = pos_++;
        while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
        const std::size_t name_start = pos_;
        while (pos_ < text_.size() && is_tag_name_char(text_[pos_])) ++pos_;
        const std::string_view name = text_.substr(name_start, pos_ - name_start);
        if (name.empty()) fail(pos_, "expected a tag name (letters, digits, '_') after '['");
        while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
        if (pos_ == text_.size() || text_[pos_] != '"')
            fail(pos_, "expected the value of tag " + quoted(name) + " in double quotes");
        const std::size_t quote = pos_++;
        std::string value;
        for (;;) {
            if (pos_ == text_.size() || text_[pos_] == '\n')
                fail(quote, "the value of tag " + quoted(name) + " has no closing '\"' on its line");
            const char c = text_[pos_++];
            if (c == '"') break;
            if (c == '\\' && pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\\')) {
                value += text_[pos_++];
                continue;
            }
            value += c;
        }
        while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
        if (pos_ == text_.size() || text_[pos_] != ']') fail(pos_, "expected ']' to close tag " + quoted(name));
        ++pos_;
        return Token{TokenKind::Tag, start, name, std::move(value), 0};
    }

    Token read_nag() {
        const std::size_t start = pos_++;
        while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
        const std::string_view digits = text_.substr(start + 1, pos_ - start - 1);
        if (digits.empty()) fail(start, "expected a number after '$' (a NAG, like $3)");
        const auto n = parse_bounded(digits, kMaxNag);
        if (!n) fail(start, "NAG $" + std::string(digits) + " is out of range (0 to " + std::to_string(kMaxNag) + ")");
        return Token{TokenKind::Nag, start, text_.substr(start, pos_ - start), {}, *n};
    }

    Token read_annotation() {
        const std::size_t start = pos_;
        while (pos_ < text_.size() && (text_[pos_] == '!' || text_[pos_] == '?')) ++pos_;
        const std::string_view mark = text_.substr(start, pos_ - start);
        if (!is_annotation(mark)) fail(start, "unknown move annotation " + quoted(mark) + "; PDN has ! ? !! ?? !? ?!");
        return Token{TokenKind::Annotation, start, mark, {}, 0};
    }

    // "12." is a move number; anything else up to a delimiter is a word (a
    // move or a result), checked by whoever reads it.
    Token read_number_or_word() {
        const std::size_t start = pos_;
        while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
        if (pos_ > start && pos_ < text_.size() && text_[pos_] == '.') {
            const std::string_view digits = text_.substr(start, pos_ - start);
            const auto n = parse_bounded(digits, 99999);
            if (!n) fail(start, "move number " + std::string(digits) + " is too large");
            while (pos_ < text_.size() && text_[pos_] == '.') ++pos_;
            return Token{TokenKind::MoveNumber, start, text_.substr(start, pos_ - start), {}, *n};
        }
        while (pos_ < text_.size() && !ends_word(text_[pos_])) ++pos_;
        return Token{TokenKind::Word, start, text_.substr(start, pos_ - start), {}, 0};
    }

    std::string_view text_;
    std::size_t pos_ = 0;
};

// ---------------------------------------------------------------------------
// Moves as game records write them

template <class V>
std::string list_moves(const Position<V>& pos, const std::vector<Move>& moves) {
    std::string listed;
    for (const Move& m : moves) listed += (listed.empty() ? "" : ", ") + move_text(pos, m);
    return listed.empty() ? "none" : listed;
}

// Rule 2.1.6.2: "ed4" is the plain move from file e to d4, "b:d6" the
// capture from file b to d6. Only the algebraic notation has these.
struct ShortMove {
    int file;
    bool capture;
    std::string_view to;
};

template <class V>
std::optional<ShortMove> short_form(std::string_view w) {
    if constexpr (!V::algebraic_notation) {
        return std::nullopt;
    } else {
        const auto is_file = [](char c) { return c >= 'a' && c < 'a' + V::Board::width; };
        if (w.size() == 3 && is_file(w[0]) && is_file(w[1]) && is_digit(w[2]))
            return ShortMove{w[0] - 'a', false, w.substr(1)};
        if (w.size() == 4 && is_file(w[0]) && (w[1] == ':' || w[1] == 'x') && is_file(w[2]) && is_digit(w[3]))
            return ShortMove{w[0] - 'a', true, w.substr(2)};
        return std::nullopt;
    }
}

template <class V>
Move read_short_move(const Position<V>& pos, std::string_view text, const ShortMove& s) {
    using Board = typename V::Board;
    const auto to = parse_square<V>(s.to);
    if (!to)
        throw InputError("bad move " + quoted(text) + ": " + quoted(s.to) + " is not a square of the " +
                         std::string(V::name) + " board");
    MoveList moves;
    MoveGenerator<V>::generate(pos, moves);
    std::vector<Move> matches;
    for (const Move& m : moves)
        if (Board::file_of(Board::square_of(BitIndex{m.from})) == s.file && BitIndex{m.to} == *to &&
            m.is_capture() == s.capture)
            matches.push_back(m);
    if (matches.size() == 1) return matches.front();
    const std::string kind = s.capture ? "capture" : "plain move";
    if (matches.empty())
        throw InputError("no legal " + kind + " from file " + std::string(1, char('a' + s.file)) + " to " +
                         std::string(s.to) + " in " + to_fen(pos) +
                         "; legal moves: " + list_moves(pos, std::vector<Move>(moves.begin(), moves.end())));
    throw InputError("shortened " + kind + " " + quoted(text) + " is ambiguous in " + to_fen(pos) + ": it could be " +
                     list_moves(pos, matches) + "; write it in full");
}

template <class V>
Move read_move(const Position<V>& pos, std::string_view text) {
    if (const auto s = short_form<V>(text)) return read_short_move(pos, text, *s);
    return parse_move(pos, text);
}

// ---------------------------------------------------------------------------
// Games

template <class V>
class GameReader {
public:
    explicit GameReader(std::string_view text) : lexer_(text) {}

    std::vector<PdnGame<V>> read_all() {
        for (;;) {
            const Token t = lexer_.next();
            switch (t.kind) {
                case TokenKind::End:
                    if (open_) close_game("*");
                    return std::move(games_);
                case TokenKind::Tag:
                    // Tags after moves start the next game: the last one had no result.
                    if (open_ && in_movetext_) close_game("*");
                    open_ = true;
                    add_tag(t);
                    break;
                case TokenKind::MoveNumber:
                    begin_movetext();
                    move_number_ = t.number;
                    break;
                case TokenKind::Word:
                    begin_movetext();
                    if (is_result(t.text))
                        close_game(std::string(t.text));
                    else
                        play(t);
                    break;
                case TokenKind::Nag:
                    last_ply(t).nags.push_back(t.number);
                    break;
                case TokenKind::Annotation: {
                    PdnPly<V>& ply = last_ply(t);
                    if (!ply.annotation.empty())
                        fail(t.offset, "annotation " + quoted(t.text) + " follows annotation " +
                                           quoted(ply.annotation) + " of the same move");
                    ply.annotation = std::string(t.text);
                    break;
                }
            }
        }
    }

private:
    [[noreturn]] void fail(std::size_t offset, const std::string& what) const { lexer_.fail(offset, what); }

    std::string game_label() const { return "game " + std::to_string(games_.size() + 1); }

    void add_tag(const Token& t) {
        if (game_.tag(t.text)) fail(t.offset, game_label() + ": tag " + quoted(t.text) + " is given twice");
        game_.tags.push_back(PdnTag{std::string(t.text), t.value});
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
        apply_tags();
        in_movetext_ = true;
    }

    // The tags that decide how the moves read: GameType, SetUp and FEN.
    void apply_tags() {
        if (const auto type = game_.tag("GameType")) check_game_type(*type, tag_offset("GameType"));
        const auto setup = game_.tag("SetUp");
        const auto fen = game_.tag("FEN");
        if (setup && *setup != "0" && *setup != "1")
            fail(tag_offset("SetUp"), game_label() + ": SetUp \"" + *setup + "\" must be \"0\" or \"1\"");
        if (setup && *setup == "1" && !fen)
            fail(tag_offset("SetUp"), game_label() + ": SetUp \"1\" but no FEN tag gives the start position");
        if (setup && *setup == "0" && fen)
            fail(tag_offset("FEN"),
                 game_label() + ": a FEN tag, but SetUp \"0\" says the game starts from the initial position");
        if (fen) {
            try {
                game_.start = parse_fen<V>(*fen);
            } catch (const InputError& e) {
                fail(tag_offset("FEN"), game_label() + ": FEN tag: " + e.what());
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
        const auto other = type == Russian::pdn_game_type         ? std::optional(Russian::name)
                           : type == International::pdn_game_type ? std::optional(International::name)
                                                                  : std::nullopt;
        if (other)
            fail(offset, game_label() + ": GameType \"" + value + "\" is " + std::string(*other) +
                             ", but the games are read as " + std::string(V::name));
        fail(offset, game_label() + ": GameType \"" + value + "\" is not a game dtb reads (" +
                         std::to_string(Russian::pdn_game_type) + " russian, " +
                         std::to_string(International::pdn_game_type) + " international)");
    }

    void play(const Token& t) {
        const bool white = position_.side_to_move == White;
        const Move m = [&] {
            try {
                return read_move(position_, t.text);
            } catch (const InputError& e) {
                fail(t.offset, game_label() + ", move " + std::to_string(move_number_) +
                                   (white ? " (white) " : " (black) ") + quoted(t.text) + ": " + e.what());
            }
        }();
        game_.plies.push_back(PdnPly<V>{m, std::string(t.text), position_, {}, {}});
        position_ = position_.after(m);
        if (!white) ++move_number_;
    }

    PdnPly<V>& last_ply(const Token& t) {
        if (!open_ || game_.plies.empty())
            fail(t.offset, quoted(t.text) + " annotates a move, but no move of this game comes before it");
        return game_.plies.back();
    }

    void close_game(std::string result) {
        begin_movetext();
        game_.result = std::move(result);
        games_.push_back(std::move(game_));
        game_ = PdnGame<V>{};
        tag_offsets_.clear();
        open_ = in_movetext_ = false;
        move_number_ = 1;
    }

    Lexer lexer_;
    std::vector<PdnGame<V>> games_;

    // The game being read.
    PdnGame<V> game_;
    std::vector<std::size_t> tag_offsets_;  // where each of game_.tags was written
    bool open_ = false;                     // a tag or a move of it has been read
    bool in_movetext_ = false;              // its tags have been applied
    Position<V> position_;
    int move_number_ = 1;
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

// Movetext tokens: "1. c3-d4", "d6-c5!", "$3", ..., the result. A number
// and its move stay together so that a line never ends with a bare "12.".
template <class V>
std::vector<std::string> movetext_tokens(const PdnGame<V>& game) {
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

template <class V>
std::vector<PdnGame<V>> read_pdn_games(std::string_view text) {
    return GameReader<V>(text).read_all();
}

template <class V>
std::string write_pdn_game(const PdnGame<V>& game) {
    return write_tags(game) + "\n" + wrap(movetext_tokens(game));
}

template <class V>
std::string write_pdn_games(const std::vector<PdnGame<V>>& games) {
    std::string out;
    for (const PdnGame<V>& game : games) out += (out.empty() ? "" : "\n") + write_pdn_game(game);
    return out;
}

#define DTB_INSTANTIATE_PDN(V)                                            \
    template std::vector<PdnGame<V>> read_pdn_games<V>(std::string_view); \
    template std::string write_pdn_game<V>(const PdnGame<V>&);            \
    template std::string write_pdn_games<V>(const std::vector<PdnGame<V>>&);

DTB_INSTANTIATE_PDN(Russian)
DTB_INSTANTIATE_PDN(International)

}  // namespace dtb
