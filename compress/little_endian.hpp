// The one little-endian codec of dtb's files: every multi-byte number in a
// file dtb writes (docs/FORMAT.md) is stored least significant byte first.
// Byte by byte, so that it means the same on any machine; compilers turn
// these loops into single loads and stores on little-endian ones.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>

namespace dtb::compress {

// Stores `value` at `out`, sizeof(T) bytes, least significant first.
template <std::unsigned_integral T>
constexpr void put_le(std::uint8_t* out, T value) {
    for (std::size_t i = 0; i < sizeof(T); ++i) out[i] = static_cast<std::uint8_t>(value >> (8 * i));
}

// Reads what put_le<T> stored.
template <std::unsigned_integral T>
constexpr T get_le(const std::uint8_t* in) {
    T value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) value = static_cast<T>(value | (T{in[i]} << (8 * i)));
    return value;
}

inline constexpr void put_u16(std::uint8_t* out, std::uint16_t v) { put_le(out, v); }
inline constexpr void put_u32(std::uint8_t* out, std::uint32_t v) { put_le(out, v); }
inline constexpr void put_u64(std::uint8_t* out, std::uint64_t v) { put_le(out, v); }
inline constexpr std::uint16_t get_u16(const std::uint8_t* in) { return get_le<std::uint16_t>(in); }
inline constexpr std::uint32_t get_u32(const std::uint8_t* in) { return get_le<std::uint32_t>(in); }
inline constexpr std::uint64_t get_u64(const std::uint8_t* in) { return get_le<std::uint64_t>(in); }

}  // namespace dtb::compress
