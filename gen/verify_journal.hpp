// The journal of `dtb verify --journal FILE`: which tables a run found
// consistent, and the exact files each of those checks read. Verifying the
// largest sets takes hours; with a journal a run that was interrupted, or a
// later one, does not recompute what an earlier run already showed.
//
// A file is named by its header's fingerprint (XXH3-64 of its 128 header
// bytes, which hold the checksums of its block index and of its data). The
// verifier checks the table's own files block by block on every run, so
// their data is what the header says; a table is skipped only when every
// file its check read (its own, its mirror's, the smaller tables') still has
// the header it had then. A file written again since has another header and
// its parents are checked again.
//
// The file is JSON (docs/FORMAT.md "Verify journal"), rewritten atomically
// after each table, so an interrupted run leaves it whole.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "compress/format.hpp"
#include "rules/variant.hpp"
#include "tables/material_signature.hpp"

namespace dtb {

// One file a check read: its name in the directory, and its fingerprint.
struct FileFingerprint {
    std::string name;
    std::uint64_t header_hash = 0;
    friend bool operator==(const FileFingerprint&, const FileFingerprint&) = default;
};

// XXH3-64 of the 128 header bytes of a table file with header `h`.
std::uint64_t header_fingerprint(const compress::Header& h);

// A journal that cannot be used: not JSON, not a journal, another variant.
class BadJournal : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class VerifyJournal {
public:
    // The journal at `path`, or an empty one when there is no such file yet
    // (it is created by the first table found consistent). Throws BadJournal
    // naming the file when it is not a dtb verify journal of `variant`, or
    // when its directory does not exist.
    static VerifyJournal open(const std::filesystem::path& path, VariantId variant);

    const std::filesystem::path& path() const { return path_; }

    // When the journal holds `sig` as consistent, checked with exactly these
    // files (in any order) as they are now: the time of that check (UTC,
    // ISO 8601). Otherwise nothing.
    std::optional<std::string> vouches_for(const MaterialSignature& sig, std::vector<FileFingerprint> files) const;

    // `sig` was found consistent now, reading `files`. Writes the journal.
    void record(const MaterialSignature& sig, std::vector<FileFingerprint> files, std::uint64_t positions,
                double seconds);

    // `sig` was not found consistent: drops what the journal held of it, and
    // writes the journal if that changed it.
    void forget(const MaterialSignature& sig);

    std::size_t size() const { return entries_.size(); }

private:
    struct Entry {
        std::string verified_at;
        std::uint64_t positions = 0;
        double seconds = 0;
        std::vector<FileFingerprint> files;  // sorted by name
    };

    VerifyJournal(std::filesystem::path path, VariantId variant) : path_(std::move(path)), variant_(variant) {}
    void save() const;

    std::filesystem::path path_;
    VariantId variant_;
    std::map<std::string, Entry> entries_;  // by signature name
};

}  // namespace dtb
