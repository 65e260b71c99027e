// A cache of decompressed blocks owned by one thread: the generator reads
// its smaller tables back from their compressed files through one of these
// per thread, so a look-up is a hash, a compare and an array read, with no
// lock. Direct-mapped: a block goes to one slot, and evicts what was there.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "compress/table_file.hpp"

namespace dtb {

class BlockWindow {
public:
    // Room for about `bytes` of decompressed blocks of `block_bytes` each
    // (at least one slot).
    BlockWindow(std::size_t bytes, std::size_t block_bytes) {
        std::size_t slots = 1;
        while (slots * 2 * block_bytes <= bytes) slots *= 2;
        slots_.resize(slots);
    }

    // The symbol stored for `index` in `file`. Throws std::runtime_error
    // naming the file when its block fails its checks.
    std::uint16_t read(const compress::TableFile& file, std::uint64_t index) {
        const unsigned shift = file.block_shift();
        const std::uint64_t block = index >> shift;
        Slot& slot = slots_[slot_of(&file, block)];
        if (slot.file != &file || slot.block != block) load(slot, file, block);
        return compress::decode_symbol(slot.data.data(), slot.positions,
                                       std::uint32_t(index & ((std::uint64_t{1} << shift) - 1)),
                                       file.header().symbol_bits);
    }

private:
    struct Slot {
        const compress::TableFile* file = nullptr;
        std::uint64_t block = 0;
        std::uint32_t positions = 0;
        std::vector<std::uint8_t> data;
    };

    std::size_t slot_of(const compress::TableFile* file, std::uint64_t block) const {
        std::uint64_t h =
            reinterpret_cast<std::uintptr_t>(file) * 0x9E3779B97F4A7C15ULL ^ block * 0xC2B2AE3D27D4EB4FULL;
        h ^= h >> 29;
        return std::size_t(h & (slots_.size() - 1));
    }

    void load(Slot& slot, const compress::TableFile& file, std::uint64_t block) {
        auto data = file.read_block(block);
        if (!data) throw std::runtime_error(data.error().message);
        slot.file = &file;
        slot.block = block;
        slot.positions = file.block_positions(block);
        slot.data = std::move(*data);
    }

    std::vector<Slot> slots_;
};

}  // namespace dtb
