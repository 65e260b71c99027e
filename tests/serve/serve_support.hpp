// Running dtb serve and the dtb program from a test: a server on a free
// port of the loopback for the test's life, an HTTP client on it, and
// dtb probe / dtb adjudicate to compare with (DTB_BINARY and
// DTB_SMALL_TABLES are set by CMake).
#pragma once

#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/scratch_dir.hpp"

namespace dtb::serve_test {

using Json = nlohmann::ordered_json;
using test_support::ScratchDir;

// `dtb serve --port 0 --json` on the small tables, stopped with SIGTERM at
// the end; stop() says how it ended.
class Server {
public:
    explicit Server(int threads = 4, const std::string& dir = DTB_SMALL_TABLES) {
        // A server that closes a connection while the test writes must fail
        // the test, not kill it with SIGPIPE.
        std::signal(SIGPIPE, SIG_IGN);
        int out[2];
        if (::pipe(out) != 0) throw std::runtime_error("pipe");
        const std::string threads_text = std::to_string(threads);
        const pid_t parent = ::getpid();
        pid_ = ::fork();
        if (pid_ < 0) throw std::runtime_error("fork");
        if (pid_ == 0) {
            // The server ends with the test, even one that crashes.
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::getppid() != parent) ::_exit(127);
            ::dup2(out[1], STDOUT_FILENO);
            ::close(out[0]);
            ::close(out[1]);
            ::execl(DTB_BINARY, DTB_BINARY, "serve", "--dir", dir.c_str(), "--port", "0", "--threads",
                    threads_text.c_str(), "--json", static_cast<char*>(nullptr));
            ::_exit(127);
        }
        ::close(out[1]);
        // The first line says where it listens.
        FILE* in = ::fdopen(out[0], "r");
        char line[1024];
        if (!std::fgets(line, sizeof line, in)) throw std::runtime_error("dtb serve printed nothing");
        std::fclose(in);
        announce_ = Json::parse(line);
        port_ = announce_["port"];
    }
    ~Server() {
        if (pid_ > 0) stop();
    }
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    int port() const { return port_; }
    pid_t pid() const { return pid_; }
    const Json& announce() const { return announce_; }
    httplib::Client client() const {
        httplib::Client c("127.0.0.1", port_);
        c.set_read_timeout(30, 0);
        return c;
    }

    // SIGTERM, then the exit status (-1: killed by a signal).
    int stop() {
        ::kill(pid_, SIGTERM);
        int raw = 0;
        ::waitpid(pid_, &raw, 0);
        pid_ = -1;
        return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    }

private:
    pid_t pid_ = -1;
    int port_ = 0;
    Json announce_;
};

// GET path: the status and the body as JSON (null if it is not JSON).
struct Got {
    int status = 0;
    std::string content_type;
    std::string body;
    Json json;
};

inline Got get(httplib::Client& client, const std::string& path) {
    Got g;
    auto res = client.Get(path);
    if (!res) {
        ADD_FAILURE() << "no answer to " << path << ": " << httplib::to_string(res.error());
        return g;
    }
    g.status = res->status;
    g.content_type = res->get_header_value("Content-Type");
    g.body = res->body;
    g.json = Json::parse(res->body, nullptr, false);
    return g;
}

// A query parameter, percent-encoded.
inline std::string encode(const std::string& s) {
    std::string out;
    const char* hex = "0123456789ABCDEF";
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            out += char(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

struct Output {
    int status = -1;
    std::string out, err;
};

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs `dtb ARGS` with `input` on standard input, after `environment`
// (shell assignments, "NAME='value' ").
inline Output dtb(const std::string& args, const std::string& input = "", const std::string& environment = "") {
    const ScratchDir io;
    std::ofstream(io.path() / "in") << input;
    const auto q = [](const std::filesystem::path& p) { return "'" + p.string() + "'"; };
    const std::string command = environment + std::string(DTB_BINARY) + " " + args + " < " + q(io.path() / "in") +
                                " > " + q(io.path() / "out") + " 2> " + q(io.path() / "err");
    const int raw = std::system(command.c_str());
    Output r;
    r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    r.out = slurp(io.path() / "out");
    r.err = slurp(io.path() / "err");
    return r;
}

}  // namespace dtb::serve_test
