// Errors of the table reader. The reader never throws: engines call it
// millions of times per second, often from code built around error codes,
// and a corrupt file is an expected event there, not an exceptional one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace dtb::compress {

enum class ErrorCode : std::uint8_t {
    io,                   // the file could not be opened, read or mapped
    bad_magic,            // not a dtb table at all
    unsupported_version,  // a dtb table of a format version this build does not read
    corrupt_header,       // header checksum mismatch, or a field out of range
    corrupt_index,        // block index checksum mismatch, or offsets that do not add up
    corrupt_block,        // a block failed its checksum or did not decompress as expected
    corrupt_data,         // verify(): data checksum mismatch, or a symbol above max_symbol
    out_of_range,         // a position index >= the number of positions
};

std::string_view to_string(ErrorCode code);

// What went wrong, for a person: the message names the file and the place.
struct Error {
    ErrorCode code;
    std::string message;
};

// A value or an error (std::expected arrives only in C++23). The probe
// library uses it too, with its own error type.
template <class T, class E = Error>
class Result {
public:
    Result(T value) : v_(std::move(value)) {}  // NOLINT: implicit on purpose, like std::expected
    Result(E error) : v_(std::move(error)) {}  // NOLINT: likewise

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    // Only when ok().
    T& value() { return std::get<0>(v_); }
    const T& value() const { return std::get<0>(v_); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }

    // Only when !ok().
    const E& error() const { return std::get<1>(v_); }
    E&& take_error() { return std::get<1>(std::move(v_)); }

private:
    std::variant<T, E> v_;
};

}  // namespace dtb::compress
