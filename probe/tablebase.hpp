// The set of table files an engine probes: the directories, what they hold
// (listed once, when the Tablebase is opened), and each file opened on
// first use through one BlockCache shared by all of them.
//
// After open() the set of known files never changes, so finding a table is
// a look-up in an immutable map followed by one atomic load; only the
// first use of a file takes a lock. Any number of threads may call table()
// at once.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "compress/table_file.hpp"
#include "probe/status.hpp"
#include "rules/variant.hpp"
#include "tables/king_block.hpp"
#include "tables/material_signature.hpp"
#include "tables/position_index.hpp"
#include "tables/table_names.hpp"

namespace dtb::probe {

using dtb::TableName;

// The files an engine probes, WDL, DTW and DTC, by the one parser of table
// file names (tables/table_names.hpp); nullopt for any other name, the
// generator's exact (.raw) tables included.
inline std::optional<TableName> probed_table_name(std::string_view name) {
    auto parsed = dtb::parse_table_file_name(name);
    if (!parsed || parsed->metric == compress::Metric::exact) return std::nullopt;
    return parsed;
}

// What a table's header records of its values (format version 2): the
// longest win and the longest loss in plies for its side to move, -1 when
// it has none.
struct TableExtremes {
    int longest_win = -1;
    int longest_loss = -1;
};

// What is wrong with a file named for `name` whose header is `h` (another
// variant, metric, material, index scheme or position count, or WDL
// symbols above 2); empty when nothing is.
std::string header_mismatch(const compress::Header& h, const TableName& name);

// An opened, checked table file and the position index of its signature
// (built once here rather than at every probe).
struct OpenTable {
    std::unique_ptr<compress::TableFile> file;
    PerVariant<PositionIndex> index;

    template <class V>
    const PositionIndex<V>& index_for() const {
        return std::get<PositionIndex<V>>(index);
    }
};

class Tablebase {
public:
    // Lists the directories (a table present in several is taken from the
    // first). Fails when a directory cannot be listed.
    static Outcome<std::unique_ptr<Tablebase>> open(const std::vector<std::filesystem::path>& dirs,
                                                    std::size_t cache_bytes);

    Tablebase(const Tablebase&) = delete;
    Tablebase& operator=(const Tablebase&) = delete;
    ~Tablebase();

    // The table of `sig` (side to move first) for `metric`, opened and
    // checked on first use: missing_table (naming the file), too_many_pieces,
    // or the reason the file was rejected (corrupt_table, io_error).
    Outcome<const OpenTable*> table(VariantId variant, const MaterialSignature& sig, compress::Metric metric) const;

    // Like table(), but never opens a file: the table if it is open now,
    // not_cached (with no message, so nothing is allocated) if it has not
    // been opened yet, the failure it was rejected with if it was. Never
    // waits for a lock: for the conditional probes.
    Outcome<const OpenTable*> table_if_open(VariantId variant, const MaterialSignature& sig,
                                            compress::Metric metric) const;

    // Every table of `variant` for `metric` in the directories with at most
    // `max_pieces` pieces, fewest pieces first (then in signature order).
    std::vector<TableName> tables_up_to(VariantId variant, int max_pieces, compress::Metric metric) const;

    // The longest win and loss of `sig` (side to move first), from the
    // header of its WDL table, opened on first use like table(): that
    // table's failure when it is missing or rejected, and missing_table
    // when it is a version 1 file, which does not record them.
    Outcome<TableExtremes> extremes(VariantId variant, const MaterialSignature& sig) const;

    // The most pieces of any WDL table of `variant` present (0 if none).
    int max_pieces(VariantId variant) const { return max_pieces_[static_cast<int>(variant)]; }

    const std::vector<std::filesystem::path>& dirs() const { return dirs_; }
    compress::BlockCache& cache() const { return *cache_; }
    // King blocks solved under a running king-move count, kept for the next
    // question (tables/rule_values.hpp): at most 128 MiB.
    SolvedKingBlocks& kept_king_blocks() const { return kept_king_blocks_; }

private:
    // One file found in a directory, opened at most once.
    struct Slot {
        TableName name;
        std::filesystem::path path;
        std::atomic<const OpenTable*> table{nullptr};  // set once, when opened
        std::mutex open_mutex;                         // held only while opening
        std::unique_ptr<OpenTable> owner;
        std::optional<Failure> rejected;       // a file that failed its checks stays rejected
        std::atomic<bool> is_rejected{false};  // set (release) once `rejected` is, which never changes again
    };

    Tablebase() = default;
    static std::uint32_t key(VariantId variant, const MaterialSignature& sig, compress::Metric metric);
    Outcome<const OpenTable*> open_slot(Slot& slot) const;
    Failure not_found(VariantId variant, const MaterialSignature& sig, compress::Metric metric) const;

    std::vector<std::filesystem::path> dirs_;
    std::shared_ptr<compress::BlockCache> cache_;
    mutable SolvedKingBlocks kept_king_blocks_{std::size_t{128} << 20};
    Slot* find_slot(std::uint32_t key) const;

    std::unordered_map<std::uint32_t, std::unique_ptr<Slot>> slots_;  // immutable after open()
    // The same slots in an open-addressing table (immutable after open()):
    // a probe finds its slot with a multiply, a mask and a compare or two.
    std::vector<std::pair<std::uint32_t, Slot*>> lookup_;
    std::array<int, kVariantIds.size()> max_pieces_{};  // by variant id
};

}  // namespace dtb::probe
