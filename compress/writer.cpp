#include "compress/writer.hpp"

#include <omp.h>
#include <xxhash.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "compress/little_endian.hpp"

namespace dtb::compress {

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

// `symbols` as stored in `bits` bits, into `raw`: packed four to a byte
// for 2 bits, as bytes for 8, as a plane of low bytes then one of high
// bytes for 16.
template <class Symbol>
void store(std::span<const Symbol> symbols, unsigned bits, std::vector<std::uint8_t>& raw) {
    const std::size_t n = symbols.size();
    raw.assign(stored_block_bytes(static_cast<std::uint32_t>(n), bits), 0);
    if (bits == 2) {
        for (std::size_t j = 0; j < n; ++j)
            raw[j >> 2] = static_cast<std::uint8_t>(raw[j >> 2] | ((symbols[j] & 3) << (2 * (j & 3))));
    } else if (bits == 8) {
        for (std::size_t j = 0; j < n; ++j) raw[j] = static_cast<std::uint8_t>(symbols[j]);
    } else {
        for (std::size_t j = 0; j < n; ++j) {
            raw[j] = static_cast<std::uint8_t>(symbols[j]);
            raw[n + j] = static_cast<std::uint8_t>(symbols[j] >> 8);
        }
    }
}

// Lays out `block` as stored, filling the don't-care positions first
// (into `filled`): stride 0: repeat the previous cared-for value, which
// extends the run before it (5-8x smaller than storing a generator's scratch
// values, on synthetic tables). stride s: copy the value filled in s
// positions back, which extends an LZ match with the previous period of the
// index. Before the first cared-for position, use that position's value.
// Then the symbols are stored (store()). Blocks are filled independently so
// that they can be compressed in any order.
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
    store(std::span<const Symbol>(filled), bits, raw);
}

// Compressed size of `raw`, or 0 if zstd fails.
std::size_t compress(ZSTD_CCtx* cctx, int level, const std::vector<std::uint8_t>& raw, std::vector<std::uint8_t>& out) {
    out.resize(ZSTD_compressBound(raw.size()));
    if (ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, level))) return 0;
    const std::size_t size = ZSTD_compress2(cctx, out.data(), out.size(), raw.data(), raw.size());
    return ZSTD_isError(size) ? 0 : size;
}

// Lays out `block` (positions first, first + 1, ...) into scratch.raw with
// its don't-care positions filled: with strides to try, the fill whose trial
// compression at level 1 is smallest. Returns the largest symbol stored.
template <class Symbol>
std::uint32_t fill_and_lay_out(std::span<const Symbol> block, std::uint64_t first, unsigned bits,
                               const DontCare& dont_care, const WriterOptions& options, Scratch& scratch,
                               std::vector<Symbol>& filled) {
    scratch.cared.resize(block.size());
    std::uint32_t max_symbol = 0;
    for (std::size_t j = 0; j < block.size(); ++j) {
        scratch.cared[j] = !dont_care(first + j);
        // Filled don't-cares copy cared-for values; unfilled ones are stored as they are.
        if (scratch.cared[j] || !options.fill_dont_care) max_symbol = std::max<std::uint32_t>(max_symbol, block[j]);
    }
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
    return max_symbol;
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
    std::uint32_t max_symbol = 0;
    if (dont_care.none()) {  // every position matters (exact tables): nothing to fill or try
        for (const Symbol v : block) max_symbol = std::max<std::uint32_t>(max_symbol, v);
        store(block, bits, scratch.raw);
    } else {
        max_symbol = fill_and_lay_out(block, first, bits, dont_care, options, scratch, filled);
    }
    const std::size_t size = compress(scratch.cctx.get(), options.zstd_level, scratch.raw, out);
    if (size == 0) ok = false;
    out.resize(size);
    return max_symbol;
}

// The symbol size the options and the symbol type give; throws
// std::invalid_argument for anything the format or the writer cannot do.
template <class Symbol>
unsigned checked_symbol_bits(std::uint64_t position_count, const DontCare& dont_care, const WriterOptions& options) {
    const unsigned bits = options.symbol_bits != 0 ? options.symbol_bits : 8 * sizeof(Symbol);
    const bool fits_type = sizeof(Symbol) == 1 ? (bits == 2 || bits == 8) : bits == 16;
    if (!valid_symbol_bits(bits) || !fits_type)
        throw std::invalid_argument("symbol size must be 2 or 8 bits for byte symbols, 16 for 16-bit symbols");
    const std::uint32_t ppb = options.positions_per_block;
    if (!valid_positions_per_block(ppb, bits))
        throw std::invalid_argument("positions per block must be a power of two in [64, 2^20]");
    // Negative levels are zstd's fast ones; 0 would mean "the default", which may change.
    if (options.zstd_level == 0 || options.zstd_level < ZSTD_minCLevel() || options.zstd_level > ZSTD_maxCLevel())
        throw std::invalid_argument("zstd level out of range");
    if (options.format_version < 2 || options.format_version > kFormatVersion)
        throw std::invalid_argument("the writer writes format versions 2 to " + std::to_string(kFormatVersion));
    for (const std::uint32_t stride : options.fill_strides)
        if (stride == 0 || stride >= ppb)
            throw std::invalid_argument("fill strides must be in [1, positions per block)");
    if (!dont_care.covers(position_count))
        throw std::invalid_argument("the don't-care map is shorter than the symbols");
    if (block_count_for(position_count, ppb) > std::numeric_limits<std::uint32_t>::max())
        throw std::invalid_argument("too many blocks: use larger blocks");
    return bits;
}

// The header's layout fields; the sizes and checksums come after the data.
Header plan_header(const TableDescription& table, unsigned bits, std::uint64_t position_count, std::uint32_t ppb,
                   std::uint32_t format_version) {
    if ((table.flags & ~known_flags(format_version)) || contradictory_flags(table.flags))
        throw std::invalid_argument("flags " + std::to_string(table.flags) + " are not those of format version " +
                                    std::to_string(format_version));
    Header h;
    h.format_version = format_version;
    h.table = table;
    h.flags = table.flags;
    h.symbol_bits = static_cast<std::uint8_t>(bits);
    h.position_count = position_count;
    h.positions_per_block = ppb;
    h.block_count = static_cast<std::uint32_t>(block_count_for(position_count, ppb));
    h.index_size = index_size_for(h.block_count);
    h.data_offset = h.index_offset + h.index_size;
    return h;
}

// The data section as it is written: block offsets and checksums for the
// index, the running data checksum, the largest symbol.
class DataSection {
public:
    explicit DataSection(std::uint64_t blocks) : offsets_(blocks + 1, 0), checksums_(blocks, 0) {
        if (!hash_ || XXH3_64bits_reset(hash_.get()) != XXH_OK) throw std::bad_alloc();
    }

    // Appends the compressed blocks first, first + 1, ... to the file.
    void append(AtomicFile& file, const Header& h, std::uint64_t first,
                std::span<const std::vector<std::uint8_t>> blocks) {
        bytes_.clear();
        for (std::size_t k = 0; k < blocks.size(); ++k) {
            const std::uint64_t b = first + k;
            checksums_[b] = block_checksum(blocks[k], b);
            offsets_[b] = size_;
            size_ += blocks[k].size();
            bytes_.insert(bytes_.end(), blocks[k].begin(), blocks[k].end());
        }
        XXH3_64bits_update(hash_.get(), bytes_.data(), bytes_.size());
        file.write_at(h.data_offset + offsets_[first], bytes_);
    }

    // Writes the block index and completes `h`.
    void finish(AtomicFile& file, Header& h, std::uint32_t max_symbol) {
        offsets_.back() = size_;
        std::vector<std::uint8_t> index(h.index_size, 0);  // the padding stays 0
        for (std::size_t b = 0; b < offsets_.size(); ++b) put_u64(index.data() + 8 * b, offsets_[b]);
        std::uint8_t* checksums = index.data() + 8 * offsets_.size();
        for (std::size_t b = 0; b < checksums_.size(); ++b) put_u32(checksums + 4 * b, checksums_[b]);
        file.write_at(h.index_offset, index);
        h.data_size = size_;
        h.file_size = h.data_offset + size_;
        h.index_checksum = section_checksum(index);
        h.data_checksum = XXH3_64bits_digest(hash_.get());
        h.max_symbol = max_symbol;
    }

private:
    std::vector<std::uint64_t> offsets_;
    std::vector<std::uint32_t> checksums_;
    std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> hash_{XXH3_createState(), &XXH3_freeState};
    std::vector<std::uint8_t> bytes_;  // one batch
    std::uint64_t size_ = 0;
};

// Compresses blocks first .. first + out.size() - 1 in parallel into `out`;
// returns their largest symbol. Throws WriteError if zstd fails.
template <class Symbol>
std::uint32_t compress_batch(const std::filesystem::path& path, const SymbolSource<Symbol>& source,
                             std::uint64_t position_count, std::uint64_t first, unsigned bits,
                             const DontCare& dont_care, const WriterOptions& options, int threads,
                             std::span<std::vector<std::uint8_t>> out) {
    const auto count = static_cast<std::int64_t>(out.size());
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
            batch_max =
                std::max(batch_max,
                         compress_block(source, position_count, first + static_cast<std::uint64_t>(k), bits, dont_care,
                                        options, scratch, block_symbols, filled, out[static_cast<std::size_t>(k)], ok));
        }
    }
    if (!ok) throw WriteError(path.string() + ": zstd failed to compress a block");
    return batch_max;
}

template <class Symbol>
Header write_impl(const std::filesystem::path& path, const TableDescription& table, std::uint64_t position_count,
                  const SymbolSource<Symbol>& source, const DontCare& dont_care, const WriterOptions& options) {
    const unsigned bits = checked_symbol_bits<Symbol>(position_count, dont_care, options);
    Header h = plan_header(table, bits, position_count, options.positions_per_block, options.format_version);
    const std::uint64_t blocks = h.block_count;
    AtomicFile file(path, options.durable);
    DataSection data(blocks);

    // Blocks go in batches: compressed in parallel, then appended in order,
    // so memory stays bounded and the bytes never depend on the schedule.
    const int threads = options.threads > 0 ? options.threads : omp_get_max_threads();
    const std::uint64_t batch_size = 256 * static_cast<std::uint64_t>(threads);
    std::vector<std::vector<std::uint8_t>> compressed(static_cast<std::size_t>(std::min(batch_size, blocks)));
    std::uint32_t max_symbol = 0;
    for (std::uint64_t batch = 0; batch < blocks; batch += batch_size) {
        const std::span batch_blocks(compressed.data(), static_cast<std::size_t>(std::min(batch_size, blocks - batch)));
        max_symbol = std::max(max_symbol, compress_batch(path, source, position_count, batch, bits, dont_care, options,
                                                         threads, batch_blocks));
        if (max_symbol >= (1u << bits))
            throw std::invalid_argument(path.string() + ": a symbol does not fit in " + std::to_string(bits) + " bits");
        data.append(file, h, batch, batch_blocks);
    }
    data.finish(file, h, max_symbol);
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

}  // namespace dtb::compress
