// Thrift compact protocol writer (see thrift_compact.hpp for the encoding rules).
#include "io/thrift_compact.hpp"

#include <cassert>

namespace pesim::io {

void CompactWriter::structEnd() {
  assert(!lastIds_.empty());
  out_.push_back(0);  // stop field
  lastIds_.pop_back();
}

void CompactWriter::varint(std::uint64_t value) {
  while (value >= 0x80) {
    out_.push_back(static_cast<std::uint8_t>(value | 0x80));
    value >>= 7;
  }
  out_.push_back(static_cast<std::uint8_t>(value));
}

void CompactWriter::fieldHeader(std::int16_t id, CompactType type) {
  assert(!lastIds_.empty());
  const int delta = id - lastIds_.back();
  const auto typeBits = static_cast<std::uint8_t>(type);
  if (delta > 0 && delta <= 15) {
    out_.push_back(static_cast<std::uint8_t>(delta << 4 | typeBits));
  } else {
    out_.push_back(typeBits);
    varint(zigzag32(id));
  }
  lastIds_.back() = id;
}

void CompactWriter::fieldI32(std::int16_t id, std::int32_t value) {
  fieldHeader(id, CompactType::I32);
  varint(zigzag32(value));
}

void CompactWriter::fieldI64(std::int16_t id, std::int64_t value) {
  fieldHeader(id, CompactType::I64);
  varint(zigzag64(value));
}

void CompactWriter::fieldBool(std::int16_t id, bool value) {
  fieldHeader(id, value ? CompactType::BoolTrue : CompactType::BoolFalse);
}

void CompactWriter::fieldBinary(std::int16_t id, std::string_view value) {
  fieldHeader(id, CompactType::Binary);
  elementBinary(value);
}

void CompactWriter::elementBinary(std::string_view value) {
  varint(value.size());
  out_.insert(out_.end(), value.begin(), value.end());
}

void CompactWriter::fieldStructBegin(std::int16_t id) {
  fieldHeader(id, CompactType::Struct);
  structBegin();
}

void CompactWriter::fieldListBegin(std::int16_t id, CompactType element, std::size_t size) {
  fieldHeader(id, CompactType::List);
  const auto typeBits = static_cast<std::uint8_t>(element);
  if (size < 15) {
    out_.push_back(static_cast<std::uint8_t>(size << 4 | typeBits));
  } else {
    out_.push_back(static_cast<std::uint8_t>(0xF0 | typeBits));
    varint(size);
  }
}

}  // namespace pesim::io
