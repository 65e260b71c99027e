// The load generator of scripts/bench-serve.sh (a benchmark, not a test):
// many concurrent clients on the loopback asking a running dtb serve for
// positions, each client one thread with its own connection, as fast as
// the answers come. Prints one JSON line: requests, errors, requests per
// second and latency percentiles.
//
//   serve_bench --port P [--clients 64] [--seconds 10] [--endpoint position|line|adjudicate]
//               [--no-keep-alive] [--slow N] [--seed 1]
//
// --slow N adds N hostile clients beside the timed ones: each sends a
// request's head a byte a second and never ends it, on a new connection
// whenever the server cuts one off; what is measured is how the others
// fare meanwhile.
//
// The positions are random placements of 2 to 4 pieces (Russian) and 2 to
// 3 (international), the sizes of the small test tables; those the server
// refuses (a man on its crowning row, a missing table) are dropped before
// the clock starts, so that every timed request gets a value.
#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Options {
    int port = 0;
    int clients = 64;
    double seconds = 10;
    std::string endpoint = "position";
    bool keep_alive = true;
    int slow = 0;
    unsigned seed = 1;
};

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "serve_bench: %s needs a value\n", a.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (a == "--port")
            o.port = std::stoi(next());
        else if (a == "--clients")
            o.clients = std::stoi(next());
        else if (a == "--seconds")
            o.seconds = std::stod(next());
        else if (a == "--endpoint")
            o.endpoint = next();
        else if (a == "--no-keep-alive")
            o.keep_alive = false;
        else if (a == "--slow")
            o.slow = std::stoi(next());
        else if (a == "--seed")
            o.seed = unsigned(std::stoul(next()));
        else {
            std::fprintf(stderr, "serve_bench: unknown option %s (see the comment at the top of bench_client.cpp)\n",
                         a.c_str());
            std::exit(2);
        }
    }
    if (o.port <= 0 || o.clients <= 0 || o.seconds <= 0 || o.slow < 0) {
        std::fprintf(stderr,
                     "serve_bench: --port is required; --clients and --seconds are positive, --slow is not negative\n");
        std::exit(2);
    }
    return o;
}

std::string encode(const std::string& s) {
    std::string out;
    for (unsigned char c : s) {
        if (std::isalnum(c) || c == '-') {
            out += char(c);
        } else {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", c);
            out += buf;
        }
    }
    return out;
}

std::string random_fen(std::mt19937& rng, int squares, int max_pieces) {
    const int pieces = 2 + int(rng() % unsigned(max_pieces - 1));
    std::vector<int> all(squares);
    for (int i = 0; i < squares; ++i) all[i] = i + 1;
    std::shuffle(all.begin(), all.end(), rng);
    std::string white, black;
    for (int i = 0; i < pieces; ++i) {
        std::string& list = i == 0 || (i > 1 && rng() % 2) ? white : black;
        list += (list.empty() ? "" : ",") + std::string(rng() % 3 == 0 ? "K" : "") + std::to_string(all[i]);
    }
    return std::string(rng() % 2 ? "W" : "B") + ":W" + white + ":B" + black;
}

// Request paths the server answers with 200.
std::vector<std::string> make_paths(const Options& o) {
    std::mt19937 rng(o.seed);
    httplib::Client client("127.0.0.1", o.port);
    std::vector<std::string> paths;
    const std::string suffix = o.endpoint == "position" ? "" : "/" + o.endpoint;
    while (paths.size() < 2000) {
        const bool russian = rng() % 2;
        const std::string fen = russian ? random_fen(rng, 32, 4) : random_fen(rng, 50, 3);
        std::string path =
            std::string("/api/v1/") + (russian ? "russian" : "international") + suffix + "?fen=" + encode(fen);
        if (o.endpoint == "adjudicate") path += "&moves_played=" + std::to_string(rng() % 20);
        const auto res = client.Get(path);
        if (!res) {
            std::fprintf(stderr, "serve_bench: no answer from 127.0.0.1:%d\n", o.port);
            std::exit(1);
        }
        if (res->status == 200) paths.push_back(path);
    }
    return paths;
}

// A client that trickles a request's head, a byte a second, until `stop`;
// when the server closes its connection it opens another.
void trickle(int port, const std::atomic<bool>& stop) {
    int fd = -1;
    while (!stop) {
        if (fd < 0) {
            fd = ::socket(AF_INET, SOCK_STREAM, 0);
            sockaddr_in addr{};
            addr.sin_family = AF_INET;
            addr.sin_port = htons(std::uint16_t(port));
            addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
            const std::string start = "GET /api/v1/russian?fen=W:WKa1:BKh8 HTTP/1.1\r\nHost: x\r\nX-Slow: ";
            if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
                ::send(fd, start.data(), start.size(), MSG_NOSIGNAL) < 0) {
                ::close(fd);
                fd = -1;
            }
        } else if (::send(fd, "a", 1, MSG_NOSIGNAL) < 0) {
            ::close(fd);
            fd = -1;
            continue;
        }
        for (int i = 0; i < 10 && !stop; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (fd >= 0) ::close(fd);
}

double percentile(const std::vector<double>& sorted, double p) {
    if (sorted.empty()) return 0;
    const std::size_t i = std::min(sorted.size() - 1, std::size_t(p / 100.0 * double(sorted.size())));
    return sorted[i];
}

}  // namespace

int main(int argc, char** argv) {
    const Options o = parse(argc, argv);
    const std::vector<std::string> paths = make_paths(o);
    std::atomic<bool> start = false, stop = false;
    std::vector<std::vector<double>> latencies(std::size_t(o.clients));
    std::vector<long> errors(std::size_t(o.clients), 0);
    std::vector<std::thread> threads;
    std::atomic<bool> slow_stop = false;
    std::vector<std::thread> slow;
    for (int i = 0; i < o.slow; ++i) slow.emplace_back([&] { trickle(o.port, slow_stop); });
    // The slow clients have connected and begun before the clock starts.
    if (o.slow > 0) std::this_thread::sleep_for(std::chrono::seconds(2));
    for (int c = 0; c < o.clients; ++c)
        threads.emplace_back([&, c] {
            httplib::Client client("127.0.0.1", o.port);
            client.set_keep_alive(o.keep_alive);
            client.set_tcp_nodelay(true);
            client.set_read_timeout(60, 0);
            client.set_connection_timeout(60, 0);
            std::size_t k = std::size_t(c) * 7919 % paths.size();
            while (!start) std::this_thread::yield();
            while (!stop) {
                const auto t0 = std::chrono::steady_clock::now();
                const auto res = client.Get(paths[k]);
                const auto t1 = std::chrono::steady_clock::now();
                if (!res || res->status != 200)
                    ++errors[std::size_t(c)];
                else
                    latencies[std::size_t(c)].push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
                k = (k + 1) % paths.size();
            }
        });
    const auto t0 = std::chrono::steady_clock::now();
    start = true;
    std::this_thread::sleep_for(std::chrono::duration<double>(o.seconds));
    stop = true;
    for (std::thread& t : threads) t.join();
    slow_stop = true;
    for (std::thread& t : slow) t.join();
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::vector<double> all;
    long failed = 0;
    for (int c = 0; c < o.clients; ++c) {
        all.insert(all.end(), latencies[std::size_t(c)].begin(), latencies[std::size_t(c)].end());
        failed += errors[std::size_t(c)];
    }
    std::sort(all.begin(), all.end());
    const nlohmann::ordered_json j{{"endpoint", o.endpoint},
                                   {"clients", o.clients},
                                   {"slow_clients", o.slow},
                                   {"keep_alive", o.keep_alive},
                                   {"seconds", elapsed},
                                   {"requests", all.size()},
                                   {"errors", failed},
                                   {"requests_per_second", double(all.size()) / elapsed},
                                   {"latency_ms",
                                    {{"p50", percentile(all, 50)},
                                     {"p90", percentile(all, 90)},
                                     {"p99", percentile(all, 99)},
                                     {"max", all.empty() ? 0.0 : all.back()}}}};
    std::printf("%s\n", j.dump().c_str());
    return failed == 0 ? 0 : 1;
}
