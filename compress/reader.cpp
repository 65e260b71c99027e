#include "compress/reader.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <string>

#include "compress/little_endian.hpp"

namespace dtb::compress {

namespace {

// One decompression context per thread: creating one costs more than
// decompressing a block, and a context cannot be shared between threads.
ZSTD_DCtx* thread_dctx() {
    struct Holder {
        ZSTD_DCtx* dctx = ZSTD_createDCtx();
        ~Holder() { ZSTD_freeDCtx(dctx); }
    };
    thread_local Holder holder;
    return holder.dctx;
}

}  // namespace

Error TableFile::error(ErrorCode code, const std::string& what) const {
    return Error{code, path_.string() + ": " + std::string(to_string(code)) + ": " + what};
}

Result<std::unique_ptr<TableFile>> TableFile::open(const std::filesystem::path& path,
                                                   std::shared_ptr<BlockCache> cache) {
    std::unique_ptr<TableFile> t(new TableFile());
    t->path_ = path;
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return t->error(ErrorCode::io, std::string("cannot open: ") + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const int e = errno;
        ::close(fd);
        return t->error(ErrorCode::io, std::string("cannot stat: ") + std::strerror(e));
    }
    const auto file_size = static_cast<std::uint64_t>(st.st_size);
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        return t->error(ErrorCode::io, "not a regular file");
    }
    if (file_size < kHeaderSize) {
        ::close(fd);
        return decode_header({}, file_size, path.string()).error();
    }
    void* map = ::mmap(nullptr, file_size, PROT_READ, MAP_PRIVATE, fd, 0);
    const int map_errno = errno;
    ::close(fd);  // the mapping keeps the file
    if (map == MAP_FAILED) return t->error(ErrorCode::io, std::string("cannot map: ") + std::strerror(map_errno));
    t->map_ = static_cast<const std::uint8_t*>(map);
    t->map_size_ = file_size;

    auto header = decode_header({t->map_, t->map_size_}, file_size, path.string());
    if (!header) return header.error();
    const Header& h = t->header_ = *header;

    // Step 6: the block index. After this every offset read() uses is inside the file.
    const std::span<const std::uint8_t> index(t->map_ + h.index_offset, h.index_size);
    if (section_checksum(index) != h.index_checksum) return t->error(ErrorCode::corrupt_index, "checksum mismatch");
    t->offsets_ = index.data();
    t->checksums_ = index.data() + 8 * (std::uint64_t{h.block_count} + 1);
    for (const std::uint8_t* pad = t->checksums_ + 4 * std::uint64_t{h.block_count}; pad < index.data() + index.size();
         ++pad)
        if (*pad != 0) return t->error(ErrorCode::corrupt_index, "padding is not zero");
    if (t->block_offset(0) != 0) return t->error(ErrorCode::corrupt_index, "first block does not start at 0");
    if (t->block_offset(h.block_count) != h.data_size)
        return t->error(ErrorCode::corrupt_index, "blocks do not add up to the data size");
    const std::uint64_t max_block = ZSTD_compressBound(stored_block_bytes(h.positions_per_block, h.symbol_bits));
    for (std::uint64_t b = 0; b < h.block_count; ++b) {
        const std::uint64_t begin = t->block_offset(b), end = t->block_offset(b + 1);
        // end <= data_size for every block follows from ordering and the last offset.
        if (end <= begin || end - begin > max_block)
            return t->error(ErrorCode::corrupt_index, "block " + std::to_string(b) + " has an impossible size");
    }
    t->block_shift_ = static_cast<unsigned>(std::countr_zero(h.positions_per_block));
    // Probes jump around the file: reading ahead would fetch blocks nobody asked for.
    ::madvise(map, file_size, MADV_RANDOM);
    t->cache_ = std::move(cache);
    if (t->cache_) {
        t->cache_id_ = t->cache_->new_table_id();
        t->cache_table_ = &t->cache_->register_table(t->cache_id_, h.block_count);
    }
    return t;
}

TableFile::~TableFile() {
    if (cache_) cache_->erase_table(cache_id_);
    if (map_ != nullptr) ::munmap(const_cast<std::uint8_t*>(map_), map_size_);
}

std::uint64_t TableFile::block_offset(std::uint64_t block) const { return get_u64(offsets_ + 8 * block); }

std::uint32_t TableFile::block_checksum_stored(std::uint64_t block) const { return get_u32(checksums_ + 4 * block); }

std::uint32_t TableFile::block_positions(std::uint64_t block) const {
    const std::uint64_t first = block << block_shift_;
    return static_cast<std::uint32_t>(
        std::min<std::uint64_t>(header_.positions_per_block, header_.position_count - first));
}

Result<std::vector<std::uint8_t>> TableFile::load_block(std::uint64_t block) const {
    const std::uint64_t begin = block_offset(block), end = block_offset(block + 1);
    const std::span<const std::uint8_t> compressed(map_ + header_.data_offset + begin, end - begin);
    const std::uint64_t first = block << block_shift_;
    const std::uint32_t positions = block_positions(block);
    const auto where = [&] {
        return "block " + std::to_string(block) + " (positions " + std::to_string(first) + ".." +
               std::to_string(first + positions - 1) + ")";
    };
    // The checksum first: zstd copes with garbage, but a frame that happens
    // to decode to the right size would otherwise yield wrong values.
    if (block_checksum(compressed, block) != block_checksum_stored(block))
        return error(ErrorCode::corrupt_block, where() + ": checksum mismatch");
    ZSTD_DCtx* dctx = thread_dctx();
    if (dctx == nullptr) return error(ErrorCode::io, "out of memory for a zstd context");
    std::vector<std::uint8_t> raw(stored_block_bytes(positions, header_.symbol_bits));
    const std::size_t n = ZSTD_decompressDCtx(dctx, raw.data(), raw.size(), compressed.data(), compressed.size());
    if (ZSTD_isError(n)) return error(ErrorCode::corrupt_block, where() + ": " + ZSTD_getErrorName(n));
    if (n != raw.size())
        return error(ErrorCode::corrupt_block, where() + ": decompressed to " + std::to_string(n) +
                                                   " bytes instead of " + std::to_string(raw.size()));
    return raw;
}

Result<std::uint16_t> TableFile::read(std::uint64_t index) const {
    if (index >= header_.position_count)
        return error(ErrorCode::out_of_range,
                     "position " + std::to_string(index) + " of a table of " + std::to_string(header_.position_count));
    const std::uint64_t block = index >> block_shift_;
    const auto position = static_cast<std::uint32_t>(index & (header_.positions_per_block - 1));
    const std::uint32_t positions = block_positions(block);
    if (cache_)
        if (const auto hit = cache_->find(*cache_table_, block, position, positions, header_.symbol_bits)) return *hit;
    auto raw = load_block(block);
    if (!raw) return raw.error();
    const std::uint16_t value = decode_symbol(raw->data(), positions, position, header_.symbol_bits);
    if (cache_) cache_->insert(*cache_table_, block, *raw);
    return value;
}

std::optional<std::uint16_t> TableFile::read_cached(std::uint64_t index) const {
    if (!cache_ || index >= header_.position_count) return std::nullopt;
    const std::uint64_t block = index >> block_shift_;
    const auto position = static_cast<std::uint32_t>(index & (header_.positions_per_block - 1));
    return cache_->find(*cache_table_, block, position, block_positions(block), header_.symbol_bits);
}

Result<bool> TableFile::cache_block(std::uint64_t block, bool evict) const {
    if (block >= header_.block_count)
        return error(ErrorCode::out_of_range,
                     "block " + std::to_string(block) + " of a table of " + std::to_string(header_.block_count));
    if (!cache_) return false;
    if (cache_->contains(*cache_table_, block)) return true;
    if (!evict && cache_->free_bytes() < cache_->cost(block_bytes(block))) return false;
    auto raw = load_block(block);
    if (!raw) return raw.error();
    if (evict) {
        cache_->insert(*cache_table_, block, *raw);
        return cache_->contains(*cache_table_, block);
    }
    return cache_->insert_without_eviction(*cache_table_, block, *raw);
}

std::optional<Error> TableFile::verify() const {
    const std::span<const std::uint8_t> data(map_ + header_.data_offset, header_.data_size);
    if (section_checksum(data) != header_.data_checksum)
        return error(ErrorCode::corrupt_data, "data checksum mismatch");
    for (std::uint64_t b = 0; b < header_.block_count; ++b) {
        auto raw = load_block(b);
        if (!raw) return raw.error();
        const std::uint32_t positions = block_positions(b);
        for (std::uint32_t j = 0; j < positions; ++j)
            if (decode_symbol(raw->data(), positions, j, header_.symbol_bits) > header_.max_symbol)
                return error(ErrorCode::corrupt_data, "block " + std::to_string(b) +
                                                          " holds a symbol above max_symbol " +
                                                          std::to_string(header_.max_symbol));
    }
    return std::nullopt;
}

}  // namespace dtb::compress
