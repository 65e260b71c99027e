#include "cli/checksum_report.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "compress/format.hpp"

namespace dtb {

std::string checksum_list_writer() {
    return "dtb " DTB_VERSION ", table format " + std::to_string(compress::kDefaultFormatVersion);
}

void check_checksum_list_destination(const std::string& path) {
    const std::filesystem::path p(path);
    const std::filesystem::path parent = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
    const auto fail = [&](const std::string& what, int error) {
        throw std::runtime_error("cannot write the checksum list " + path + ": " + what + ": " + std::strerror(error));
    };
    struct stat st {};
    if (::stat(parent.c_str(), &st) != 0) fail(parent.string(), errno);
    if (!S_ISDIR(st.st_mode)) fail(parent.string(), ENOTDIR);
    if (::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) fail(path, EISDIR);
}

std::string checksums_written_text(const ChecksumList& list, const std::string& path) {
    return "checksums of " + count_text(long(list.entries.size()), "file", "files") + " (" +
           count_text(list.tables, "table", "tables") + " of up to " + std::to_string(list.pieces) +
           " pieces) written to " + path;
}

void run_checksum_check(const std::string& list_path, const std::string& dir, const std::string& variant,
                        int max_pieces, bool json) {
    ChecksumList list;
    try {
        list = read_checksum_list(list_path);
    } catch (const BadChecksumList& e) {
        throw InputError(e.what());
    }
    const std::string list_variant(variant_name(list.variant));
    if (!variant.empty() && variant != list_variant)
        throw InputError("--variant " + variant + ", and the checksum list " + list_path + " is of " + list_variant +
                         " tables: leave out --variant, or give the list of " + variant + " tables");
    const bool scoped = max_pieces > 0 && max_pieces < list.pieces;
    if (scoped && std::none_of(list.entries.begin(), list.entries.end(),
                               [&](const ChecksumEntry& e) { return e.pieces <= max_pieces; }))
        throw InputError("the checksum list " + list_path + " has no table of up to " + std::to_string(max_pieces) +
                         " pieces");
    const ChecksumCheck check = check_checksum_list(list, dir, scoped ? max_pieces : 0);

    if (json) {
        Json mismatched = Json::array();
        for (const ChecksumMismatch& m : check.mismatched)
            mismatched.push_back(Json{{"name", m.name},
                                      {"expected_size", m.expected_size},
                                      {"found_size", m.found_size},
                                      {"expected_xxh3", checksum_hex(m.expected_xxh3)},
                                      {"found_xxh3", checksum_hex(m.found_xxh3)}});
        Json unreadable = Json::array();
        for (const UnreadableFile& u : check.unreadable)
            unreadable.push_back(Json{{"name", u.name}, {"reason", u.reason}});
        print_json(Json{{"variant", list_variant},
                        {"list", list_path},
                        {"dir", dir},
                        {"pieces", scoped ? Json(max_pieces) : Json(list.pieces)},
                        {"ok", check.ok()},
                        {"files_checked", check.files_checked},
                        {"tables_checked", check.tables_checked},
                        {"missing", check.missing},
                        {"mismatched", mismatched},
                        {"unreadable", unreadable},
                        {"extra", check.extra}});
    } else {
        for (const std::string& name : check.missing) std::cout << "missing: " << name << '\n';
        for (const ChecksumMismatch& m : check.mismatched) {
            if (m.found_size != m.expected_size)
                std::cout << "wrong size: " << m.name << ": " << m.found_size << " bytes, the list says "
                          << m.expected_size << '\n';
            else
                std::cout << "wrong checksum: " << m.name << ": XXH3-64 " << checksum_hex(m.found_xxh3)
                          << ", the list says " << checksum_hex(m.expected_xxh3) << '\n';
        }
        for (const UnreadableFile& u : check.unreadable)
            std::cout << "cannot read: " << u.name << ": " << u.reason << '\n';
        for (const std::string& name : check.extra) std::cout << "extra: " << name << " (not in the list)\n";
        const std::string files = count_text(long(check.files_checked), "file", "files") + " of " +
                                  std::to_string(check.tables_checked) + " " + list_variant +
                                  (check.tables_checked == 1 ? " table" : " tables") +
                                  (scoped ? " (those of up to " + std::to_string(max_pieces) + " pieces)" : "");
        if (check.ok()) {
            std::cout << "OK: " << files << " match " << list_path << '\n';
        } else {
            std::size_t sizes = 0;
            for (const ChecksumMismatch& m : check.mismatched) sizes += m.found_size != m.expected_size ? 1 : 0;
            // "1 missing, 2 of another checksum": the kinds found, in the order of the lines above.
            std::string what;
            for (const auto& [n, kind] :
                 {std::pair{check.missing.size(), "missing"}, std::pair{sizes, "of another size"},
                  std::pair{check.mismatched.size() - sizes, "of another checksum"},
                  std::pair{check.unreadable.size(), "unreadable"}})
                if (n) what += (what.empty() ? "" : ", ") + std::to_string(n) + " " + kind;
            std::cout << "FAILED: " << files << " checked against " << list_path << ": " << what << '\n';
        }
    }
    if (!check.ok()) throw VerificationFailed();
}

}  // namespace dtb
