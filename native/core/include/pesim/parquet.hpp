// A Parquet writer for simulation results: columns of doubles of one common length, written as
// one complete file in memory.
//
// Layout (Parquet format specification, parquet.thrift): "PAR1"; one row group (none when there
// are no rows) holding, per column, one column chunk of DATA_PAGE (v1) pages with PLAIN encoding
// (little-endian IEEE doubles, bits kept exactly: NaN payloads, -0, ±Infinity), of at most 1 MiB
// of values each, compressed page by page with the codec; the columns are REQUIRED DOUBLE leaves
// of the schema root, so pages carry no repetition or definition levels. Then the FileMetaData in
// the Thrift compact protocol (version 1, schema, num_rows, row group, key-value metadata,
// created_by, column orders), its length as a little-endian u32, and "PAR1". Each column chunk has
// statistics (null_count 0, nan_count, min/max of the non-NaN values with -0 as the minimum zero
// and +0 as the maximum zero), as the specification asks for floating-point columns.
//
// Codecs: UNCOMPRESSED; SNAPPY (raw snappy block); GZIP (zlib deflate with a gzip wrapper, level 6);
// LZ4_RAW (one LZ4 block per page, no frame). The codec is chosen per column chunk (the
// specification's ColumnMetaData.codec): a column the requested codec would barely shrink is
// written UNCOMPRESSED. The codec is tried on a sample (the whole column up to 3 072 values, else
// 1 024 values at its start, its middle and its end) and kept when the sample shrinks by at least
// WriteOptions::minSampleSaving (by default defaultMinSampleSaving(codec)). Simulated waveforms are
// mostly noise in their low mantissa bits and do not shrink, while gate signals and clamped
// quantities shrink 10-20×; compressing the former only costs time (snappy: ≈ 0.4 ms per
// 10 000-row run of three columns, for 0.01 %). A uniform time axis sits in between: snappy
// shrinks it by ≈ 5 %, LZ4 by ≈ 2 %, deflate by ≈ 20 %.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pesim::parquet {

// Parquet CompressionCodec values (parquet.thrift).
enum class Codec : std::int32_t {
  Uncompressed = 0,
  Snappy = 1,
  Gzip = 2,
  Lz4Raw = 7,
};

// At most this many bytes of values per data page (1 MiB: 131 072 doubles).
inline constexpr std::size_t kMaxPageBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxPageValues = kMaxPageBytes / sizeof(double);

// pesim's compression names: "none", "snappy", "gzip", "lz4" (LZ4_RAW). Anything else throws
// InputError (ENCODE_INVALID, field "codec").
Codec codecFromName(const std::string& name);
const char* codecName(Codec codec);  // the Parquet name: UNCOMPRESSED, SNAPPY, GZIP, LZ4_RAW

// The least saving (a fraction of the sample's bytes) for which a column keeps `codec`. SNAPPY and
// LZ4_RAW are chosen for speed: they compress a column that barely shrinks at ≈ 1 GB/s, against
// ≈ 2.5 GB/s for the kernel to take the bytes saved, so below an eighth they cost more CPU than
// they save and only a real saving keeps them (a 20 001-point time axis: 0.13 ms for 9 KB). GZIP is
// chosen for size: any saving of 3 % or more keeps it.
double defaultMinSampleSaving(Codec codec);

struct WriteOptions {
  Codec codec = Codec::Uncompressed;
  // Key-value metadata of the file, in this order (keys need not be unique).
  std::vector<std::pair<std::string, std::string>> metadata;
  std::string createdBy = "pesim";
  // Values per data page, 1..kMaxPageValues (smaller only to test page splitting cheaply).
  std::size_t pageValues = kMaxPageValues;
  // A column keeps `codec` when its sample shrinks by at least this fraction, else it is written
  // UNCOMPRESSED; 0 keeps the codec for every column. From 0 to 1; unset: defaultMinSampleSaving(codec).
  std::optional<double> minSampleSaving;
  // Per column, whether it keeps `codec` (true) or is written UNCOMPRESSED, decided for an earlier
  // file of the same columns (the runs of one sweep: what writeDoubleColumns returned for it), so
  // that the trial is made once; empty: each column's codec is tried on its sample.
  std::vector<bool> keepCodec;
};

// Receives a file's bytes in order. writeDoubleColumns hands large pieces (page data) over as they
// are, without copying them first, so a sink that writes to a file descriptor streams the file.
class ByteSink {
 public:
  ByteSink() = default;
  ByteSink(const ByteSink&) = delete;
  ByteSink& operator=(const ByteSink&) = delete;
  virtual ~ByteSink() = default;
  virtual void append(const std::uint8_t* bytes, std::size_t size) = 0;
};

// The same file as below, handed to `sink` piece by piece (the sink's exceptions pass through).
// Returns, per column, whether it kept the codec (empty when there are no rows): keepCodec for the
// next file of the same columns.
std::vector<bool> writeDoubleColumns(ByteSink& sink, const std::vector<std::string>& names, const std::vector<const double*>& columns,
                        std::size_t rows, const WriteOptions& options);

// The whole Parquet file. names.size() must equal columns.size() (at least one column); every
// column points at `rows` doubles (nullptr is allowed only when rows == 0). Names are written as
// given (any bytes, duplicates allowed). Throws InputError (ENCODE_INVALID) naming the argument at
// fault ("names", "columns", "columns[3]", "pageValues"). The output is allocated once, at an upper
// bound of its size; its capacity may exceed its size by up to the compressors' worst-case margin.
std::vector<std::uint8_t> writeDoubleColumns(const std::vector<std::string>& names,
                                             const std::vector<const double*>& columns, std::size_t rows,
                                             const WriteOptions& options);

// ---- Tables: columns of doubles and of UTF-8 strings, in row groups written one at a time ----
//
// A table file streams: writeTableHeader ("PAR1"), then writeRowGroup for each group of rows (its
// column chunks, laid out as above; a string column is a REQUIRED BYTE_ARRAY leaf with the STRING
// logical type (converted type UTF8), PLAIN-encoded as a little-endian u32 length and the bytes of
// each value, its statistics only null_count 0), then writeTableFooter with what the row groups
// returned. Memory: one row group's pages at a time, plus a ChunkMeta per column per row group.

enum class ColumnKind : std::int32_t {
  Double = 0,
  String = 1,
};

struct TableColumn {
  std::string name;
  ColumnKind kind = ColumnKind::Double;
};

// One column's values in a row group: `rows` doubles, or a vector of `rows` strings.
struct ColumnValues {
  const double* doubles = nullptr;
  const std::vector<std::string>* strings = nullptr;
};

// Where a column chunk landed and what its metadata says.
struct ChunkMeta {
  ColumnKind kind = ColumnKind::Double;
  Codec codec = Codec::Uncompressed;
  std::int64_t dataPageOffset = 0;
  std::int64_t compressedSize = 0;    // pages including their headers
  std::int64_t uncompressedSize = 0;  // pages including their headers
  std::int64_t nanCount = 0;
  bool hasMinMax = false;
  double min = 0.0;
  double max = 0.0;
};

struct RowGroupMeta {
  std::size_t rows = 0;
  std::vector<ChunkMeta> chunks;
};

// "PAR1": the first kTableHeaderBytes bytes of the file.
inline constexpr std::size_t kTableHeaderBytes = 4;
void writeTableHeader(ByteSink& sink);

// The column chunks of one row group (rows >= 1); `offset` is the file position its first byte
// goes to (kTableHeaderBytes for the first group, then each group's end). values[i] must match
// schema[i].kind. Throws InputError (ENCODE_INVALID) naming the argument at fault.
RowGroupMeta writeRowGroup(ByteSink& sink, std::size_t offset, const std::vector<TableColumn>& schema,
                           const std::vector<ColumnValues>& values, std::size_t rows, const WriteOptions& options);

// The FileMetaData of the table, its length and "PAR1" (options: metadata and createdBy).
void writeTableFooter(ByteSink& sink, const std::vector<TableColumn>& schema, const std::vector<RowGroupMeta>& groups,
                      const WriteOptions& options);

}  // namespace pesim::parquet
