// The Parquet writer of pesim::parquet (layout in pesim/parquet.hpp). Field ids and enum values
// are those of parquet.thrift; the comments name each field as the specification does.
#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/page_compressor.hpp"
#include "io/thrift_compact.hpp"
#include "pesim/errors.hpp"
#include "pesim/parquet.hpp"

namespace pesim::parquet {

namespace {

// parquet.thrift enum values.
constexpr std::int32_t kTypeDouble = 5;
constexpr std::int32_t kTypeByteArray = 6;
constexpr std::int32_t kConvertedUtf8 = 0;
constexpr std::int32_t kRepetitionRequired = 0;
constexpr std::int32_t kEncodingPlain = 0;
constexpr std::int32_t kEncodingRle = 3;
constexpr std::int32_t kPageTypeData = 0;
constexpr std::int32_t kFileVersion = 1;

constexpr char kMagic[4] = {'P', 'A', 'R', '1'};
// Generous upper bounds of the Thrift-encoded sizes, for the single allocation of the output.
constexpr std::size_t kPageHeaderBound = 64;
constexpr std::size_t kColumnFooterBound = 256;
constexpr std::size_t kFooterBaseBound = 256;

[[noreturn]] void invalid(const std::string& field, const std::string& message) {
  throw InputError(ErrorCode::EncodeInvalid, field, message);
}

// The sink plus the count of bytes handed to it (the file offset of the next byte) and a small
// buffer for the Thrift-encoded pieces.
class Output {
 public:
  explicit Output(ByteSink& sink, std::size_t position = 0) : sink_(sink), position_(position) {}
  void put(const std::uint8_t* bytes, std::size_t size) {
    if (size == 0) return;
    sink_.append(bytes, size);
    position_ += size;
  }
  // Encodes a Thrift structure with `encode(CompactWriter&)` and hands it over.
  template <typename Encode>
  std::size_t putEncoded(Encode&& encode) {
    small_.clear();
    io::CompactWriter w(small_);
    encode(w);
    put(small_.data(), small_.size());
    return small_.size();
  }
  void putMagic() { put(reinterpret_cast<const std::uint8_t*>(kMagic), sizeof kMagic); }
  std::size_t position() const { return position_; }

 private:
  ByteSink& sink_;
  std::size_t position_;
  std::vector<std::uint8_t> small_;
};

// The whole file in one vector, allocated once at an upper bound of its size.
class VectorSink final : public ByteSink {
 public:
  explicit VectorSink(std::size_t capacity) { bytes_.reserve(capacity); }
  void append(const std::uint8_t* bytes, std::size_t size) override { bytes_.insert(bytes_.end(), bytes, bytes + size); }
  std::vector<std::uint8_t> take() { return std::move(bytes_); }

 private:
  std::vector<std::uint8_t> bytes_;
};

bool knownCodec(Codec codec) {
  return codec == Codec::Uncompressed || codec == Codec::Snappy || codec == Codec::Gzip || codec == Codec::Lz4Raw;
}

using ChunkInfo = ChunkMeta;

// nan_count and min/max of the non-NaN values (comparisons with NaN are false, so NaNs never
// move either bound); a zero minimum is written as -0 and a zero maximum as +0 (specification).
void computeStatistics(const double* values, std::size_t rows, ChunkInfo& info) {
  // Four independent minima, maxima and NaN counts: one running minimum waits for its previous
  // comparison at every value (a chain of 20 000 dependent minsd for a run's column), four keep
  // the comparator busy. NaN never replaces a bound (v < lo is false), so the minimum of the
  // numbers does not depend on the order; only the sign of a zero could, and it is fixed below.
  constexpr std::size_t kLanes = 4;
  double lo[kLanes], hi[kLanes];
  std::size_t nans[kLanes] = {};
  for (std::size_t k = 0; k < kLanes; ++k) {
    lo[k] = std::numeric_limits<double>::infinity();
    hi[k] = -std::numeric_limits<double>::infinity();
  }
  std::size_t i = 0;
  for (; i + kLanes <= rows; i += kLanes) {
    for (std::size_t k = 0; k < kLanes; ++k) {
      const double v = values[i + k];
      nans[k] += v != v;
      lo[k] = v < lo[k] ? v : lo[k];
      hi[k] = v > hi[k] ? v : hi[k];
    }
  }
  for (std::size_t k = 0; i < rows; ++i, ++k) {
    const double v = values[i];
    nans[k] += v != v;
    lo[k] = v < lo[k] ? v : lo[k];
    hi[k] = v > hi[k] ? v : hi[k];
  }
  for (std::size_t k = 1; k < kLanes; ++k) {
    nans[0] += nans[k];
    lo[0] = lo[k] < lo[0] ? lo[k] : lo[0];
    hi[0] = hi[k] > hi[0] ? hi[k] : hi[0];
  }
  const std::size_t nanCount = nans[0];
  const double lowest = lo[0], highest = hi[0];
  info.nanCount = static_cast<std::int64_t>(nanCount);
  info.hasMinMax = nanCount < rows;
  info.min = lowest == 0.0 ? -0.0 : lowest;
  info.max = highest == 0.0 ? 0.0 : highest;
}

// The PLAIN encoding of a double: its IEEE 754 bits, little-endian.
void plainDouble(double value, std::uint8_t* bytes) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<std::uint8_t>(bits >> (8 * i));
}

std::string_view asText(const std::uint8_t* bytes, std::size_t size) {
  return {reinterpret_cast<const char*>(bytes), size};
}

constexpr bool kLittleEndian =
#if defined(__BYTE_ORDER__) && defined(__ORDER_BIG_ENDIAN__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    false;
#else
    true;
#endif

// PageHeader{type, uncompressed_page_size, compressed_page_size, data_page_header}.
void writePageHeader(io::CompactWriter& w, std::size_t values, std::size_t rawBytes, std::size_t storedBytes) {
  w.structBegin();
  w.fieldI32(1, kPageTypeData);
  w.fieldI32(2, static_cast<std::int32_t>(rawBytes));
  w.fieldI32(3, static_cast<std::int32_t>(storedBytes));
  w.fieldStructBegin(5);  // DataPageHeader
  w.fieldI32(1, static_cast<std::int32_t>(values));  // num_values
  w.fieldI32(2, kEncodingPlain);                     // encoding
  w.fieldI32(3, kEncodingRle);                       // definition_level_encoding (no levels: REQUIRED)
  w.fieldI32(4, kEncodingRle);                       // repetition_level_encoding
  w.structEnd();
  w.structEnd();
}

// The values a column's codec is tried on (see pesim/parquet.hpp): the whole column up to
// 3 * kSampleSlice values, else kSampleSlice values at its start, middle and end.
constexpr std::size_t kSampleSlice = 1024;

// Buffers of the codec trial, reused from column to column.
struct SampleBuffers {
  std::vector<std::uint8_t> plain;
  std::vector<std::uint8_t> compressed;
};

// The outcome of trying the codec on a column's sample; `compressed` bytes of it are in
// SampleBuffers::compressed, and when the sample was the whole column they are its compressed data.
struct CodecTrial {
  bool keep = true;
  bool wholeColumn = false;
  std::size_t compressed = 0;
};

// Whether the compressor shrinks the column's sample by at least `minSaving` (a fraction).
CodecTrial tryCodec(const double* values, std::size_t rows, io::PageCompressor& compressor, double minSaving, SampleBuffers& buffers) {
  CodecTrial trial;
  if (minSaving <= 0.0) return trial;
  trial.wholeColumn = rows <= 3 * kSampleSlice;
  const std::size_t sliceValues = trial.wholeColumn ? rows : kSampleSlice;
  const std::size_t starts[3] = {0, rows / 2 - sliceValues / 2, rows - sliceValues};
  const std::size_t slices = trial.wholeColumn ? 1 : 3;
  buffers.plain.resize(slices * sliceValues * sizeof(double));
  for (std::size_t s = 0; s < slices; ++s) {
    for (std::size_t i = 0; i < sliceValues; ++i) plainDouble(values[starts[s] + i], &buffers.plain[(s * sliceValues + i) * sizeof(double)]);
  }
  buffers.compressed.resize(compressor.bound(buffers.plain.size()));
  trial.compressed = compressor.compress(buffers.plain.data(), buffers.plain.size(), buffers.compressed.data(), buffers.compressed.size());
  trial.keep = static_cast<double>(trial.compressed) <= (1.0 - minSaving) * static_cast<double>(buffers.plain.size());
  return trial;
}

double minSampleSaving(const WriteOptions& options) {
  return options.minSampleSaving.value_or(defaultMinSampleSaving(options.codec));
}

// The pages of one column; `scratch` holds one compressed page (and, on big-endian hosts, the
// little-endian copy of the values). Uncompressed pages go to the sink straight from `values`.
// `decided`: whether the column keeps the codec, decided beforehand (WriteOptions::keepCodec);
// absent, the codec is tried on its sample.
ChunkInfo writeColumnChunk(Output& out, const double* values, std::size_t rows, const WriteOptions& options,
                           io::PageCompressor& compressor, std::vector<std::uint8_t>& scratch, std::vector<std::uint8_t>& swapped,
                           SampleBuffers& sample, std::optional<bool> decided = std::nullopt) {
  const std::size_t pageValues = options.pageValues;
  ChunkInfo info;
  info.dataPageOffset = static_cast<std::int64_t>(out.position());
  const CodecTrial trial = compressor.codec() == Codec::Uncompressed ? CodecTrial{false, false, 0}
                           : decided                                  ? CodecTrial{*decided, false, 0}
                                                                      : tryCodec(values, rows, compressor, minSampleSaving(options), sample);
  info.codec = trial.keep ? compressor.codec() : Codec::Uncompressed;
  for (std::size_t start = 0; start < rows; start += pageValues) {
    const std::size_t count = std::min(pageValues, rows - start);
    const std::size_t rawBytes = count * sizeof(double);
    const auto* raw = reinterpret_cast<const std::uint8_t*>(values + start);
    if (!kLittleEndian) {
      swapped.resize(rawBytes);
      for (std::size_t i = 0; i < count; ++i) plainDouble(values[start + i], &swapped[8 * i]);
      raw = swapped.data();
    }
    const std::uint8_t* stored = raw;
    std::size_t storedBytes = rawBytes;
    if (trial.keep && trial.wholeColumn && count == rows) {
      stored = sample.compressed.data();  // the trial compressed exactly this page already
      storedBytes = trial.compressed;
    } else if (trial.keep) {
      storedBytes = compressor.compress(raw, rawBytes, scratch.data(), scratch.size());
      stored = scratch.data();
    }
    const std::size_t headerBytes = out.putEncoded([&](io::CompactWriter& w) { writePageHeader(w, count, rawBytes, storedBytes); });
    out.put(stored, storedBytes);
    info.compressedSize += static_cast<std::int64_t>(headerBytes + storedBytes);
    info.uncompressedSize += static_cast<std::int64_t>(headerBytes + rawBytes);
  }
  computeStatistics(values, rows, info);
  return info;
}

// ColumnChunk{file_offset, meta_data: ColumnMetaData{...}} of one column.
void writeColumnChunkMeta(io::CompactWriter& w, const std::string& name, std::size_t rows, const ChunkInfo& info) {
  const bool doubles = info.kind == ColumnKind::Double;
  w.structBegin();
  w.fieldI64(2, 0);  // file_offset: deprecated, 0 when no ColumnMetaData is written outside the footer
  w.fieldStructBegin(3);
  w.fieldI32(1, doubles ? kTypeDouble : kTypeByteArray);
  w.fieldListBegin(2, io::CompactType::I32, 2);  // encodings
  w.elementI32(kEncodingPlain);
  w.elementI32(kEncodingRle);
  w.fieldListBegin(3, io::CompactType::Binary, 1);  // path_in_schema
  w.elementBinary(name);
  w.fieldI32(4, static_cast<std::int32_t>(info.codec));
  w.fieldI64(5, static_cast<std::int64_t>(rows));  // num_values
  w.fieldI64(6, info.uncompressedSize);
  w.fieldI64(7, info.compressedSize);
  w.fieldI64(9, info.dataPageOffset);
  w.fieldStructBegin(12);  // Statistics
  w.fieldI64(3, 0);        // null_count
  if (doubles && info.hasMinMax) {
    std::uint8_t max[8];
    std::uint8_t min[8];
    plainDouble(info.max, max);
    plainDouble(info.min, min);
    w.fieldBinary(5, asText(max, 8));  // max_value
    w.fieldBinary(6, asText(min, 8));  // min_value
    w.fieldBool(7, true);                        // is_max_value_exact
    w.fieldBool(8, true);                        // is_min_value_exact
  }
  if (doubles) w.fieldI64(9, info.nanCount);  // nan_count: floating-point columns only
  w.structEnd();  // Statistics
  w.structEnd();  // ColumnMetaData
  w.structEnd();  // ColumnChunk
}

// FileMetaData of a file of these columns and row groups.
void writeFooter(io::CompactWriter& w, const std::vector<TableColumn>& schema, const std::vector<RowGroupMeta>& groups,
                 const WriteOptions& options) {
  std::size_t rows = 0;
  for (const RowGroupMeta& group : groups) rows += group.rows;
  w.structBegin();  // FileMetaData
  w.fieldI32(1, kFileVersion);
  w.fieldListBegin(2, io::CompactType::Struct, schema.size() + 1);  // schema: root, then the leaves
  w.structBegin();
  w.fieldBinary(4, "schema");
  w.fieldI32(5, static_cast<std::int32_t>(schema.size()));  // num_children
  w.structEnd();
  for (const TableColumn& column : schema) {
    const bool text = column.kind == ColumnKind::String;
    w.structBegin();
    w.fieldI32(1, text ? kTypeByteArray : kTypeDouble);
    w.fieldI32(3, kRepetitionRequired);
    w.fieldBinary(4, column.name);
    if (text) {
      w.fieldI32(6, kConvertedUtf8);  // converted_type
      w.fieldStructBegin(10);         // logicalType (a union): STRING
      w.fieldStructBegin(1);
      w.structEnd();
      w.structEnd();
    }
    w.structEnd();
  }
  w.fieldI64(3, static_cast<std::int64_t>(rows));
  w.fieldListBegin(4, io::CompactType::Struct, groups.size());  // row_groups
  for (const RowGroupMeta& group : groups) {
    std::int64_t uncompressed = 0;
    std::int64_t compressed = 0;
    for (const ChunkInfo& chunk : group.chunks) {
      uncompressed += chunk.uncompressedSize;
      compressed += chunk.compressedSize;
    }
    w.structBegin();  // RowGroup
    w.fieldListBegin(1, io::CompactType::Struct, group.chunks.size());
    for (std::size_t i = 0; i < group.chunks.size(); ++i) writeColumnChunkMeta(w, schema[i].name, group.rows, group.chunks[i]);
    w.fieldI64(2, uncompressed);  // total_byte_size
    w.fieldI64(3, static_cast<std::int64_t>(group.rows));
    w.fieldI64(5, group.chunks.front().dataPageOffset);  // file_offset
    w.fieldI64(6, compressed);                            // total_compressed_size
    w.structEnd();
  }
  w.fieldListBegin(5, io::CompactType::Struct, options.metadata.size());  // key_value_metadata
  for (const auto& [key, value] : options.metadata) {
    w.structBegin();
    w.fieldBinary(1, key);
    w.fieldBinary(2, value);
    w.structEnd();
  }
  w.fieldBinary(6, options.createdBy);
  w.fieldListBegin(7, io::CompactType::Struct, schema.size());  // column_orders: TYPE_ORDER each
  for (std::size_t i = 0; i < schema.size(); ++i) {
    w.structBegin();        // ColumnOrder (a union)
    w.fieldStructBegin(1);  // TYPE_ORDER: TypeDefinedOrder {}
    w.structEnd();
    w.structEnd();
  }
  w.structEnd();  // FileMetaData
}

// The footer, its length as a little-endian u32, and "PAR1".
void putFooter(Output& out, const std::vector<TableColumn>& schema, const std::vector<RowGroupMeta>& groups, const WriteOptions& options) {
  const std::size_t footerLength = out.putEncoded([&](io::CompactWriter& w) { writeFooter(w, schema, groups, options); });
  if (footerLength > std::numeric_limits<std::uint32_t>::max()) invalid("metadata", "the file metadata exceeds 4 GiB");
  std::uint8_t length[4];
  for (int i = 0; i < 4; ++i) length[i] = static_cast<std::uint8_t>(footerLength >> (8 * i));
  out.put(length, sizeof length);
  out.putMagic();
}

// The PLAIN encoding of strings[first, first + count): each a little-endian u32 length, then its bytes.
void plainStrings(const std::vector<std::string>& strings, std::size_t first, std::size_t count, std::vector<std::uint8_t>& out) {
  out.clear();
  for (std::size_t i = first; i < first + count; ++i) {
    const std::string& value = strings[i];
    const auto size = static_cast<std::uint32_t>(value.size());
    for (int b = 0; b < 4; ++b) out.push_back(static_cast<std::uint8_t>(size >> (8 * b)));
    out.insert(out.end(), value.begin(), value.end());
  }
}

// The pages of one string column: values gathered until a page holds kMaxPageBytes (at least one
// value each); the codec is kept for the whole chunk when it shrinks the first page by
// options.minSampleSaving.
ChunkInfo writeStringChunk(Output& out, const std::vector<std::string>& strings, const WriteOptions& options,
                           io::PageCompressor& compressor) {
  ChunkInfo info;
  info.kind = ColumnKind::String;
  info.dataPageOffset = static_cast<std::int64_t>(out.position());
  std::vector<std::uint8_t> plain;
  std::vector<std::uint8_t> compressed;
  bool keep = compressor.codec() != Codec::Uncompressed;
  bool decided = false;
  for (std::size_t first = 0; first < strings.size();) {
    std::size_t bytes = 0;
    std::size_t count = 0;
    while (first + count < strings.size() && (count == 0 || bytes + 4 + strings[first + count].size() <= kMaxPageBytes) &&
           count < options.pageValues) {
      bytes += 4 + strings[first + count].size();
      ++count;
    }
    plainStrings(strings, first, count, plain);
    const std::uint8_t* stored = plain.data();
    std::size_t storedBytes = plain.size();
    if (keep) {
      compressed.resize(compressor.bound(plain.size()));
      const std::size_t size = compressor.compress(plain.data(), plain.size(), compressed.data(), compressed.size());
      const double minSaving = minSampleSaving(options);
      if (!decided && minSaving > 0.0) keep = static_cast<double>(size) <= (1.0 - minSaving) * static_cast<double>(plain.size());
      if (keep) {
        stored = compressed.data();
        storedBytes = size;
      }
    }
    decided = true;
    const std::size_t headerBytes = out.putEncoded([&](io::CompactWriter& w) { writePageHeader(w, count, plain.size(), storedBytes); });
    out.put(stored, storedBytes);
    info.compressedSize += static_cast<std::int64_t>(headerBytes + storedBytes);
    info.uncompressedSize += static_cast<std::int64_t>(headerBytes + plain.size());
    first += count;
  }
  info.codec = keep ? compressor.codec() : Codec::Uncompressed;
  return info;
}

void validate(const std::vector<std::string>& names, const std::vector<const double*>& columns, std::size_t rows,
              const WriteOptions& options) {
  if (columns.empty()) invalid("columns", "columns must hold at least one column");
  if (names.size() != columns.size()) {
    invalid("names", "names has " + std::to_string(names.size()) + " entries but there are " + std::to_string(columns.size()) + " columns");
  }
  if (rows > static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max()) / sizeof(double)) {
    invalid("rows", "rows is too large (" + std::to_string(rows) + ")");
  }
  for (std::size_t i = 0; i < columns.size() && rows > 0; ++i) {
    if (columns[i] == nullptr) invalid("columns[" + std::to_string(i) + "]", "columns[" + std::to_string(i) + "] has no data");
  }
  if (!knownCodec(options.codec)) invalid("codec", "codec " + std::to_string(static_cast<int>(options.codec)) + " is not supported");
  if (options.pageValues == 0 || options.pageValues > kMaxPageValues) {
    invalid("pageValues", "pageValues must be from 1 to " + std::to_string(kMaxPageValues));
  }
  if (!options.keepCodec.empty() && options.keepCodec.size() != columns.size()) {
    invalid("keepCodec", "keepCodec has " + std::to_string(options.keepCodec.size()) + " entries but there are " + std::to_string(columns.size()) + " columns");
  }
  if (options.minSampleSaving && !(*options.minSampleSaving >= 0.0 && *options.minSampleSaving <= 1.0)) {
    invalid("minSampleSaving", "minSampleSaving must be from 0 to 1");
  }
}

}  // namespace

Codec codecFromName(const std::string& name) {
  if (name == "none") return Codec::Uncompressed;
  if (name == "snappy") return Codec::Snappy;
  if (name == "gzip") return Codec::Gzip;
  if (name == "lz4") return Codec::Lz4Raw;
  invalid("codec", "codec must be one of none, snappy, gzip, lz4 (got \"" + name + "\")");
}

double defaultMinSampleSaving(Codec codec) {
  return codec == Codec::Snappy || codec == Codec::Lz4Raw ? 0.125 : 0.03;
}

const char* codecName(Codec codec) {
  switch (codec) {
    case Codec::Uncompressed: return "UNCOMPRESSED";
    case Codec::Snappy: return "SNAPPY";
    case Codec::Gzip: return "GZIP";
    case Codec::Lz4Raw: return "LZ4_RAW";
  }
  return "UNKNOWN";
}

namespace {

// The file, for arguments validate() has accepted.
std::vector<bool> writeValidated(ByteSink& sink, const std::vector<std::string>& names, const std::vector<const double*>& columns,
                                 std::size_t rows, const WriteOptions& options) {
  io::PageCompressor compressor(options.codec);
  Output out(sink);
  out.putMagic();
  std::vector<std::uint8_t> scratch(compressor.codec() == Codec::Uncompressed || rows == 0 ? 0 : compressor.bound(std::min(rows, options.pageValues) * sizeof(double)));
  std::vector<std::uint8_t> swapped;
  SampleBuffers sample;
  std::vector<ChunkInfo> chunks;  // empty when there are no rows: the file then has no row group
  if (rows > 0) {
    chunks.reserve(columns.size());
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const std::optional<bool> decided = options.keepCodec.empty() ? std::nullopt : std::optional<bool>(options.keepCodec[i]);
      chunks.push_back(writeColumnChunk(out, columns[i], rows, options, compressor, scratch, swapped, sample, decided));
    }
  }
  std::vector<bool> kept;
  kept.reserve(chunks.size());
  for (const ChunkInfo& chunk : chunks) kept.push_back(chunk.codec != Codec::Uncompressed);
  std::vector<TableColumn> schema;
  schema.reserve(names.size());
  for (const std::string& name : names) schema.push_back({name, ColumnKind::Double});
  std::vector<RowGroupMeta> groups;
  if (rows > 0) groups.push_back({rows, std::move(chunks)});
  putFooter(out, schema, groups, options);
  return kept;
}

}  // namespace

std::vector<bool> writeDoubleColumns(ByteSink& sink, const std::vector<std::string>& names, const std::vector<const double*>& columns,
                                     std::size_t rows, const WriteOptions& options) {
  validate(names, columns, rows, options);
  return writeValidated(sink, names, columns, rows, options);
}

std::vector<std::uint8_t> writeDoubleColumns(const std::vector<std::string>& names, const std::vector<const double*>& columns,
                                             std::size_t rows, const WriteOptions& options) {
  validate(names, columns, rows, options);
  io::PageCompressor compressor(options.codec);
  const std::size_t fullPages = rows / options.pageValues;
  const std::size_t lastPageValues = rows % options.pageValues;
  const auto pageBound = [&](std::size_t values) { return kPageHeaderBound + compressor.bound(values * sizeof(double)); };
  std::size_t columnBound = fullPages * pageBound(options.pageValues) + (lastPageValues > 0 ? pageBound(lastPageValues) : 0);
  std::size_t footerBound = kFooterBaseBound + options.createdBy.size();
  for (const std::string& name : names) footerBound += kColumnFooterBound + 2 * name.size();
  for (const auto& [key, value] : options.metadata) footerBound += 32 + key.size() + value.size();
  VectorSink sink(2 * sizeof kMagic + columns.size() * columnBound + footerBound + 4);
  writeValidated(sink, names, columns, rows, options);
  return sink.take();
}

void writeTableHeader(ByteSink& sink) {
  Output out(sink);
  out.putMagic();
}

RowGroupMeta writeRowGroup(ByteSink& sink, std::size_t offset, const std::vector<TableColumn>& schema,
                           const std::vector<ColumnValues>& values, std::size_t rows, const WriteOptions& options) {
  if (schema.empty()) invalid("columns", "a table needs at least one column");
  if (values.size() != schema.size()) {
    invalid("columns", "columns has " + std::to_string(values.size()) + " entries but the schema has " + std::to_string(schema.size()));
  }
  if (rows == 0) invalid("rows", "a row group needs at least one row");
  for (std::size_t i = 0; i < schema.size(); ++i) {
    const std::string field = "columns[" + std::to_string(i) + "]";
    const bool text = schema[i].kind == ColumnKind::String;
    if (text ? values[i].strings == nullptr : values[i].doubles == nullptr) {
      invalid(field, field + " (" + schema[i].name + ") must hold " + (text ? "strings" : "doubles"));
    }
    if (text && values[i].strings->size() != rows) {
      invalid(field, field + " has " + std::to_string(values[i].strings->size()) + " values but the row group has " + std::to_string(rows) + " rows");
    }
  }
  if (!knownCodec(options.codec)) invalid("codec", "codec " + std::to_string(static_cast<int>(options.codec)) + " is not supported");
  if (options.pageValues == 0 || options.pageValues > kMaxPageValues) {
    invalid("pageValues", "pageValues must be from 1 to " + std::to_string(kMaxPageValues));
  }
  io::PageCompressor compressor(options.codec);
  Output out(sink, offset);
  std::vector<std::uint8_t> scratch(compressor.codec() == Codec::Uncompressed ? 0 : compressor.bound(std::min(rows, options.pageValues) * sizeof(double)));
  std::vector<std::uint8_t> swapped;
  SampleBuffers sample;
  RowGroupMeta group;
  group.rows = rows;
  group.chunks.reserve(schema.size());
  for (std::size_t i = 0; i < schema.size(); ++i) {
    group.chunks.push_back(schema[i].kind == ColumnKind::String
                               ? writeStringChunk(out, *values[i].strings, options, compressor)
                               : writeColumnChunk(out, values[i].doubles, rows, options, compressor, scratch, swapped, sample));
  }
  return group;
}

void writeTableFooter(ByteSink& sink, const std::vector<TableColumn>& schema, const std::vector<RowGroupMeta>& groups,
                      const WriteOptions& options) {
  if (schema.empty()) invalid("columns", "a table needs at least one column");
  std::size_t offset = kTableHeaderBytes;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].chunks.size() != schema.size()) {
      invalid("groups[" + std::to_string(g) + "]", "row group " + std::to_string(g) + " has " + std::to_string(groups[g].chunks.size()) + " column chunks, the schema " + std::to_string(schema.size()) + " columns");
    }
    for (std::size_t i = 0; i < schema.size(); ++i) {
      if (groups[g].chunks[i].kind != schema[i].kind) invalid("groups[" + std::to_string(g) + "]", "row group " + std::to_string(g) + " column " + std::to_string(i) + " is not of the schema's kind");
    }
    offset = static_cast<std::size_t>(groups[g].chunks.back().dataPageOffset + groups[g].chunks.back().compressedSize);
  }
  Output out(sink, offset);
  putFooter(out, schema, groups, options);
}

}  // namespace pesim::parquet
