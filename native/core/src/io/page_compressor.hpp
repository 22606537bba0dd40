// Compression of one Parquet page with the codec of a column chunk: snappy (raw block, libsnappy),
// gzip (zlib deflate, level 6, gzip wrapper: windowBits 15 + 16) and LZ4_RAW (one LZ4 block,
// liblz4). One compressor serves every page of a file; the zlib stream is set up once and reset
// per page.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "pesim/parquet.hpp"

struct z_stream_s;

namespace pesim::io {

class PageCompressor {
 public:
  explicit PageCompressor(parquet::Codec codec);
  ~PageCompressor();
  PageCompressor(const PageCompressor&) = delete;
  PageCompressor& operator=(const PageCompressor&) = delete;

  parquet::Codec codec() const { return codec_; }
  // The largest compressed size of a page of `bytes` bytes (`bytes` itself when uncompressed).
  std::size_t bound(std::size_t bytes) const;
  // Compresses `size` bytes into `out` (room for at least bound(size) bytes); returns the
  // compressed size. Not for Codec::Uncompressed (the writer copies those pages as they are).
  std::size_t compress(const std::uint8_t* in, std::size_t size, std::uint8_t* out, std::size_t capacity);

 private:
  struct ZlibDeleter {
    void operator()(z_stream_s* stream) const;
  };

  parquet::Codec codec_;
  std::unique_ptr<z_stream_s, ZlibDeleter> zlib_;  // gzip only
};

}  // namespace pesim::io
