// The one way dtb writes a file: into NAME.tmp, then fsync, rename to NAME,
// and fsync of the directory. A reader therefore sees either no file or a
// complete one, even after a crash or a power cut; an interrupted run
// leaves at most a NAME.tmp, which the next write replaces.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

namespace dtb::compress {

// Any failure to write a file; the message names the file and the cause.
class WriteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A file being written: bytes go to `path` + ".tmp" (at any offset, in any
// order) until commit() puts it in place. Destroyed without commit(), it
// removes the temporary file. Throws WriteError.
class AtomicFile {
public:
    // durable = false skips both fsyncs: for scratch files that the next
    // run checks and remakes anyway (the generator's slices), where an fsync
    // per file would cost more than the file.
    explicit AtomicFile(std::filesystem::path path, bool durable = true);
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;
    ~AtomicFile();

    void write_at(std::uint64_t offset, std::span<const std::uint8_t> bytes);
    // fsync, rename, then fsync the directory so that the rename itself is
    // on disk: only then does the file exist under its name.
    void commit();

private:
    [[noreturn]] void fail(const std::string& what) const;

    std::filesystem::path final_, temp_;
    int fd_ = -1;
    bool committed_ = false;
    bool durable_ = true;
};

// A whole file at once: `bytes`, or `text` as it is.
void write_file_atomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);
void write_file_atomically(const std::filesystem::path& path, std::string_view text);

}  // namespace dtb::compress
