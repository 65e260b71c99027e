#include "compress/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace dtb::compress {

AtomicFile::AtomicFile(std::filesystem::path path, bool durable) : final_(std::move(path)), durable_(durable) {
    temp_ = final_;
    temp_ += ".tmp";
    fd_ = ::open(temp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) fail("cannot create " + temp_.string());
}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(temp_.c_str());
}

void AtomicFile::write_at(std::uint64_t offset, std::span<const std::uint8_t> bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) fail("cannot write " + temp_.string());
        bytes = bytes.subspan(static_cast<std::size_t>(n));
        offset += static_cast<std::uint64_t>(n);
    }
}

void AtomicFile::commit() {
    if (durable_ && ::fsync(fd_) != 0) fail("cannot fsync " + temp_.string());
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) fail("cannot close " + temp_.string());
    if (::rename(temp_.c_str(), final_.c_str()) != 0) fail("cannot rename " + temp_.string());
    committed_ = true;
    if (!durable_) return;
    const std::filesystem::path dir = final_.has_parent_path() ? final_.parent_path() : ".";
    const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0) fail("cannot open directory " + dir.string());
    const int rc = ::fsync(dir_fd);
    ::close(dir_fd);
    if (rc != 0) fail("cannot fsync directory " + dir.string());
}

void AtomicFile::fail(const std::string& what) const {
    throw WriteError(final_.string() + ": " + what + ": " + std::strerror(errno));
}

void write_file_atomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
    AtomicFile file(path);
    file.write_at(0, bytes);
    file.commit();
}

void write_file_atomically(const std::filesystem::path& path, std::string_view text) {
    write_file_atomically(path, {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()});
}

}  // namespace dtb::compress
