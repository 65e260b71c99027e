#include "probe/table_inventory.hpp"

#include <algorithm>
#include <system_error>
#include <tuple>

namespace dtb::probe {

namespace {

TableInfo inspect(const std::filesystem::path& path, const TableName& name, bool quick) {
    std::error_code ec;
    const std::uint64_t bytes = std::filesystem::file_size(path, ec);  // fails for a directory
    TableInfo t{path, name, 0, ec ? 0 : bytes, {}};
    auto file = compress::TableFile::open(path, nullptr);
    if (!file) {
        t.problem = file.error().message;
        return t;
    }
    t.positions = (*file)->position_count();
    t.stores_positions = ((*file)->header().flags & compress::kFlagSideNotStored) == 0;
    if (std::string wrong = header_mismatch((*file)->header(), name); !wrong.empty())
        t.problem = path.string() + ": not the table its name says: " + wrong;
    else if (!quick)
        if (const auto e = (*file)->verify()) t.problem = e->message;
    return t;
}

void add(TableTotal& total, const TableInfo& t) {
    ++total.tables;
    total.invalid += t.problem.empty() ? 0 : 1;
    total.positions += t.positions;
    total.bytes += t.bytes;
}

}  // namespace

Outcome<TableInventory> take_inventory(const std::vector<std::filesystem::path>& dirs, bool quick) {
    TableInventory inventory;
    for (const std::filesystem::path& dir : dirs) {
        std::error_code ec;
        std::vector<std::filesystem::path> paths;
        for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
            paths.push_back(it->path());
        if (ec) return Failure{Status::io_error, "cannot list " + dir.string() + ": " + ec.message()};
        std::sort(paths.begin(), paths.end());
        for (const auto& path : paths)
            if (const auto name = probed_table_name(path.filename().string()))
                inventory.tables.push_back(inspect(path, *name, quick));
    }
    if (inventory.tables.empty()) {
        std::string where;
        for (const auto& d : dirs) where += (where.empty() ? "" : ", ") + d.string();
        return Failure{Status::missing_table, "no table files (NAME.wdl, NAME.dtw) in " + where};
    }
    // Smallest material first, as the tables are built.
    const auto order = [](const TableInfo& t) {
        return std::make_tuple(t.name.variant, t.name.signature.total(), t.name.signature.name(), t.name.metric);
    };
    std::stable_sort(inventory.tables.begin(), inventory.tables.end(),
                     [&](const TableInfo& a, const TableInfo& b) { return order(a) < order(b); });
    for (const TableInfo& t : inventory.tables) {
        add(inventory.totals[{t.name.variant, t.name.metric}], t);
        add(inventory.all, t);
    }
    return inventory;
}

}  // namespace dtb::probe
