#include "probe/tablebase.hpp"

#include <algorithm>
#include <bit>
#include <system_error>

#include "tables/position_index.hpp"
#include "tables/table_names.hpp"

namespace dtb::probe {

namespace {

// Fibonacci hashing into a power-of-two table.
std::size_t lookup_hash(std::uint32_t key, std::size_t size) {
    return static_cast<std::size_t>((std::uint64_t{key} * 0x9E3779B97F4A7C15ull) >> 32) & (size - 1);
}

Status status_of(compress::ErrorCode code) {
    return code == compress::ErrorCode::io ? Status::io_error : Status::corrupt_table;
}

}  // namespace

// A file renamed to another signature's name, or written with another index
// scheme, would otherwise give wrong values with valid checksums.
std::string header_mismatch(const compress::Header& h, const TableName& name) {
    return with_variant(name.variant, [&]<class V>() -> std::string {
        if (h.table.variant != file_variant(name.variant)) return "the header is for another variant";
        if (h.table.metric != name.metric) return "the header is for another metric";
        if (!(h.table.material == file_material(name.signature))) return "the header is for another material";
        if (h.table.index_scheme != PositionIndex<V>::kVersion)
            return "index scheme " + std::to_string(h.table.index_scheme) + ", this build reads " +
                   std::to_string(PositionIndex<V>::kVersion);
        const std::uint64_t expected = PositionIndex<V>(name.signature).size();
        if (h.position_count != expected)
            return std::to_string(h.position_count) + " positions, the signature has " + std::to_string(expected);
        if ((h.flags & compress::kFlagSideNotStored) && name.signature.is_symmetric())
            return "no position stored, but the table is its own mirror";
        if (name.metric == compress::Metric::wdl && h.max_symbol > kWdlWin)
            return "a WDL symbol above 2 (max_symbol " + std::to_string(h.max_symbol) + ")";
        return {};
    });
}

std::uint32_t Tablebase::key(VariantId variant, const MaterialSignature& sig, compress::Metric metric) {
    // Counts are at most 50 (6 bits each); the key is exact, not a hash.
    return (std::uint32_t(variant) << 26) | (std::uint32_t(metric) << 24) | (std::uint32_t(sig.men[0]) << 18) |
           (std::uint32_t(sig.kings[0]) << 12) | (std::uint32_t(sig.men[1]) << 6) | std::uint32_t(sig.kings[1]);
}

Outcome<std::unique_ptr<Tablebase>> Tablebase::open(const std::vector<std::filesystem::path>& dirs,
                                                    std::size_t cache_bytes) {
    std::unique_ptr<Tablebase> tb(new Tablebase());
    tb->dirs_ = dirs;
    tb->cache_ = std::make_shared<compress::BlockCache>(cache_bytes);
    for (const std::filesystem::path& dir : dirs) {
        std::error_code ec;
        std::filesystem::directory_iterator it(dir, ec);
        if (ec) return Failure{Status::io_error, "cannot list table directory " + dir.string() + ": " + ec.message()};
        for (; it != std::filesystem::directory_iterator(); it.increment(ec)) {
            if (ec)
                return Failure{Status::io_error, "cannot list table directory " + dir.string() + ": " + ec.message()};
            const auto name = probed_table_name(it->path().filename().string());
            if (!name) continue;
            auto& slot = tb->slots_[key(name->variant, name->signature, name->metric)];
            if (slot) continue;  // an earlier directory has it
            slot = std::make_unique<Slot>();
            slot->name = *name;
            slot->path = it->path();
            if (name->metric == compress::Metric::wdl) {
                int& most = tb->max_pieces_[static_cast<int>(name->variant)];
                most = std::max(most, name->signature.total());
            }
        }
    }
    const std::size_t size = std::max<std::size_t>(16, std::bit_ceil(2 * tb->slots_.size()));
    tb->lookup_.assign(size, {0, nullptr});
    for (const auto& [k, slot] : tb->slots_)
        for (std::size_t i = lookup_hash(k, size);; i = (i + 1) & (size - 1))
            if (tb->lookup_[i].second == nullptr) {
                tb->lookup_[i] = {k, slot.get()};
                break;
            }
    return tb;
}

Tablebase::~Tablebase() = default;

Tablebase::Slot* Tablebase::find_slot(std::uint32_t k) const {
    const std::size_t size = lookup_.size();
    for (std::size_t i = lookup_hash(k, size);; i = (i + 1) & (size - 1)) {
        const auto& [key, slot] = lookup_[i];
        if (slot == nullptr) return nullptr;
        if (key == k) return slot;
    }
}

Failure Tablebase::not_found(VariantId variant, const MaterialSignature& sig, compress::Metric metric) const {
    std::string where;
    for (const auto& dir : dirs_) where += (where.empty() ? "" : ", ") + dir.string();
    const std::string missing =
        table_file_name(variant, sig, metric) + " (looked in " + (where.empty() ? "no directory" : where) + ")";
    const int most = max_pieces(variant);
    // With no table of the variant at all, "missing" says more than "too many".
    if (most > 0 && sig.total() > most)
        return Failure{Status::too_many_pieces, "a position with " + std::to_string(sig.total()) +
                                                    " pieces: the largest " + std::string(variant_name(variant)) +
                                                    " table here has " + std::to_string(most) + "; no " + missing};
    return Failure{Status::missing_table, "missing table " + missing};
}

Outcome<const OpenTable*> Tablebase::table(VariantId variant, const MaterialSignature& sig,
                                           compress::Metric metric) const {
    Slot* slot = find_slot(key(variant, sig, metric));
    if (slot == nullptr) return not_found(variant, sig, metric);
    if (const OpenTable* t = slot->table.load(std::memory_order_acquire)) return t;
    return open_slot(*slot);
}

Outcome<const OpenTable*> Tablebase::table_if_open(VariantId variant, const MaterialSignature& sig,
                                                   compress::Metric metric) const {
    const Slot* slot = find_slot(key(variant, sig, metric));
    if (slot == nullptr) return not_found(variant, sig, metric);
    if (const OpenTable* t = slot->table.load(std::memory_order_acquire)) return t;
    if (slot->is_rejected.load(std::memory_order_acquire)) return *slot->rejected;
    return Failure{Status::not_cached, {}};
}

std::vector<TableName> Tablebase::tables_up_to(VariantId variant, int max_pieces, compress::Metric metric) const {
    std::vector<TableName> names;
    for (const auto& [k, slot] : slots_)
        if (slot->name.variant == variant && slot->name.metric == metric && slot->name.signature.total() <= max_pieces)
            names.push_back(slot->name);
    std::sort(names.begin(), names.end(), [](const TableName& a, const TableName& b) {
        if (a.signature.total() != b.signature.total()) return a.signature.total() < b.signature.total();
        return a.signature < b.signature;
    });
    return names;
}

Outcome<const OpenTable*> Tablebase::open_slot(Slot& slot) const {
    std::lock_guard lock(slot.open_mutex);
    if (const OpenTable* t = slot.table.load(std::memory_order_acquire)) return t;  // another thread did
    if (slot.rejected) return *slot.rejected;
    auto file = compress::TableFile::open(slot.path, cache_);
    if (!file) {
        Failure failure{status_of(file.error().code), file.error().message};
        // An unreadable file may become readable (too many open files, a
        // disk coming back); a damaged one stays damaged.
        if (failure.status != Status::io_error) {
            slot.rejected = failure;
            slot.is_rejected.store(true, std::memory_order_release);
        }
        return failure;
    }
    if (const std::string wrong = header_mismatch((*file)->header(), slot.name); !wrong.empty()) {
        slot.rejected = Failure{Status::corrupt_table, slot.path.string() + ": not the table its name says: " + wrong};
        slot.is_rejected.store(true, std::memory_order_release);
        return *slot.rejected;
    }
    slot.owner = with_variant(slot.name.variant, [&]<class V>() {
        return std::make_unique<OpenTable>(OpenTable{std::move(*file), PositionIndex<V>(slot.name.signature)});
    });
    slot.table.store(slot.owner.get(), std::memory_order_release);
    return slot.owner.get();
}

Outcome<TableExtremes> Tablebase::extremes(VariantId variant, const MaterialSignature& sig) const {
    auto table = this->table(variant, sig, compress::Metric::wdl);
    if (!table) return table.take_error();
    const compress::TableFile& file = *(*table)->file;
    const compress::TableDescription& d = file.header().table;
    if (d.longest_win == compress::kNotRecorded)
        return Failure{Status::missing_table, file.path().string() + " (format version " +
                                                  std::to_string(file.header().format_version) +
                                                  ") does not record its longest win and loss: generate it again"};
    return TableExtremes{d.longest_win, d.longest_loss};
}

}  // namespace dtb::probe
