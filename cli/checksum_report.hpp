// dtb verify's checksum lists (gen/checksum_list.hpp), in words and in
// JSON: `--checksums FILE`, which checks a directory against a list, and
// `--write-checksums FILE`, which writes one after a verify that passed.
#pragma once

#include <string>

#include "cli/options.hpp"
#include "gen/checksum_list.hpp"

namespace dtb {

// dtb verify --checksums LIST DIR [--pieces N] [--variant V] [--json]:
// prints each missing, different or unreadable file, each extra one, and a
// summary (or one JSON object); throws VerificationFailed when a listed
// file is missing, differs or cannot be read, InputError for a bad list, a
// --variant that is not the list's or a --pieces that leaves no entry.
void run_checksum_check(const std::string& list_path, const std::string& dir, const std::string& variant,
                        int max_pieces, bool json);

// "dtb 0.1.0, table format 2": what a list says wrote it.
std::string checksum_list_writer();

// Throws (exit status 1, naming the file and the system's reason) when
// `path` cannot be where a list is written: its directory is missing, or it
// is a directory. Checked before a verify that may take hours.
void check_checksum_list_destination(const std::string& path);

// "RUSSIAN ... written to FILE": the line dtb verify prints once it wrote
// `list` to `path`.
std::string checksums_written_text(const ChecksumList& list, const std::string& path);

}  // namespace dtb
