// Reads a table file (docs/FORMAT.md): maps it read-only, validates the
// header and the block index completely when it opens, and then answers
// read(index) from any number of threads at once, through a BlockCache.
// Nothing here throws; every failure is an Error whose message names the file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "compress/block_cache.hpp"
#include "compress/error.hpp"
#include "compress/format.hpp"

namespace dtb::compress {

class TableFile {
public:
    // Opens and validates `path` (steps 1 to 6 of "How a reader validates").
    // `cache` may be shared with other tables; nullptr means no caching
    // (every read decompresses its block: for tests and measurements).
    static Result<std::unique_ptr<TableFile>> open(const std::filesystem::path& path,
                                                   std::shared_ptr<BlockCache> cache);

    TableFile(const TableFile&) = delete;
    TableFile& operator=(const TableFile&) = delete;
    // Unmaps the file and drops its blocks from the cache. No read may be
    // running on this table any more.
    ~TableFile();

    const Header& header() const { return header_; }
    const std::filesystem::path& path() const { return path_; }
    std::uint64_t position_count() const { return header_.position_count; }

    // The symbol stored for position `index`: out_of_range past the end,
    // corrupt_block if its block fails its checks (never a wrong value).
    // Thread-safe. For a don't-care position the symbol means nothing.
    Result<std::uint16_t> read(std::uint64_t index) const;

    // The symbol for position `index` if its block is in the cache now;
    // nullopt when it is not (or there is no cache, or index is past the
    // end). Never reads the file nor decompresses: for searches that must
    // not wait.
    std::optional<std::uint16_t> read_cached(std::uint64_t index) const;

    // Puts block `block` in the cache unless it is there: true when it is
    // there now, false when it does not fit in the cache's free room (with
    // `evict`, what it must is evicted and false means no cache); the
    // block's error when it fails its checks.
    Result<bool> cache_block(std::uint64_t block, bool evict) const;
    // Whether block `block` is in the cache now.
    bool block_cached(std::uint64_t block) const { return cache_ && cache_->contains(*cache_table_, block); }
    // Its decompressed size in bytes.
    std::size_t block_bytes(std::uint64_t block) const {
        return stored_block_bytes(block_positions(block), header_.symbol_bits);
    }

    // Checks everything docs/FORMAT.md lets a reader check: the data checksum,
    // every block's checksum and decompressed size, and max_symbol. Reads
    // the whole file; nullopt when all is well.
    std::optional<Error> verify() const;

    // Block `block` checked and decompressed, bypassing the cache: for
    // readers that keep their own (the generator keeps one per thread).
    // Its symbols are read with decode_symbol (format.hpp).
    Result<std::vector<std::uint8_t>> read_block(std::uint64_t block) const { return load_block(block); }
    unsigned block_shift() const { return block_shift_; }  // log2(positions_per_block)
    std::uint32_t block_positions(std::uint64_t block) const;

    // Every symbol, in index order, into `out` (exactly position_count()
    // long; Symbol is std::uint8_t or std::uint16_t, wide enough for the
    // table's symbols): checks the data checksum and every block's checksum
    // and size, and decompresses the blocks in parallel on `threads` OpenMP
    // threads (0: OpenMP's default). nullopt when all is well; otherwise the
    // first damaged block's error, and `out` is not to be used. Defined in
    // whole_table.cpp (it needs OpenMP).
    template <class Symbol>
    std::optional<Error> read_all(std::span<Symbol> out, int threads = 0) const;

private:
    TableFile() = default;

    std::uint64_t block_offset(std::uint64_t block) const;  // relative to data_offset
    std::uint32_t block_checksum_stored(std::uint64_t block) const;
    // Checks and decompresses a block, bypassing the cache.
    Result<std::vector<std::uint8_t>> load_block(std::uint64_t block) const;
    Error error(ErrorCode code, const std::string& what) const;

    std::filesystem::path path_;
    Header header_;
    const std::uint8_t* map_ = nullptr;  // the whole file
    std::size_t map_size_ = 0;
    const std::uint8_t* offsets_ = nullptr;    // B + 1 little-endian uint64
    const std::uint8_t* checksums_ = nullptr;  // B little-endian uint32
    unsigned block_shift_ = 0;                 // log2(positions_per_block)
    std::shared_ptr<BlockCache> cache_;
    std::uint64_t cache_id_ = 0;
    BlockCache::Table* cache_table_ = nullptr;  // this table's directory in cache_
};

}  // namespace dtb::compress
