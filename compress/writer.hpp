// Writes a table file (docs/FORMAT.md) from the generator's array of values.
// Unlike the reader, the writer throws: it runs inside the generator, where
// a failed write ends the run anyway.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <stdexcept>
#include <vector>

#include "compress/atomic_file.hpp"  // WriteError
#include "compress/format.hpp"

namespace dtb::compress {

// Which positions are "don't care": the probe never takes their value from
// the table, so the writer may store whatever compresses best there. It is
// called from several threads at once, and must not throw.
class DontCare {
public:
    DontCare() = default;  // every position matters
    // Bit i % 64 of bits[i / 64] set: position i is don't care.
    static DontCare bitmap(std::span<const std::uint64_t> bits);
    // flags[i] != 0: position i is don't care (one byte per position).
    static DontCare bytes(std::span<const std::uint8_t> flags);
    static DontCare predicate(std::function<bool(std::uint64_t)> is_dont_care);

    // Whether every position matters.
    bool none() const { return kind_ == Kind::none; }

    // Whether a bitmap or byte array has an entry for each of `positions`.
    bool covers(std::uint64_t positions) const {
        switch (kind_) {
            case Kind::bitmap:
                return bits_.size() >= (positions + 63) / 64;
            case Kind::bytes:
                return bytes_.size() >= positions;
            default:
                return true;
        }
    }

    bool operator()(std::uint64_t index) const {
        switch (kind_) {
            case Kind::bitmap:
                return (bits_[index / 64] >> (index % 64)) & 1;
            case Kind::bytes:
                return bytes_[index] != 0;
            case Kind::predicate:
                return predicate_(index);
            default:
                return false;
        }
    }

private:
    enum class Kind { none, bitmap, bytes, predicate };
    Kind kind_ = Kind::none;
    std::span<const std::uint64_t> bits_;
    std::span<const std::uint8_t> bytes_;
    std::function<bool(std::uint64_t)> predicate_;
};

struct WriterOptions {
    // A power of two in [64, 2^20]. 4096 decodes in about 2 us (WDL) or 3 us
    // (DTW, 2-byte symbols) on synthetic data; larger blocks compress
    // better but make every cold probe slower (see compress/bench/).
    std::uint32_t positions_per_block = 4096;
    // zstd level: 15 was as small as 19 and 22 on synthetic tables at twice
    // the speed of 19; below 15 the files grow by a quarter or more.
    // Negative levels (zstd's fast ones) are allowed; 0 is not.
    int zstd_level = 15;
    // OpenMP threads for compression; 0 uses OpenMP's default. The file is
    // the same for any number.
    int threads = 0;
    // Don't-care positions repeat the previous cared-for value. For each
    // stride listed here, the writer also tries copying the value `stride`
    // positions back instead, and keeps per block whichever fill compresses
    // smallest (judged by a trial at zstd level 1). Worth it when the index
    // has a period, such as the squares of the fastest-varying piece. Costs
    // one fast trial compression per candidate per block.
    std::vector<std::uint32_t> fill_strides;
    // Bits per stored symbol: 0 means the symbol type's own size (8 or 16).
    // 2 packs byte symbols below 4 four to a byte: WDL tables compress
    // smaller and several times faster that way (BENCHMARKS.md).
    unsigned symbol_bits = 0;
    // Testing and measuring only: store don't-care positions as given
    // instead of filling them.
    bool fill_dont_care = true;
    // false: no fsync (AtomicFile): for scratch files only.
    bool durable = true;
    // The version in the header: 2 (kFlagThreatsNotStored may not be set),
    // or 3.
    std::uint32_t format_version = kDefaultFormatVersion;
};

// Writes `symbols` (one per position, in index order) to `path`, atomically:
// through `path` + ".tmp", fsync, rename, fsync of the directory. Returns
// the header written. Throws WriteError (message names the file) on I/O
// failure, std::invalid_argument on bad options, a don't-care bitmap shorter
// than the symbols, or a table too large for the format.
Header write_table(const std::filesystem::path& path, const TableDescription& table,
                   std::span<const std::uint8_t> symbols, const DontCare& dont_care = {},
                   const WriterOptions& options = {});
Header write_table(const std::filesystem::path& path, const TableDescription& table,
                   std::span<const std::uint16_t> symbols, const DontCare& dont_care = {},
                   const WriterOptions& options = {});

// Symbols made on demand, one block at a time: source(first, out) fills out
// with the symbols of positions first .. first + out.size() - 1. Called from
// several threads at once; must not throw. Lets the generator write a table
// without holding a second copy of it in memory.
template <class Symbol>
using SymbolSource = std::function<void(std::uint64_t first, std::span<Symbol> out)>;

Header write_table(const std::filesystem::path& path, const TableDescription& table, std::uint64_t position_count,
                   const SymbolSource<std::uint8_t>& source, const DontCare& dont_care = {},
                   const WriterOptions& options = {});
Header write_table(const std::filesystem::path& path, const TableDescription& table, std::uint64_t position_count,
                   const SymbolSource<std::uint16_t>& source, const DontCare& dont_care = {},
                   const WriterOptions& options = {});

}  // namespace dtb::compress
