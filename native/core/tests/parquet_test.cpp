// The Parquet writer: file structure (magic bytes, footer length, FileMetaData decoded by hand with
// a small Thrift compact-protocol reader written here from the specification), every codec (pages
// decompressed with snappy, lz4 and zlib themselves and compared bit for bit with the doubles),
// page splitting, the per-column choice of the codec, statistics, zero rows and argument validation.
#include <lz4.h>
#include <snappy-c.h>
#include <zlib.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness.hpp"
#include "pesim/errors.hpp"
#include "pesim/parquet.hpp"

namespace {

using pesim::parquet::Codec;
using Bytes = std::vector<std::uint8_t>;

// A decoded Thrift compact value: integer, binary, list or struct (field id → value).
struct Value {
  std::int64_t integer = 0;
  std::string binary;
  std::vector<Value> list;
  std::map<int, Value> fields;
  const Value& operator[](int id) const {
    static const Value missing{-999999, "<missing>", {}, {}};
    auto it = fields.find(id);
    return it == fields.end() ? missing : it->second;
  }
  bool has(int id) const { return fields.count(id) > 0; }
};

class Reader {
 public:
  Reader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::size_t position() const { return pos_; }

  Value readStruct() {
    Value out;
    int last = 0;
    for (;;) {
      const std::uint8_t header = byte();
      if (header == 0) return out;
      const int type = header & 0x0F;
      const int delta = header >> 4;
      const int id = delta != 0 ? last + delta : static_cast<int>(unzigzag(varint()));
      last = id;
      out.fields[id] = readValue(type);
    }
  }

 private:
  std::uint8_t byte() { return pos_ < size_ ? data_[pos_++] : throw std::runtime_error("thrift: out of data"); }
  std::uint64_t varint() {
    std::uint64_t value = 0;
    for (int shift = 0;; shift += 7) {
      const std::uint8_t b = byte();
      value |= static_cast<std::uint64_t>(b & 0x7F) << shift;
      if ((b & 0x80) == 0) return value;
    }
  }
  static std::int64_t unzigzag(std::uint64_t v) { return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1); }

  Value readValue(int type) {
    Value v;
    switch (type) {
      case 1: v.integer = 1; break;  // bool true (field) / true (element)
      case 2: v.integer = 0; break;
      case 3: v.integer = static_cast<std::int8_t>(byte()); break;
      case 4: case 5: case 6: v.integer = unzigzag(varint()); break;
      case 8: {
        const std::size_t n = varint();
        if (pos_ + n > size_) throw std::runtime_error("thrift: binary past the end");
        v.binary.assign(reinterpret_cast<const char*>(data_ + pos_), n);
        pos_ += n;
        break;
      }
      case 9: {
        const std::uint8_t header = byte();
        std::size_t n = header >> 4;
        if (n == 15) n = varint();
        for (std::size_t i = 0; i < n; ++i) v.list.push_back(readValue(header & 0x0F));
        break;
      }
      case 12: v = readStruct(); break;
      default: throw std::runtime_error("thrift: unexpected type " + std::to_string(type));
    }
    return v;
  }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t pos_ = 0;
};

std::uint32_t le32(const std::uint8_t* p) { return p[0] | p[1] << 8 | p[2] << 16 | static_cast<std::uint32_t>(p[3]) << 24; }

Value footerOf(const Bytes& file) {
  const std::uint32_t length = le32(&file[file.size() - 8]);
  Reader reader(&file[file.size() - 8 - length], length);
  Value meta = reader.readStruct();
  CHECK(reader.position() == length);  // the footer length covers exactly the FileMetaData
  return meta;
}

Bytes decompress(Codec codec, const std::uint8_t* in, std::size_t size, std::size_t rawSize) {
  Bytes out(rawSize);
  switch (codec) {
    case Codec::Uncompressed: std::memcpy(out.data(), in, size); CHECK(size == rawSize); break;
    case Codec::Snappy: {
      std::size_t length = rawSize;
      CHECK(snappy_uncompress(reinterpret_cast<const char*>(in), size, reinterpret_cast<char*>(out.data()), &length) == SNAPPY_OK);
      CHECK(length == rawSize);
      break;
    }
    case Codec::Lz4Raw:
      CHECK(LZ4_decompress_safe(reinterpret_cast<const char*>(in), reinterpret_cast<char*>(out.data()), static_cast<int>(size),
                                static_cast<int>(rawSize)) == static_cast<int>(rawSize));
      break;
    case Codec::Gzip: {
      CHECK(size >= 2 && in[0] == 0x1f && in[1] == 0x8b);  // a gzip member, not a zlib stream
      z_stream stream{};
      CHECK(inflateInit2(&stream, 15 + 16) == Z_OK);
      stream.next_in = const_cast<Bytef*>(in);
      stream.avail_in = static_cast<uInt>(size);
      stream.next_out = out.data();
      stream.avail_out = static_cast<uInt>(rawSize);
      CHECK(inflate(&stream, Z_FINISH) == Z_STREAM_END);
      CHECK(stream.total_out == rawSize);
      inflateEnd(&stream);
      break;
    }
  }
  return out;
}

// Reads every page of column `index` back into doubles, checking the page headers on the way.
std::vector<double> readColumn(const Bytes& file, const Value& meta, std::size_t index, Codec codec, std::size_t* pages = nullptr) {
  const Value& column = meta[4].list.at(0)[1].list.at(index)[3];
  std::size_t pos = static_cast<std::size_t>(column[9].integer);
  const std::size_t end = pos + static_cast<std::size_t>(column[7].integer);
  std::vector<double> values;
  std::size_t count = 0;
  while (pos < end) {
    Reader reader(&file[pos], end - pos);
    const Value header = reader.readStruct();
    CHECK(header[1].integer == 0);     // DATA_PAGE
    CHECK(header[5][2].integer == 0);  // PLAIN
    const auto raw = static_cast<std::size_t>(header[2].integer);
    const auto stored = static_cast<std::size_t>(header[3].integer);
    CHECK(raw == static_cast<std::size_t>(header[5][1].integer) * sizeof(double));
    pos += reader.position();
    const Bytes plain = decompress(codec, &file[pos], stored, raw);
    const std::size_t first = values.size();
    values.resize(first + raw / sizeof(double));
    std::memcpy(values.data() + first, plain.data(), raw);
    pos += stored;
    ++count;
  }
  CHECK(pos == end);
  if (pages != nullptr) *pages = count;
  return values;
}

bool sameBits(const std::vector<double>& a, const double* b, std::size_t n) {
  return a.size() == n && (n == 0 || std::memcmp(a.data(), b, n * sizeof(double)) == 0);
}

double fromBits(const std::string& bytes) {
  double value = 0;
  CHECK(bytes.size() == 8);
  std::memcpy(&value, bytes.data(), 8);
  return value;
}

std::vector<double> wave(std::size_t n, int k) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::sin(1e-3 * static_cast<double>(i) * (k + 1)) * (k + 1);
  return v;
}

template <typename Run>
std::string invalidField(Run run) {
  try {
    run();
  } catch (const pesim::InputError& e) {
    CHECK(e.code() == pesim::ErrorCode::EncodeInvalid);
    return e.field();
  }
  return "<no error>";
}

}  // namespace

TEST(parquet_structure_and_metadata) {
  const std::vector<double> time = wave(1000, 0);
  const std::vector<double> signal = wave(1000, 1);
  pesim::parquet::WriteOptions options;
  options.codec = Codec::Snappy;
  options.minSampleSaving = 0;  // snappy on every column, although a sine barely shrinks
  options.metadata = {{"pesim", "{\"rows\":1000}"}};
  const Bytes file = pesim::parquet::writeDoubleColumns({"time", "V(out)"}, {time.data(), signal.data()}, 1000, options);
  CHECK(std::memcmp(file.data(), "PAR1", 4) == 0);
  CHECK(std::memcmp(&file[file.size() - 4], "PAR1", 4) == 0);
  const Value meta = footerOf(file);
  CHECK(meta[1].integer == 1);     // version
  CHECK(meta[3].integer == 1000);  // num_rows
  CHECK(meta[2].list.size() == 3);
  CHECK(meta[2].list[0][5].integer == 2);  // root num_children
  CHECK(meta[2].list[2][4].binary == "V(out)");
  CHECK(meta[2].list[2][1].integer == 5);  // DOUBLE
  CHECK(meta[2].list[2][3].integer == 0);  // REQUIRED
  CHECK(meta[5].list.size() == 1 && meta[5].list[0][1].binary == "pesim" && meta[5].list[0][2].binary == "{\"rows\":1000}");
  CHECK(meta[6].binary == "pesim");
  CHECK(meta[7].list.size() == 2 && meta[7].list[1].has(1));  // TYPE_ORDER
  const Value& group = meta[4].list.at(0);
  CHECK(group[3].integer == 1000);
  const Value& chunk = group[1].list.at(1)[3];
  CHECK(chunk[3].list.size() == 1 && chunk[3].list[0].binary == "V(out)");
  CHECK(chunk[4].integer == 1);  // SNAPPY
  CHECK(chunk[5].integer == 1000);
  CHECK(chunk[2].list.size() == 2 && chunk[2].list[0].integer == 0 && chunk[2].list[1].integer == 3);
  CHECK(group[1].list.at(0)[3][9].integer == 4);  // the first page follows the magic bytes
  CHECK(sameBits(readColumn(file, meta, 1, Codec::Snappy), signal.data(), signal.size()));
}

TEST(parquet_every_codec_round_trips_pages_bit_exactly) {
  const std::size_t rows = 10'000;
  std::vector<double> a = wave(rows, 2);
  std::vector<double> b(rows);
  for (std::size_t i = 0; i < rows; ++i) b[i] = i % 400 < 180 ? 1.0 : 0.0;  // compressible
  a[3] = std::numeric_limits<double>::quiet_NaN();
  a[4] = -0.0;
  a[5] = std::numeric_limits<double>::infinity();
  a[6] = -std::numeric_limits<double>::infinity();
  a[7] = 5e-324;
  for (Codec codec : {Codec::Uncompressed, Codec::Snappy, Codec::Gzip, Codec::Lz4Raw}) {
    pesim::parquet::WriteOptions options;
    options.codec = codec;
    options.minSampleSaving = 0;  // the codec on both columns (column a alone would be left uncompressed)
    options.pageValues = 4096;  // three pages: 4096, 4096, 1808
    const Bytes file = pesim::parquet::writeDoubleColumns({"a", "b"}, {a.data(), b.data()}, rows, options);
    const Value meta = footerOf(file);
    CHECK(meta[4].list.at(0)[1].list.at(0)[3][4].integer == static_cast<int>(codec));
    std::size_t pages = 0;
    CHECK(sameBits(readColumn(file, meta, 0, codec, &pages), a.data(), rows));
    CHECK(pages == 3);
    CHECK(sameBits(readColumn(file, meta, 1, codec), b.data(), rows));
    if (codec != Codec::Uncompressed) CHECK(meta[4].list[0][1].list[1][3][7].integer < static_cast<std::int64_t>(rows * 8 / 2));
    if (codec == Codec::Uncompressed) CHECK(file.size() > 2 * rows * 8);
  }
}

TEST(parquet_statistics_follow_the_floating_point_rules) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> mixed = {nan, 0.0, 3.5, -2.0, nan};
  const std::vector<double> zeros = {0.0, -0.0, 0.0, 0.0, -0.0};
  const std::vector<double> nans = {nan, nan, nan, nan, nan};
  pesim::parquet::WriteOptions options;
  const Bytes file = pesim::parquet::writeDoubleColumns({"mixed", "zeros", "nans"}, {mixed.data(), zeros.data(), nans.data()}, 5, options);
  const Value meta = footerOf(file);
  const Value& columns = meta[4].list.at(0)[1];
  const Value& s0 = columns.list[0][3][12];
  CHECK(s0[3].integer == 0 && s0[9].integer == 2);
  CHECK(fromBits(s0[6].binary) == -2.0 && fromBits(s0[5].binary) == 3.5);
  const Value& s1 = columns.list[1][3][12];
  CHECK(std::signbit(fromBits(s1[6].binary)) && !std::signbit(fromBits(s1[5].binary)));  // min -0, max +0
  const Value& s2 = columns.list[2][3][12];
  CHECK(s2[9].integer == 5 && !s2.has(5) && !s2.has(6));  // all NaN: no min/max
}

TEST(parquet_statistics_of_every_length_match_one_pass_over_the_column) {
  // The statistics are gathered in four lanes: every length (remainders 0 to 3), with NaNs, zeros
  // of both signs and the extremes in every lane, must give what one running pass gives.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::mt19937 random(11);
  std::uniform_real_distribution<double> uniform(-1e3, 1e3);
  bool all = true;
  for (std::size_t rows = 1; rows <= 41; ++rows) {
    std::vector<double> v(rows);
    for (double& x : v) {
      const unsigned pick = random() % 8;
      x = pick == 0 ? nan : pick == 1 ? 0.0 : pick == 2 ? -0.0 : uniform(random);
    }
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    std::int64_t nans = 0;
    for (double x : v) {
      nans += x != x;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
    const Bytes file = pesim::parquet::writeDoubleColumns({"x"}, {v.data()}, rows, pesim::parquet::WriteOptions{});
    const Value& s = footerOf(file)[4].list.at(0)[1].list[0][3][12];
    all = all && s[9].integer == nans && s.has(6) == (nans < static_cast<std::int64_t>(rows));
    if (nans < static_cast<std::int64_t>(rows)) {
      all = all && fromBits(s[6].binary) == lo && fromBits(s[5].binary) == hi;
      if (lo == 0.0) all = all && std::signbit(fromBits(s[6].binary));
      if (hi == 0.0) all = all && !std::signbit(fromBits(s[5].binary));
    }
  }
  CHECK(all);
}

TEST(parquet_zero_rows_and_a_full_page) {
  pesim::parquet::WriteOptions options;
  options.codec = Codec::Gzip;
  const Bytes empty = pesim::parquet::writeDoubleColumns({"time", "x"}, {nullptr, nullptr}, 0, options);
  const Value meta = footerOf(empty);
  CHECK(meta[3].integer == 0 && meta[4].list.empty() && meta[2].list.size() == 3);
  CHECK(std::memcmp(empty.data(), "PAR1", 4) == 0 && le32(&empty[empty.size() - 8]) == empty.size() - 12);

  const std::size_t rows = pesim::parquet::kMaxPageValues + 1;  // one full 1 MiB page and one value
  std::vector<double> big = wave(rows, 3);
  options.codec = Codec::Lz4Raw;
  options.minSampleSaving = 0;
  const Bytes file = pesim::parquet::writeDoubleColumns({"x"}, {big.data()}, rows, options);
  std::size_t pages = 0;
  CHECK(sameBits(readColumn(file, footerOf(file), 0, Codec::Lz4Raw, &pages), big.data(), rows));
  CHECK(pages == 2);
}

TEST(parquet_rejects_bad_arguments_naming_the_field) {
  const std::vector<double> v = {1, 2, 3};
  pesim::parquet::WriteOptions options;
  using pesim::parquet::writeDoubleColumns;
  CHECK(invalidField([&] { writeDoubleColumns({}, {}, 3, options); }) == "columns");
  CHECK(invalidField([&] { writeDoubleColumns({"a", "b"}, {v.data()}, 3, options); }) == "names");
  CHECK(invalidField([&] { writeDoubleColumns({"a", "b"}, {v.data(), nullptr}, 3, options); }) == "columns[1]");
  CHECK(invalidField([&] { pesim::parquet::codecFromName("zstd"); }) == "codec");
  CHECK(pesim::parquet::codecFromName("lz4") == Codec::Lz4Raw);
  options.pageValues = 0;
  CHECK(invalidField([&] { writeDoubleColumns({"a"}, {v.data()}, 3, options); }) == "pageValues");
  options.pageValues = 8;
  options.minSampleSaving = 1.5;
  CHECK(invalidField([&] { writeDoubleColumns({"a"}, {v.data()}, 3, options); }) == "minSampleSaving");
  options.minSampleSaving = std::numeric_limits<double>::quiet_NaN();
  CHECK(invalidField([&] { writeDoubleColumns({"a"}, {v.data()}, 3, options); }) == "minSampleSaving");
  options.minSampleSaving = 0.03;
  options.codec = static_cast<Codec>(6);  // ZSTD: not offered
  CHECK(invalidField([&] { writeDoubleColumns({"a"}, {v.data()}, 3, options); }) == "codec");
}

TEST(parquet_columns_the_codec_would_not_shrink_are_stored_uncompressed) {
  const std::size_t rows = 20'000;  // more than three sample slices: start, middle and end are tried
  const std::vector<double> noise = wave(rows, 4);  // no repeated 4-byte sequences: snappy and LZ4 gain nothing
  std::vector<double> gate(rows);
  for (std::size_t i = 0; i < rows; ++i) gate[i] = i % 400 < 180 ? 1.0 : 0.0;
  // Flat except for a noisy stretch at the start: the middle and end slices decide.
  std::vector<double> settling(rows, 2.5);
  for (std::size_t i = 0; i < 1500; ++i) settling[i] = noise[i];
  const std::vector<const double*> columns = {noise.data(), gate.data(), settling.data()};
  for (Codec codec : {Codec::Snappy, Codec::Lz4Raw}) {
    pesim::parquet::WriteOptions options;
    options.codec = codec;
    options.pageValues = 8192;
    const Bytes file = pesim::parquet::writeDoubleColumns({"noise", "gate", "settling"}, columns, rows, options);
    const Value meta = footerOf(file);
    const std::vector<Codec> chosen = {Codec::Uncompressed, codec, codec};
    for (std::size_t c = 0; c < columns.size(); ++c) {
      CHECK(meta[4].list.at(0)[1].list.at(c)[3][4].integer == static_cast<int>(chosen[c]));
      CHECK(sameBits(readColumn(file, meta, c, chosen[c]), columns[c], rows));
    }
  }
  // Deflate's Huffman stage gains a few per cent even on smooth waveforms (their sign and exponent
  // bytes repeat): whatever the footer names must read back.
  pesim::parquet::WriteOptions gzip;
  gzip.codec = Codec::Gzip;
  const Bytes zipped = pesim::parquet::writeDoubleColumns({"noise", "gate", "settling"}, columns, rows, gzip);
  const Value zippedMeta = footerOf(zipped);
  for (std::size_t c = 0; c < columns.size(); ++c) {
    const auto named = static_cast<Codec>(zippedMeta[4].list.at(0)[1].list.at(c)[3][4].integer);
    CHECK(named == Codec::Gzip || (c == 0 && named == Codec::Uncompressed));
    CHECK(sameBits(readColumn(zipped, zippedMeta, c, named), columns[c], rows));
  }
  // A short column is tried whole.
  pesim::parquet::WriteOptions options;
  options.codec = Codec::Snappy;
  const Bytes small = pesim::parquet::writeDoubleColumns({"noise", "gate"}, {noise.data(), gate.data()}, 3000, options);
  const Value meta = footerOf(small);
  CHECK(meta[4].list.at(0)[1].list.at(0)[3][4].integer == static_cast<int>(Codec::Uncompressed));
  CHECK(meta[4].list.at(0)[1].list.at(1)[3][4].integer == static_cast<int>(Codec::Snappy));
  CHECK(sameBits(readColumn(small, meta, 1, Codec::Snappy), gate.data(), 3000));
}

TEST(parquet_fast_codecs_need_a_real_saving) {
  // A uniform time axis: snappy shrinks it by ≈ 5 %, too little to pay for compressing it; deflate
  // by ≈ 20 %, and gzip is asked for to save space.
  const std::size_t rows = 20'001;
  std::vector<double> time(rows);
  for (std::size_t i = 0; i < rows; ++i) time[i] = static_cast<double>(i) * 1e-7;
  CHECK(pesim::parquet::defaultMinSampleSaving(Codec::Snappy) == 0.125);
  CHECK(pesim::parquet::defaultMinSampleSaving(Codec::Lz4Raw) == 0.125);
  CHECK(pesim::parquet::defaultMinSampleSaving(Codec::Gzip) == 0.03);
  for (Codec codec : {Codec::Snappy, Codec::Gzip}) {
    pesim::parquet::WriteOptions options;
    options.codec = codec;
    const Bytes file = pesim::parquet::writeDoubleColumns({"time"}, {time.data()}, rows, options);
    const Value meta = footerOf(file);
    const auto stored = static_cast<Codec>(meta[4].list.at(0)[1].list.at(0)[3][4].integer);
    CHECK(stored == (codec == Codec::Gzip ? Codec::Gzip : Codec::Uncompressed));
    CHECK(sameBits(readColumn(file, meta, 0, stored), time.data(), rows));
    // An explicit threshold of 3 % keeps snappy on it, as before.
    if (codec == Codec::Snappy) {
      options.minSampleSaving = 0.03;
      const Bytes kept = pesim::parquet::writeDoubleColumns({"time"}, {time.data()}, rows, options);
      CHECK(footerOf(kept)[4].list.at(0)[1].list.at(0)[3][4].integer == static_cast<int>(Codec::Snappy));
    }
  }
}

TEST(parquet_codec_decisions_are_returned_and_can_be_given) {
  const std::size_t rows = 10'000;
  const std::vector<double> noise = wave(rows, 5);
  std::vector<double> gate(rows);
  for (std::size_t i = 0; i < rows; ++i) gate[i] = i % 400 < 180 ? 1.0 : 0.0;
  struct Collect final : pesim::parquet::ByteSink {
    Bytes bytes;
    void append(const std::uint8_t* data, std::size_t size) override { bytes.insert(bytes.end(), data, data + size); }
  };
  pesim::parquet::WriteOptions options;
  options.codec = Codec::Snappy;
  Collect tried;
  const std::vector<bool> kept = pesim::parquet::writeDoubleColumns(tried, {"noise", "gate"}, {noise.data(), gate.data()}, rows, options);
  CHECK(kept == std::vector<bool>({false, true}));
  // Decisions given replace the trial: here the opposite of what it decides.
  options.keepCodec = {true, false};
  Collect given;
  CHECK(pesim::parquet::writeDoubleColumns(given, {"noise", "gate"}, {noise.data(), gate.data()}, rows, options) == options.keepCodec);
  const Value meta = footerOf(given.bytes);
  CHECK(meta[4].list.at(0)[1].list.at(0)[3][4].integer == static_cast<int>(Codec::Snappy));
  CHECK(meta[4].list.at(0)[1].list.at(1)[3][4].integer == static_cast<int>(Codec::Uncompressed));
  CHECK(sameBits(readColumn(given.bytes, meta, 0, Codec::Snappy), noise.data(), rows));
  CHECK(sameBits(readColumn(given.bytes, meta, 1, Codec::Uncompressed), gate.data(), rows));
  options.keepCodec = {true};
  CHECK(invalidField([&] { pesim::parquet::writeDoubleColumns({"noise", "gate"}, {noise.data(), gate.data()}, rows, options); }) == "keepCodec");
}
