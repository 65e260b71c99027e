// Checksum lists: the XXH3-64 and size of every distributed file of a table
// set (docs/FORMAT.md, "Checksum lists"), written by `dtb verify
// --write-checksums FILE` once every table of the set is found consistent,
// and checked by `dtb verify --checksums FILE DIR`: a copy of the set is
// then shown to be the one verified, file by file, in the time it takes to
// read it, without recomputing a value.
//
// A list covers the files engines and dtb read (.wdl, .dtw and, when
// present, .dtc), never the manifests, exact tables or scratch files, which
// a set need not carry.
#pragma once

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rules/variant.hpp"

namespace dtb {

// A list that is not one: the message starts with "FILE:LINE: " (or
// "FILE: " for what concerns the whole list) and says what is wrong.
class BadChecksumList : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The first line of every list.
inline constexpr std::string_view kChecksumListTitle = "# dtb checksum list";

// One file of a list: its name in the set's directory, its size in bytes,
// and the XXH3-64 of its whole content.
struct ChecksumEntry {
    std::string name;
    std::uint64_t size = 0;
    std::uint64_t xxh3 = 0;
    int pieces = 0;  // the pieces of its table, from the name
};

struct ChecksumList {
    VariantId variant = VariantId::Russian;
    int pieces = 0;  // the largest table's pieces
    int tables = 0;  // signatures with at least one file in the list
    // Who wrote it ("dtb 0.1.0, table format 2"): said, never checked.
    std::string written_by;
    std::vector<ChecksumEntry> entries;  // sorted by name
};

// The size of a file and the XXH3-64 of its content, read whole in pieces
// of 1 MiB. Throws std::runtime_error naming the file and the system's reason.
struct FileChecksum {
    std::uint64_t size = 0;
    std::uint64_t xxh3 = 0;
};
FileChecksum checksum_file(const std::filesystem::path& path);

// The files a list of `variant` covers in `dir`: every name
// parse_table_file_name accepts for the variant with the extension .wdl,
// .dtw or .dtc, sorted by name (bytewise). Throws std::runtime_error naming
// the directory when it cannot be read.
std::vector<std::string> distributed_table_files(VariantId variant, const std::filesystem::path& dir);

// The list of those files as they are now (each read whole, several at
// once on the OpenMP threads).
ChecksumList make_checksum_list(VariantId variant, const std::filesystem::path& dir, std::string written_by);

// The list's text, byte for byte as docs/FORMAT.md describes it.
std::string checksum_list_text(const ChecksumList& list);

// Reads a list's text; `where` names it in messages. Blank lines, lines
// starting with '#' and CR LF line ends are allowed; any entry that is not
// exactly "XXH3 SIZE NAME", a name that is not a distributed table file of
// the list's variant, a name listed twice, a missing or contradicted
// "variant", "pieces" or "tables" line throws BadChecksumList.
ChecksumList parse_checksum_list(std::string_view text, const std::string& where);

// The list in `path`. Throws std::runtime_error naming the file and the
// system's reason when it cannot be read, BadChecksumList when it is not a list.
ChecksumList read_checksum_list(const std::filesystem::path& path);

// Writes `list` to `path` atomically (compress/atomic_file.hpp).
void write_checksum_list(const std::filesystem::path& path, const ChecksumList& list);

// A listed file found with another size or content.
struct ChecksumMismatch {
    std::string name;
    std::uint64_t expected_size = 0, found_size = 0;
    std::uint64_t expected_xxh3 = 0, found_xxh3 = 0;
};

// A listed file that is there but could not be read, and why.
struct UnreadableFile {
    std::string name;
    std::string reason;
};

struct ChecksumCheck {
    std::size_t files_checked = 0;   // the entries checked (those within max_pieces)
    std::size_t tables_checked = 0;  // their signatures
    std::vector<std::string> missing;
    std::vector<ChecksumMismatch> mismatched;
    std::vector<UnreadableFile> unreadable;
    // Files of the list's variant in the directory (named like a .wdl, .dtw
    // or .dtc table file, within max_pieces when their name says) that the
    // list does not hold: reported, not a failure.
    std::vector<std::string> extra;
    bool ok() const { return missing.empty() && mismatched.empty() && unreadable.empty(); }
};

// Checks `dir` against `list`: every entry of a table of at most
// `max_pieces` pieces (0: every entry) is there, of the listed size and
// XXH3-64; each list of the result is sorted by name. Throws
// std::runtime_error naming the directory, with the system's reason, when
// it cannot be read.
ChecksumCheck check_checksum_list(const ChecksumList& list, const std::filesystem::path& dir, int max_pieces = 0);

// "b47e65d83805a09a": a checksum as lists write it.
std::string checksum_hex(std::uint64_t xxh3);

}  // namespace dtb
