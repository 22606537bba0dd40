// A writer of the Thrift compact protocol, the encoding of Parquet's page headers and footer
// (FileMetaData). Only what those need: structs, i32/i64 (zigzag varints), bool, binary/string,
// lists of i32, binary and structs. Bytes are appended to a caller-owned vector.
//
// Encoding (Thrift compact protocol specification):
//   field header  one byte (id delta << 4 | type) when the id is 1..15 above the previous field's
//                 id in the same struct, else the type byte followed by the id as a zigzag varint;
//   bool field    the value is the type itself (1 = true, 2 = false), no payload;
//   i32, i64      zigzag varint;  binary: varint length, then the bytes;
//   list          one byte (size << 4 | element type) for size < 15, else (0xF0 | type) + varint size;
//   struct end    a 0 byte (stop field).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace pesim::io {

// Compact protocol type ids as they appear in field headers and list headers.
enum class CompactType : std::uint8_t {
  BoolTrue = 1,
  BoolFalse = 2,
  Byte = 3,
  I16 = 4,
  I32 = 5,
  I64 = 6,
  Double = 7,
  Binary = 8,
  List = 9,
  Set = 10,
  Map = 11,
  Struct = 12,
};

class CompactWriter {
 public:
  explicit CompactWriter(std::vector<std::uint8_t>& out) : out_(out) {}

  // The outermost struct of a message, and each struct element of a list.
  void structBegin() { lastIds_.push_back(0); }
  void structEnd();  // writes the stop byte

  void fieldI32(std::int16_t id, std::int32_t value);
  void fieldI64(std::int16_t id, std::int64_t value);
  void fieldBool(std::int16_t id, bool value);
  void fieldBinary(std::int16_t id, std::string_view value);
  void fieldStructBegin(std::int16_t id);  // a struct-valued field; close it with structEnd()
  void fieldListBegin(std::int16_t id, CompactType element, std::size_t size);

  // List elements (after fieldListBegin); struct elements use structBegin()/structEnd().
  void elementI32(std::int32_t value) { varint(zigzag32(value)); }
  void elementBinary(std::string_view value);

  static std::uint32_t zigzag32(std::int32_t value) {
    return (static_cast<std::uint32_t>(value) << 1) ^ static_cast<std::uint32_t>(value >> 31);
  }
  static std::uint64_t zigzag64(std::int64_t value) {
    return (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
  }

 private:
  void fieldHeader(std::int16_t id, CompactType type);
  void varint(std::uint64_t value);

  std::vector<std::uint8_t>& out_;
  std::vector<std::int16_t> lastIds_;  // the previous field id of each open struct
};

}  // namespace pesim::io
