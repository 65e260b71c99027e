// Reading the exact tables, NAME.raw, that `dtb gen --keep-raw` writes
// (gen/table_writer.hpp): every position's exact value (tables/values.hpp,
// 8 or 16 bits), capture positions included, in PositionIndex order, as a
// table file of metric `exact` (docs/FORMAT.md). Tests and scripts check
// the generator and the probe against them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "rules/variant.hpp"
#include "tables/material_signature.hpp"
#include "tables/position_index.hpp"
#include "tables/values.hpp"

namespace dtb {

struct RawTableHeader {
    VariantId variant = VariantId::Russian;
    MaterialSignature signature;
    int symbol_bytes = 1;  // 1 or 2
    std::uint32_t index_version = 0;
    std::uint64_t positions = 0;
    int longest_win = -1;   // plies, -1 when nothing is won (the format's header field)
    int longest_loss = -1;  // plies, -1 when nothing is lost
};

// A loaded raw table: header and symbols (16-bit when stored as 16 bits;
// bytes otherwise).
struct RawTable {
    RawTableHeader header;
    std::vector<std::uint8_t> bytes;   // symbol_bytes == 1
    std::vector<std::uint16_t> words;  // symbol_bytes == 2

    // Decoded value of position i: a distance, or kDraw.
    int value(std::uint64_t i) const;
};

// Reads and checks a raw table (every checksum; the blocks decompressed in
// parallel); throws std::runtime_error naming the file when it is missing,
// truncated, not an exact table, or fails a checksum.
RawTable read_raw_table(const std::filesystem::path& path);

// Reads only the header and the block index (checked); for listing what a
// directory holds.
RawTableHeader read_raw_header(const std::filesystem::path& path);

// Exact tables held whole in memory, for looking up any position's value
// (tests and scripts check the generator and the probe against them).

template <class V>
class ExactTables {
public:
    void add(RawTable table) {
        const MaterialSignature sig = table.header.signature;
        if (table.header.index_version != PositionIndex<V>::kVersion)
            throw std::runtime_error("table " + sig.name() + " was built with position index version " +
                                     std::to_string(table.header.index_version) + "; this dtb uses version " +
                                     std::to_string(PositionIndex<V>::kVersion) + ": generate it again");
        entries_.push_back(Entry{sig, PositionIndex<V>(sig), std::move(table)});
    }

    bool has(const MaterialSignature& sig) const { return find(sig) != nullptr; }

    // The value of `pos` for its side to move: a distance in plies or
    // kDraw. A side with no pieces left has lost (distance 0).
    int value(const Position<V>& pos) const {
        if (!pos.pieces[pos.side_to_move]) return 0;
        const Position<V> normal = normalize(pos);
        const Entry* e = find(signature_of(normal));
        if (!e) throw std::logic_error("ExactTables: table " + signature_of(normal).name() + " is not loaded");
        return e->table.value(e->index.rank(normal));
    }

    std::uint64_t bytes() const {
        std::uint64_t n = 0;
        for (const Entry& e : entries_) n += e.table.bytes.size() + 2 * e.table.words.size();
        return n;
    }

private:
    struct Entry {
        MaterialSignature sig;
        PositionIndex<V> index;
        RawTable table;
    };
    const Entry* find(const MaterialSignature& sig) const {
        for (const Entry& e : entries_)
            if (e.sig == sig) return &e;
        return nullptr;
    }
    std::vector<Entry> entries_;
};

}  // namespace dtb
