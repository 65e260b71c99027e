// The PDN reader streams: dtb reading 20,000 games (a file generated here,
// over 8 MB) needs no more memory than reading one. Kept in memory, those
// games would take far more (each ply holds its position and move text).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <random>

#include "rules/movegen.hpp"
#include "rules/pdn.hpp"
#include "tests/probe/cli_support.hpp"

namespace dtb::probe_test {
namespace {

// A random legal game from the initial position, at most `plies` long.
PdnGame<Russian> random_game(std::mt19937& rng, int number, int plies) {
    PdnGame<Russian> game;
    game.tags = {{"Event", "Generated"}, {"Round", std::to_string(number)}};
    Position<Russian> pos = game.start;
    for (int i = 0; i < plies; ++i) {
        MoveList moves;
        MoveGenerator<Russian>::generate(pos, moves);
        if (moves.empty()) break;
        const Move m = moves[rng() % moves.size()];
        game.plies.push_back(PdnPly<Russian>{m, move_text(pos, m), pos, {}, {}});
        pos = pos.after(m);
    }
    return game;
}

struct ChildRun {
    int status = -1;
    long max_rss_kib = 0;
};

// `dtb args...` with standard output to `out`, and its peak memory.
ChildRun run_dtb(const std::vector<std::string>& args, const std::string& out) {
    const pid_t pid = fork();
    if (pid == 0) {
        const int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        std::vector<char*> argv{const_cast<char*>(DTB_BINARY)};
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(DTB_BINARY, argv.data());
        _exit(127);
    }
    int status = 0;
    rusage usage{};
    wait4(pid, &status, 0, &usage);
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, usage.ru_maxrss};
}

std::size_t count_lines(const std::string& path) {
    std::ifstream in(path);
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);) ++n;
    return n;
}

TEST(PdnStream, MemoryStaysFlatOver20000Games) {
    constexpr int kGames = 20000;
    const ScratchDir dir;
    const std::string one = (dir / "one.pdn").string(), many = (dir / "many.pdn").string();
    std::mt19937 rng(11);
    {
        std::ofstream small(one), big(many);
        for (int i = 1; i <= kGames; ++i) {
            const std::string text = write_pdn_game(random_game(rng, i, 80)) + "\n";
            if (i == 1) small << text;
            big << text;
        }
    }
    ASSERT_GT(std::filesystem::file_size(many), 8u << 20);

    const std::string out = (dir / "out.jsonl").string();
    const ChildRun base = run_dtb({"adjudicate", "--variant", "russian", "--json", "--pdn", one}, out);
    ASSERT_EQ(base.status, 0);
    const ChildRun all = run_dtb({"adjudicate", "--variant", "russian", "--json", "--pdn", many}, out);
    ASSERT_EQ(all.status, 0);
    EXPECT_EQ(count_lines(out), std::size_t(kGames));
    RecordProperty("max_rss_kib_one", int(base.max_rss_kib));
    RecordProperty("max_rss_kib_all", int(all.max_rss_kib));
    // The whole file's text alone is over 8 MB; its games in memory, far more.
    EXPECT_LT(all.max_rss_kib, base.max_rss_kib + 4 * 1024)
        << "one game: " << base.max_rss_kib << " KiB, " << kGames << " games: " << all.max_rss_kib << " KiB";
}

}  // namespace
}  // namespace dtb::probe_test
