#include "format/writer.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <omp.h>
#include <xxhash.h>

namespace dtb::format {

DontCare DontCare::bitmap(std::span<const std::uint64_t> bits) {
    DontCare d;
    d.kind_ = Kind::bitmap;
    d.bits_ = bits;
    return d;
}

DontCare DontCare::bytes(std::span<const std::uint8_t> flags) {
    DontCare d;
    d.kind_ = Kind::bytes;
    d.bytes_ = flags;
    return d;
}

DontCare DontCare::predicate(std::function<bool(std::uint64_t)> is_dont_care) {
    DontCare d;
    d.kind_ = is_dont_care ? Kind::predicate : Kind::none;
    d.predicate_ = std::move(is_dont_care);
    return d;
}

namespace {

// The output file: a descriptor that unlinks the temporary file unless the
// write got as far as renaming it.
class TempFile {
public:
    explicit TempFile(std::filesystem::path final_path) : final_(std::move(final_path)) {
        temp_ = final_;
        temp_ += ".tmp";
        fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd_ < 0) fail("cannot create " + temp_.string());
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    ~TempFile() {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_) ::unlink(temp_.c_str());
    }

    void write_at(std::uint64_t offset, std::span<const std::uint8_t> bytes) {
        while (!bytes.empty()) {
            const ssize_t n = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) fail("cannot write " + temp_.string());
            bytes = bytes.subspan(static_cast<std::size_t>(n));
            offset += static_cast<std::uint64_t>(n);
        }
    }

    // fsync, rename, then fsync the directory so that the rename itself is
    // on disk: only then does the table exist under its name.
    void commit() {
        if (::fsync(fd_) != 0) fail("cannot fsync " + temp_.string());
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0) fail("cannot close " + temp_.string());
        if (::rename(temp_.c_str(), final_.c_str()) != 0) fail("cannot rename " + temp_.string());
        committed_ = true;
        const std::filesystem::path dir = final_.has_parent_path() ? final_.parent_path() : ".";
        const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dir_fd < 0) fail("cannot open directory " + dir.string());
        const int rc = ::fsync(dir_fd);
        ::close(dir_fd);
        if (rc != 0) fail("cannot fsync directory " + dir.string());
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw WriteError(final_.string() + ": " + what + ": " + std::strerror(errno));
    }

    std::filesystem::path final_, temp_;
    int fd_ = -1;
    bool committed_ = false;
};

struct CCtxDeleter {
    void operator()(ZSTD_CCtx* c) const { ZSTD_freeCCtx(c); }
};

// Per-thread working space for compress_block.
struct Scratch {
    std::unique_ptr<ZSTD_CCtx, CCtxDeleter> cctx{ZSTD_createCCtx()};
    std::vector<std::uint8_t> cared;  // 1 where the position's value matters
    std::vector<std::uint8_t> raw;    // the block as stored, before compression
    std::vector<std::uint8_t> trial;  // output of trial compressions
};

// Lays out `block` as stored, filling the don't-care positions first
// (into `filled`): stride 0: repeat the previous cared-for value, which
// extends the run before it (5-8x smaller than storing a generator's scratch
// values, on synthetic tables). stride s: copy the value filled in s
// positions back, which extends an LZ match with the previous period of the
// index. Before the first cared-for position, use that position's value.
// Then the symbols are stored in `bits` bits: packed four to a byte for 2
// bits, as bytes for 8, as a plane of low bytes then one of high bytes for
// 16. Blocks are filled independently so that they can be compressed in any
// order.
template <class Symbol>
void lay_out(std::span<const Symbol> block, const std::vector<std::uint8_t>& cared, bool fill, std::uint32_t stride,
             unsigned bits, std::vector<Symbol>& filled, std::vector<std::uint8_t>& raw) {
    const auto n = static_cast<std::uint32_t>(block.size());
    filled.resize(n);
    Symbol previous = 0;
    for (std::uint32_t j = 0; j < n; ++j)
        if (cared[j]) {
            previous = block[j];
            break;
        }
    for (std::uint32_t j = 0; j < n; ++j) {
        Symbol v = block[j];
        if (cared[j]) {
            previous = v;
        } else if (fill) {
            v = stride != 0 && j >= stride ? filled[j - stride] : previous;
        }
        filled[j] = v;
    }
    raw.assign(stored_block_bytes(n, bits), 0);
    for (std::uint32_t j = 0; j < n; ++j) {
        const Symbol v = filled[j];
        if (bits == 2) {
            raw[j >> 2] = static_cast<std::uint8_t>(raw[j >> 2] | ((v & 3) << (2 * (j & 3))));
        } else {
            raw[j] = static_cast<std::uint8_t>(v);
            if (bits == 16) raw[n + j] = static_cast<std::uint8_t>(v >> 8);
        }
    }
}

// Compressed size of `raw`, or 0 if zstd fails.
std::size_t compress(ZSTD_CCtx* cctx, int level, const std::vector<std::uint8_t>& raw, std::vector<std::uint8_t>& out) {
    out.resize(ZSTD_compressBound(raw.size()));
    if (ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level))) return 0;
    const std::size_t size = ZSTD_compress2(cctx, out.data(), out.size(), raw.data(), raw.size());
    return ZSTD_isError(size) ? 0 : size;
}

// Fills and compresses block `b` into `out`. Returns the largest symbol the
// block stores (0 if none); `ok` goes false if zstd fails.
template <class Symbol>
std::uint32_t compress_block(const SymbolSource<Symbol>& source, std::uint64_t count, std::uint64_t b, unsigned bits,
                             const DontCare& dont_care, const WriterOptions& options, Scratch& scratch,
                             std::vector<Symbol>& symbols, std::vector<Symbol>& filled, std::vector<std::uint8_t>& out,
                             bool& ok) {
    const std::uint64_t first = b * options.positions_per_block;
    symbols.resize(std::min<std::uint64_t>(options.positions_per_block, count - first));
    source(first, std::span<Symbol>(symbols));
    const std::span<const Symbol> block(symbols);
    scratch.cared.resize(block.size());
    std::uint32_t max_symbol = 0;
    for (std::size_t j = 0; j < block.size(); ++j) {
        scratch.cared[j] = !dont_care(first + j);
        // Filled don't-cares copy cared-for values; unfilled ones are stored as they are.
        if (scratch.cared[j] || !options.fill_dont_care) max_symbol = std::max<std::uint32_t>(max_symbol, block[j]);
    }

    // With strides to try, pick the fill whose trial compression at level 1
    // is smallest, then compress that one at the real level.
    std::uint32_t best_stride = 0;
    if (options.fill_dont_care && !options.fill_strides.empty()) {
        lay_out(block, scratch.cared, true, 0, bits, filled, scratch.raw);
        std::size_t best = compress(scratch.cctx.get(), 1, scratch.raw, scratch.trial);
        for (const std::uint32_t stride : options.fill_strides) {
            lay_out(block, scratch.cared, true, stride, bits, filled, scratch.raw);
            const std::size_t size = compress(scratch.cctx.get(), 1, scratch.raw, scratch.trial);
            if (size != 0 && size < best) best = size, best_stride = stride;
        }
    }
    lay_out(block, scratch.cared, options.fill_dont_care, best_stride, bits, filled, scratch.raw);
    const std::size_t size = compress(scratch.cctx.get(), options.zstd_level, scratch.raw, out);
    if (size == 0) ok = false;
    out.resize(size);
    return max_symbol;
}

template <class Symbol>
Header write_impl(const std::filesystem::path& path, const TableDescription& table, std::uint64_t position_count,
                  const SymbolSource<Symbol>& source, const DontCare& dont_care, const WriterOptions& options) {
    const unsigned bits = options.symbol_bits != 0 ? options.symbol_bits : 8 * sizeof(Symbol);
    const bool fits_type = sizeof(Symbol) == 1 ? (bits == 2 || bits == 8) : bits == 16;
    if (!valid_symbol_bits(bits) || !fits_type)
        throw std::invalid_argument("symbol size must be 2 or 8 bits for byte symbols, 16 for 16-bit symbols");
    const std::uint32_t ppb = options.positions_per_block;
    if (!valid_positions_per_block(ppb, bits))
        throw std::invalid_argument("positions per block must be a power of two in [64, 2^20]");
    if (options.zstd_level < 1 || options.zstd_level > ZSTD_maxCLevel())
        throw std::invalid_argument("zstd level out of range");
    for (const std::uint32_t stride : options.fill_strides)
        if (stride == 0 || stride >= ppb) throw std::invalid_argument("fill strides must be in [1, positions per block)");
    if (!dont_care.covers(position_count)) throw std::invalid_argument("the don't-care map is shorter than the symbols");
    const std::uint64_t blocks = block_count_for(position_count, ppb);
    if (blocks > std::numeric_limits<std::uint32_t>::max())
        throw std::invalid_argument("too many blocks: use larger blocks");

    Header h;
    h.table = table;
    h.symbol_bits = static_cast<std::uint8_t>(bits);
    h.position_count = position_count;
    h.positions_per_block = ppb;
    h.block_count = static_cast<std::uint32_t>(blocks);
    h.index_size = index_size_for(blocks);
    h.data_offset = h.index_offset + h.index_size;

    TempFile file(path);
    std::vector<std::uint64_t> offsets(blocks + 1, 0);
    std::vector<std::uint32_t> checksums(blocks, 0);
    const std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> data_hash(XXH3_createState(), &XXH3_freeState);
    if (!data_hash || XXH3_64bits_reset(data_hash.get()) != XXH_OK) throw std::bad_alloc();

    // Blocks go in batches: compressed in parallel, then appended in order,
    // so memory stays bounded and the bytes never depend on the schedule.
    const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
    const std::uint64_t batch_size = 256 * static_cast<std::uint64_t>(threads);
    std::vector<std::vector<std::uint8_t>> compressed(static_cast<std::size_t>(std::min(batch_size, blocks)));
    std::vector<std::uint8_t> batch_bytes;
    std::uint64_t data_size = 0;
    std::uint32_t max_symbol = 0;
    for (std::uint64_t batch = 0; batch < blocks; batch += batch_size) {
        const auto count = static_cast<std::int64_t>(std::min(batch_size, blocks - batch));
        bool ok = true;
        std::uint32_t batch_max = 0;
#pragma omp parallel num_threads(threads) reduction(max : batch_max) reduction(&& : ok)
        {
            Scratch scratch;
            std::vector<Symbol> block_symbols, filled;
            ok = scratch.cctx != nullptr;
#pragma omp for schedule(dynamic, 4)
            for (std::int64_t k = 0; k < count; ++k) {
                if (!ok) continue;
                batch_max = std::max(batch_max, compress_block(source, position_count, batch + static_cast<std::uint64_t>(k),
                                                               bits, dont_care, options, scratch, block_symbols, filled,
                                                               compressed[static_cast<std::size_t>(k)], ok));
            }
        }
        if (!ok) throw WriteError(path.string() + ": zstd failed to compress a block");
        max_symbol = std::max(max_symbol, batch_max);
        if (max_symbol >= (1u << bits))
            throw std::invalid_argument(path.string() + ": a symbol does not fit in " + std::to_string(bits) + " bits");

        batch_bytes.clear();
        for (std::int64_t k = 0; k < count; ++k) {
            const std::uint64_t b = batch + static_cast<std::uint64_t>(k);
            const auto& block = compressed[static_cast<std::size_t>(k)];
            checksums[b] = block_checksum(block, b);
            offsets[b] = data_size;
            data_size += block.size();
            batch_bytes.insert(batch_bytes.end(), block.begin(), block.end());
        }
        XXH3_64bits_update(data_hash.get(), batch_bytes.data(), batch_bytes.size());
        file.write_at(h.data_offset + offsets[batch], batch_bytes);
    }
    offsets[blocks] = data_size;

    std::vector<std::uint8_t> index(h.index_size, 0);  // the padding stays 0
    std::memcpy(index.data(), offsets.data(), offsets.size() * 8);
    if (!checksums.empty())  // an empty vector's data() may be null, which memcpy must not get
        std::memcpy(index.data() + offsets.size() * 8, checksums.data(), checksums.size() * 4);
    file.write_at(h.index_offset, index);

    h.data_size = data_size;
    h.file_size = h.data_offset + data_size;
    h.index_checksum = section_checksum(index);
    h.data_checksum = XXH3_64bits_digest(data_hash.get());
    h.max_symbol = max_symbol;
    // The header goes last: until then the file starts with zeros, which no
    // reader takes for a table.
    file.write_at(0, encode_header(h));
    file.commit();
    return h;
}

}  // namespace

namespace {

template <class Symbol>
SymbolSource<Symbol> from_span(std::span<const Symbol> symbols) {
    return [symbols](std::uint64_t first, std::span<Symbol> out) {
        std::copy_n(symbols.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
    };
}

}  // namespace

Header write_table(const std::filesystem::path& path, const TableDescription& table,
                   std::span<const std::uint8_t> symbols, const DontCare& dont_care, const WriterOptions& options) {
    return write_impl<std::uint8_t>(path, table, symbols.size(), from_span(symbols), dont_care, options);
}

Header write_table(const std::filesystem::path& path, const TableDescription& table,
                   std::span<const std::uint16_t> symbols, const DontCare& dont_care, const WriterOptions& options) {
    return write_impl<std::uint16_t>(path, table, symbols.size(), from_span(symbols), dont_care, options);
}

Header write_table(const std::filesystem::path& path, const TableDescription& table, std::uint64_t position_count,
                   const SymbolSource<std::uint8_t>& source, const DontCare& dont_care, const WriterOptions& options) {
    return write_impl<std::uint8_t>(path, table, position_count, source, dont_care, options);
}

Header write_table(const std::filesystem::path& path, const TableDescription& table, std::uint64_t position_count,
                   const SymbolSource<std::uint16_t>& source, const DontCare& dont_care, const WriterOptions& options) {
    return write_impl<std::uint16_t>(path, table, position_count, source, dont_care, options);
}

}  // namespace dtb::format
