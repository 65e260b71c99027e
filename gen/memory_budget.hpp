// How the generator shares the memory it is allowed (dtb gen --memory)
// between its parts: the slices being solved, each thread's window on the
// smaller tables, and a reserve for everything else (code, buffers of the
// file writer, the allocator's slack).
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>

namespace dtb {

inline std::string format_bytes(std::uint64_t bytes) {
    std::ostringstream out;
    out.precision(bytes >= (std::uint64_t{10} << 30) ? 0 : 1);
    out << std::fixed;
    if (bytes >= std::uint64_t{1} << 30)
        out << double(bytes) / double(std::uint64_t{1} << 30) << " GiB";
    else
        out << double(bytes) / double(std::uint64_t{1} << 20) << " MiB";
    return out.str();
}

// "2G", "1.5G", "512M", "700000K", a plain number of bytes; binary units
// (G = 2^30). nullopt when the text is not such a size.
inline std::optional<std::uint64_t> parse_memory_size(const std::string& text) {
    std::size_t used = 0;
    double number = 0;
    try {
        number = std::stod(text, &used);
    } catch (...) {
        return std::nullopt;
    }
    std::string unit = text.substr(used);
    if (!unit.empty() && (unit.back() == 'B' || unit.back() == 'b')) unit.pop_back();
    if (unit.size() == 2 && (unit[1] == 'i' || unit[1] == 'I')) unit.pop_back();
    double scale = 1;
    if (unit == "K" || unit == "k")
        scale = 1 << 10;
    else if (unit == "M" || unit == "m")
        scale = 1 << 20;
    else if (unit == "G" || unit == "g")
        scale = double(1 << 30);
    else if (unit == "T" || unit == "t")
        scale = double(std::uint64_t{1} << 40);
    else if (!unit.empty())
        return std::nullopt;
    if (!(number > 0) || !std::isfinite(number)) return std::nullopt;
    return std::uint64_t(number * scale);
}

// Three quarters of the machine's physical memory: what dtb gen takes when
// not told, leaving room for the page cache that its files go through.
inline std::uint64_t default_memory_bytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page <= 0) return std::uint64_t{2} << 30;
    return std::uint64_t(pages) * std::uint64_t(page) / 4 * 3;
}

// The process's resident memory now, bytes (0 where /proc cannot say).
inline std::uint64_t resident_bytes() {
    std::FILE* f = std::fopen("/proc/self/statm", "r");
    if (!f) return 0;
    unsigned long long size = 0, resident = 0;
    const int read = std::fscanf(f, "%llu %llu", &size, &resident);
    std::fclose(f);
    const long page = ::sysconf(_SC_PAGE_SIZE);
    return read == 2 && page > 0 ? std::uint64_t(resident) * std::uint64_t(page) : 0;
}

class MemoryBudget {
public:
    explicit MemoryBudget(std::uint64_t total = default_memory_bytes()) : total_(total) {}

    // The share of a pair built side by side with others, when the memory
    // is cut into `ways` equal parts (one per thread) and the pair takes
    // `parts` of them (one per thread it runs on): that part of the windows
    // and of the solving memory (the reserve is the process's, held once).
    MemoryBudget shared(int ways, int parts = 1) const {
        MemoryBudget b = *this;
        b.ways_ = std::uint64_t(std::max(1, ways));
        b.parts_ = std::min(b.ways_, std::uint64_t(std::max(1, parts)));
        return b;
    }

    std::uint64_t total() const { return total_; }
    // Held back for the process itself and the file writer's buffers.
    std::uint64_t reserve() const { return std::min<std::uint64_t>(total_ / 8, std::uint64_t{192} << 20) + (64 << 20); }
    // The windows of all threads together on the smaller tables.
    std::uint64_t windows() const { return all_windows() / ways_ * parts_; }
    std::size_t window_bytes(int threads) const { return std::size_t(windows() / std::uint64_t(std::max(1, threads))); }
    // A thread's window when the pair's slices need only `solving_need` of
    // the solving memory: the rest goes to the windows too. A pair of kings
    // only, one slice whose captures and crownings land all over its
    // smaller tables, then decompresses each block about once instead of
    // again and again (Russian KKKKvKKK: 133 CPU-seconds against 177 with
    // the windows of an eighth of the limit).
    // At most 4 GiB a thread: a window allocates its slots whole (a few
    // dozen bytes each, one per 16 KiB), which on a machine of a terabyte
    // would otherwise be a gigabyte a thread before any block is read.
    std::size_t window_bytes(int threads, std::uint64_t solving_need) const {
        const std::uint64_t spare = solving_bytes() > solving_need ? solving_bytes() - solving_need : 0;
        const std::uint64_t most = std::uint64_t{4} << 30;
        return std::size_t(std::min(most, (windows() + spare) / std::uint64_t(std::max(1, threads))));
    }
    // What the slices being solved may take.
    std::uint64_t solving_bytes() const {
        return (total_ > reserve() + all_windows() ? total_ - reserve() - all_windows() : 0) / ways_ * parts_;
    }

    std::string describe() const {
        std::string text = "the memory limit is " + format_bytes(total_) + ", of which " +
                           format_bytes(solving_bytes()) + " for solving";
        if (ways_ > 1)
            text += " this pair (" + std::to_string(parts_) + " of " + std::to_string(ways_) +
                    " shares, beside other pairs)";
        return text;
    }

private:
    std::uint64_t all_windows() const { return std::min<std::uint64_t>(total_ / 8, std::uint64_t{1} << 30); }

    std::uint64_t total_;
    std::uint64_t ways_ = 1;
    std::uint64_t parts_ = 1;
};

}  // namespace dtb
