// Page compression for the Parquet writer (see page_compressor.hpp).
#include "io/page_compressor.hpp"

#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>

#include <climits>
#include <new>
#include <stdexcept>
#include <string>

namespace pesim::io {

namespace {

constexpr int kGzipLevel = 6;            // zlib's default, and what other Parquet writers use
constexpr int kGzipWindowBits = 15 + 16;  // 32 KiB window, gzip wrapper instead of zlib's
constexpr int kZlibMemLevel = 8;

}  // namespace

void PageCompressor::ZlibDeleter::operator()(z_stream_s* stream) const {
  deflateEnd(stream);
  delete stream;
}

PageCompressor::PageCompressor(parquet::Codec codec) : codec_(codec) {
  if (codec_ != parquet::Codec::Gzip) return;
  auto stream = std::make_unique<z_stream>();  // zero-initialised: zalloc/zfree/opaque = Z_NULL
  const int status = deflateInit2(stream.get(), kGzipLevel, Z_DEFLATED, kGzipWindowBits, kZlibMemLevel, Z_DEFAULT_STRATEGY);
  if (status == Z_MEM_ERROR) throw std::bad_alloc();
  if (status != Z_OK) throw std::runtime_error("zlib deflateInit2 failed (" + std::to_string(status) + ")");
  zlib_.reset(stream.release());
}

PageCompressor::~PageCompressor() = default;

std::size_t PageCompressor::bound(std::size_t bytes) const {
  switch (codec_) {
    case parquet::Codec::Uncompressed: return bytes;
    case parquet::Codec::Snappy: return snappy_max_compressed_length(bytes);
    case parquet::Codec::Gzip: return deflateBound(zlib_.get(), static_cast<uLong>(bytes));
    case parquet::Codec::Lz4Raw: return static_cast<std::size_t>(LZ4_compressBound(static_cast<int>(bytes)));
  }
  return bytes;
}

std::size_t PageCompressor::compress(const std::uint8_t* in, std::size_t size, std::uint8_t* out, std::size_t capacity) {
  switch (codec_) {
    case parquet::Codec::Uncompressed: break;
    case parquet::Codec::Snappy: {
      std::size_t length = capacity;
      const snappy_status status = snappy_compress(reinterpret_cast<const char*>(in), size, reinterpret_cast<char*>(out), &length);
      if (status != SNAPPY_OK) throw std::runtime_error("snappy_compress failed (" + std::to_string(status) + ")");
      return length;
    }
    case parquet::Codec::Gzip: {
      z_stream* stream = zlib_.get();
      if (deflateReset(stream) != Z_OK) throw std::runtime_error("zlib deflateReset failed");
      // zlib's counts are uInt: a page (≤ 1 MiB) and its bound always fit.
      stream->next_in = const_cast<Bytef*>(in);  // zlib's API is not const-correct; it only reads
      stream->avail_in = static_cast<uInt>(size);
      stream->next_out = out;
      stream->avail_out = static_cast<uInt>(capacity > UINT_MAX ? UINT_MAX : capacity);
      const int status = deflate(stream, Z_FINISH);
      if (status != Z_STREAM_END) throw std::runtime_error("zlib deflate did not finish (" + std::to_string(status) + ")");
      return static_cast<std::size_t>(stream->total_out);
    }
    case parquet::Codec::Lz4Raw: {
      const int length = LZ4_compress_default(reinterpret_cast<const char*>(in), reinterpret_cast<char*>(out),
                                              static_cast<int>(size), static_cast<int>(capacity > INT_MAX ? INT_MAX : capacity));
      if (length <= 0 && size > 0) throw std::runtime_error("LZ4_compress_default failed");
      return static_cast<std::size_t>(length);
    }
  }
  throw std::logic_error("PageCompressor::compress called for an uncompressed column");
}

}  // namespace pesim::io
