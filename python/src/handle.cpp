#include "python/src/handle.hpp"

#include <algorithm>
#include <mutex>
#include <stdexcept>

#include "python/src/errors.hpp"
#include "python/src/position.hpp"

namespace dtb::python {

namespace {

// Sort key of a move's value, best first: wins by fewest plies, draws,
// losses by most plies.
std::pair<int, int> rank(const dtb_value& v) {
    if (v.wdl == DTB_WIN) return {0, v.dtw};
    if (v.wdl == DTB_DRAW) return {1, 0};
    return {2, -v.dtw};
}

std::string verdict_text(const dtb_adjudication& a) {
    std::size_t needed = 0;
    if (dtb_adjudication_verdict(&a, nullptr, 0, &needed) != DTB_BUFFER_TOO_SMALL)
        throw StatusError(DTB_INTERNAL_ERROR, "dtb_adjudication_verdict refused an adjudication of dtb_adjudicate");
    std::string text(needed, '\0');
    dtb_adjudication_verdict(&a, text.data(), text.size(), nullptr);
    text.resize(needed - 1);
    return text;
}

// Whether the handle has a table of any variant (dtb_max_pieces counts the
// WDL tables, which every probe reads).
bool holds_tables(const dtb_tablebase* tb) {
    for (int v = 0; v < DTB_VARIANT_COUNT; ++v)
        if (dtb_max_pieces(tb, v) > 0) return true;
    return false;
}

std::string no_tables_message(const std::vector<std::string>& dirs) {
    std::string where;
    for (std::size_t i = 0; i < dirs.size(); ++i)
        where += (i == 0 ? "'" : i + 1 == dirs.size() ? " or '" : ", '") + dirs[i] + "'";
    return "no tables in " + where + ": no file such as russian-KKvK.wdl, which dtb gen writes";
}

}  // namespace

Handle::Handle(const std::vector<std::string>& dirs, std::size_t cache_bytes) {
    std::vector<const char*> paths;
    for (const std::string& d : dirs) paths.push_back(d.c_str());
    const dtb_options options{cache_bytes};
    char err[1024];
    const int status = dtb_open(paths.data(), paths.size(), &options, &tb_, err, sizeof err);
    if (status != DTB_OK) throw StatusError(status, err);
    if (!holds_tables(tb_)) {
        dtb_close(tb_);
        tb_ = nullptr;
        throw StatusError(DTB_MISSING_TABLE, no_tables_message(dirs));
    }
}

void Handle::close() {
    std::unique_lock lock(mutex_);
    dtb_close(tb_);
    tb_ = nullptr;
}

bool Handle::closed() const {
    std::shared_lock lock(mutex_);
    return tb_ == nullptr;
}

template <class F>
auto Handle::with_handle(F&& f) const {
    std::shared_lock lock(mutex_);
    if (tb_ == nullptr) throw std::invalid_argument("the tablebase is closed");
    return f(tb_);
}

void Handle::fail(int status) const { throw StatusError(status, dtb_error_message(tb_)); }

int Handle::max_pieces(int variant) const {
    return with_handle([&](dtb_tablebase* tb) { return dtb_max_pieces(tb, variant); });
}

dtb_value Handle::probe_wdl(const dtb_position& pos) const {
    return with_handle([&](dtb_tablebase* tb) {
        dtb_value v;
        if (const int s = dtb_probe_wdl(tb, &pos, &v); s != DTB_OK) fail(s);
        return v;
    });
}

dtb_value Handle::probe_dtw(const dtb_position& pos) const {
    return with_handle([&](dtb_tablebase* tb) {
        dtb_value v;
        if (const int s = dtb_probe_dtw(tb, &pos, &v); s != DTB_OK) fail(s);
        return v;
    });
}

std::optional<std::string> Handle::best_move(const dtb_position& pos) const {
    return with_handle([&](dtb_tablebase* tb) -> std::optional<std::string> {
        dtb_move m;
        const int s = dtb_best_move(tb, &pos, &m, nullptr);
        if (s == DTB_NO_MOVE) return std::nullopt;
        if (s != DTB_OK) fail(s);
        return std::string(m.text);
    });
}

std::vector<std::string> Handle::line(const dtb_position& pos) const {
    return with_handle([&](dtb_tablebase* tb) {
        dtb_value v;
        if (const int s = dtb_probe_dtw(tb, &pos, &v); s != DTB_OK) fail(s);
        std::vector<dtb_move> moves(static_cast<std::size_t>(std::max(v.dtw, 0)));
        std::size_t length = 0;
        if (const int s = dtb_principal_variation(tb, &pos, moves.data(), moves.size(), &length, nullptr); s != DTB_OK)
            fail(s);
        std::vector<std::string> texts;
        for (std::size_t i = 0; i < length; ++i) texts.emplace_back(moves[i].text);
        return texts;
    });
}

std::vector<std::string> Handle::rule_line(const dtb_position& pos, int moves_played, int king_moves_played,
                                           int conversion_moves_played) const {
    return with_handle([&](dtb_tablebase* tb) {
        std::vector<dtb_move> moves(64);
        std::size_t length = 0;
        const auto ask = [&] {
            return dtb_rule_line(tb, &pos, moves_played, king_moves_played, conversion_moves_played, moves.data(),
                                 moves.size(), &length);
        };
        int s = ask();
        if (s == DTB_BUFFER_TOO_SMALL) {
            moves.resize(length);
            s = ask();
        }
        if (s != DTB_OK) fail(s);
        std::vector<std::string> texts;
        for (std::size_t i = 0; i < length; ++i) texts.emplace_back(moves[i].text);
        return texts;
    });
}

std::vector<RuleMove> Handle::rule_moves(const dtb_position& pos, int moves_played, int king_moves_played,
                                         int conversion_moves_played) const {
    return with_handle([&](dtb_tablebase* tb) {
        std::vector<dtb_rule_move> root(64);
        std::size_t count = 0;
        const auto ask = [&] {
            return dtb_rule_root(tb, &pos, moves_played, 2 * king_moves_played, 2 * conversion_moves_played,
                                 root.data(), root.size(), &count);
        };
        int s = ask();
        if (s == DTB_BUFFER_TOO_SMALL) {
            root.resize(count);
            s = ask();
        }
        if (s != DTB_OK) fail(s);
        std::vector<RuleMove> moves;
        for (std::size_t i = 0; i < count; ++i)
            moves.push_back(RuleMove{root[i].move.text, root[i].rule_wdl, root[i].dtc});
        // Wins nearest the conversion first, then draws, then losses furthest from it.
        const auto key = [](const RuleMove& m) {
            return m.rule_wdl > 0 ? m.dtc : m.rule_wdl == 0 ? 1 << 20 : (2 << 20) - m.dtc;
        };
        std::stable_sort(moves.begin(), moves.end(),
                         [&](const RuleMove& a, const RuleMove& b) { return key(a) < key(b); });
        return moves;
    });
}

std::vector<RootMove> Handle::moves(const dtb_position& pos) const {
    return with_handle([&](dtb_tablebase* tb) {
        std::vector<dtb_root_move> root(64);
        std::size_t count = 0;
        int s = dtb_probe_root(tb, &pos, root.data(), root.size(), &count);
        if (s == DTB_BUFFER_TOO_SMALL) {
            root.resize(count);
            s = dtb_probe_root(tb, &pos, root.data(), root.size(), &count);
        }
        if (s != DTB_OK) fail(s);
        std::vector<RootMove> moves;
        for (std::size_t i = 0; i < count; ++i) moves.push_back(RootMove{root[i].move.text, root[i].value});
        std::stable_sort(moves.begin(), moves.end(),
                         [](const RootMove& a, const RootMove& b) { return rank(a.value) < rank(b.value); });
        return moves;
    });
}

std::pair<int, int> Handle::probe_dtc(const dtb_position& pos) const {
    return with_handle([&](dtb_tablebase* tb) {
        int wdl = 0, dtc = -1;
        if (const int s = dtb_probe_dtc(tb, &pos, &wdl, &dtc); s != DTB_OK) fail(s);
        return std::pair<int, int>{wdl, dtc};
    });
}

Adjudicated Handle::adjudicate(const dtb_position& pos, int moves_played, int king_moves_played,
                               int conversion_moves_played) const {
    return with_handle([&](dtb_tablebase* tb) {
        Adjudicated out;
        const int s = dtb_adjudicate_counts(tb, &pos, moves_played, king_moves_played, conversion_moves_played, &out.a);
        if (s != DTB_OK) fail(s);
        out.verdict = verdict_text(out.a);
        out.fen = fen_of(pos);
        return out;
    });
}

}  // namespace dtb::python
