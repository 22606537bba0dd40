// CRC-32 as zlib and gzip compute it (IEEE 802.3 polynomial 0x04C11DB7, bit-reflected, initial
// value and final XOR 0xFFFFFFFF), for the column checksums of result files.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pesim::checksum {

// zlib's crc32(crc, bytes, size): `crc` continued over `size` bytes (0 starts afresh), so
// crc32Update(crc32Update(0, a), b) == crc32Update(0, a then b). On x86 CPUs with PCLMULQDQ the
// bulk of the bytes is folded with carry-less multiplications; zlib's loop finishes the rest.
std::uint32_t crc32Update(std::uint32_t crc, const std::uint8_t* bytes, std::size_t size);

// CRC-32 of the column's little-endian bytes with every NaN taken as the canonical quiet NaN
// (bits 0x7FF8000000000000), so that the checksum does not depend on NaN payloads, which formats
// storing text cannot keep.
std::uint32_t columnCrc32(const double* values, std::size_t count);

}  // namespace pesim::checksum
