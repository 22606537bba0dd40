// CRC-32 of the result files: the folded path this CPU takes (VPCLMULQDQ with AVX-512 from 256
// bytes on, else PCLMULQDQ from 64) against zlib's crc32 for every length from 0 to 1 100 bytes at
// sixteen alignments and for a few large buffers, continuation of a running CRC, known check
// values, and the column checksum's canonical NaN (NaNs inside and after its blocks of 256 values).
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <zlib.h>

#include "harness.hpp"
#include "pesim/checksum.hpp"

namespace {

using pesim::checksum::columnCrc32;
using pesim::checksum::crc32Update;

std::uint32_t reference(std::uint32_t crc, const std::uint8_t* bytes, std::size_t size) {
  return static_cast<std::uint32_t>(::crc32_z(crc, bytes, size));
}

std::vector<std::uint8_t> pseudoRandomBytes(std::size_t size, std::uint32_t seed) {
  std::vector<std::uint8_t> bytes(size);
  std::uint32_t state = seed;
  for (auto& b : bytes) {
    state = state * 1664525u + 1013904223u;  // Numerical Recipes LCG
    b = static_cast<std::uint8_t>(state >> 24);
  }
  return bytes;
}

}  // namespace

TEST(crc32_matches_zlib_for_every_length_and_alignment) {
  const std::vector<std::uint8_t> data = pseudoRandomBytes(1100 + 16, 7);
  int mismatches = 0;
  for (std::size_t offset = 0; offset < 16; ++offset) {
    for (std::size_t size = 0; size + offset <= data.size() && size <= 1100; ++size) {
      mismatches += crc32Update(0, data.data() + offset, size) != reference(0, data.data() + offset, size);
    }
  }
  CHECK(mismatches == 0);
  for (std::size_t size : {std::size_t{65536}, std::size_t{80008}, std::size_t{1} << 20, std::size_t{3'000'013}}) {
    const std::vector<std::uint8_t> big = pseudoRandomBytes(size, static_cast<std::uint32_t>(size));
    CHECK(crc32Update(0, big.data(), big.size()) == reference(0, big.data(), big.size()));
  }
}

TEST(crc32_continues_a_running_crc_and_gives_the_check_value) {
  const char* check = "123456789";
  CHECK(crc32Update(0, reinterpret_cast<const std::uint8_t*>(check), 9) == 0xCBF43926u);  // the CRC-32 check value
  const std::vector<std::uint8_t> data = pseudoRandomBytes(5000, 11);
  for (std::size_t split : {std::size_t{0}, std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{100}, std::size_t{4999}}) {
    const std::uint32_t first = crc32Update(0, data.data(), split);
    CHECK(crc32Update(first, data.data() + split, data.size() - split) == reference(0, data.data(), data.size()));
  }
  const std::vector<std::uint8_t> zeros(4096, 0);
  CHECK(crc32Update(0xDEADBEEF, zeros.data(), zeros.size()) == reference(0xDEADBEEF, zeros.data(), zeros.size()));
}

TEST(column_checksum_takes_every_nan_as_the_canonical_nan) {
  std::vector<double> column(1000);
  for (std::size_t i = 0; i < column.size(); ++i) column[i] = 0.001 * static_cast<double>(i) - 0.3;
  const auto bytesCrc = [](const std::vector<double>& v) {
    return reference(0, reinterpret_cast<const std::uint8_t*>(v.data()), v.size() * sizeof(double));
  };
  CHECK(columnCrc32(column.data(), column.size()) == bytesCrc(column));
  std::vector<double> canonical = column;
  std::vector<double> payloads = column;
  const std::uint64_t quiet = 0x7FF8000000000000ull;
  const std::uint64_t withPayload = 0xFFF0000000000123ull;  // a negative signalling NaN with a payload
  for (std::size_t i : {std::size_t{0}, std::size_t{257}, std::size_t{999}}) {
    std::memcpy(&canonical[i], &quiet, sizeof quiet);
    std::memcpy(&payloads[i], &withPayload, sizeof withPayload);
  }
  CHECK(columnCrc32(payloads.data(), payloads.size()) == bytesCrc(canonical));
  CHECK(columnCrc32(canonical.data(), canonical.size()) == bytesCrc(canonical));
  CHECK(columnCrc32(nullptr, 0) == 0u);
}
