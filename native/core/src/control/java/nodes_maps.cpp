// java.util lists of any element and maps (see objects.hpp). A map holds its keys and values in
// two lists in insertion order; its iteration order is that of the JDK class: LinkedHashMap the
// insertion order, TreeMap the keys' natural order, HashMap the order of its table (JDK 17
// java.util.HashMap: bucket hash ^ (hash >>> 16) masked by the table size, which starts at 16 and
// doubles when the entries exceed 3/4 of it; a bucket keeps its entries in insertion order, also
// when the table is split in two on a resize).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "control/java/objects.hpp"

namespace pesim::java {

namespace {

constexpr std::size_t kMaxElements = 100'000'000;

bool sameNumber(Base item, double a, double b) {
  if (isNullBoxed(a) || isNullBoxed(b)) return isNullBoxed(a) && isNullBoxed(b);
  if (item != Base::Double && item != Base::Float) return a == b;
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

// UTF-16 code units of a UTF-8 text (String is UTF-16 in Java).
std::vector<std::uint16_t> utf16(const std::string& s) {
  std::vector<std::uint16_t> out;
  for (std::size_t i = 0; i < s.size();) {
    auto c = static_cast<unsigned char>(s[i]);
    std::uint32_t cp = c;
    std::size_t n = 1;
    if (c >= 0xF0) n = 4, cp = c & 0x07;
    else if (c >= 0xE0) n = 3, cp = c & 0x0F;
    else if (c >= 0xC0) n = 2, cp = c & 0x1F;
    for (std::size_t k = 1; k < n && i + k < s.size(); ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    i += n;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out.push_back(static_cast<std::uint16_t>(0xD800 + (cp >> 10)));
      out.push_back(static_cast<std::uint16_t>(0xDC00 + (cp & 0x3FF)));
    } else {
      out.push_back(static_cast<std::uint16_t>(cp));
    }
  }
  return out;
}

std::int32_t hashOf(Base type, const Value& v) {
  if (type == Base::String) return textHash(v.text);
  const double x = v.number;
  switch (type) {
    case Base::Boolean: return x != 0.0 ? 1231 : 1237;
    case Base::Long: {
      const auto l = static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
      return static_cast<std::int32_t>(static_cast<std::uint32_t>(l ^ (l >> 32)));
    }
    case Base::Double: {
      std::uint64_t bits;
      const double canonical = std::isnan(x) ? std::numeric_limits<double>::quiet_NaN() : x;
      std::memcpy(&bits, &canonical, sizeof bits);
      if (std::isnan(x)) bits = 0x7ff8000000000000ULL;
      return static_cast<std::int32_t>(static_cast<std::uint32_t>(bits ^ (bits >> 32)));
    }
    case Base::Float: {
      float f = static_cast<float>(x);
      std::uint32_t bits;
      std::memcpy(&bits, &f, sizeof bits);
      if (std::isnan(f)) bits = 0x7fc00000U;
      return static_cast<std::int32_t>(bits);
    }
    default: return static_cast<std::int32_t>(x);
  }
}

std::size_t tableSizeFor(double capacity) {
  std::size_t n = 1;
  while (static_cast<double>(n) < capacity && n < (std::size_t{1} << 30)) n <<= 1;
  return n;
}

}  // namespace

std::int32_t textHash(const std::string& s) {
  std::uint32_t h = 0;
  for (std::uint16_t c : utf16(s)) h = 31 * h + c;
  return static_cast<std::int32_t>(h);
}

int compareTexts(const std::string& a, const std::string& b) {
  const auto x = utf16(a), y = utf16(b);
  const std::size_t n = std::min(x.size(), y.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (x[i] != y[i]) return static_cast<int>(x[i]) - static_cast<int>(y[i]);
  }
  return static_cast<int>(x.size()) - static_cast<int>(y.size());
}

int compareValues(Base item, const Value& a, const Value& b) {
  if (item == Base::String) return compareTexts(a.text, b.text);
  const double x = a.number, y = b.number;
  if (item == Base::Double || item == Base::Float) {
    // Double.compare: −0.0 < 0.0, NaN above everything and equal to itself.
    if (x < y) return -1;
    if (x > y) return 1;
    const bool nx = std::isnan(x), ny = std::isnan(y);
    if (nx || ny) return nx == ny ? 0 : nx ? 1 : -1;
    return std::signbit(x) == std::signbit(y) ? 0 : std::signbit(x) ? -1 : 1;
  }
  return x < y ? -1 : x > y ? 1 : 0;
}

Value nullValue(Base item) {
  Value v;
  if (item == Base::String) v.text = nullText();
  else v.number = nullBoxed();
  return v;
}

Value elementAt(const Array& list, Base item, std::size_t i) {
  Value v;
  if (item == Base::String) v.text = list.texts[i];
  else v.number = list.numbers[i];
  return v;
}

void setElement(Array& list, Base item, std::size_t i, const Value& v) {
  if (item == Base::String) list.texts[i] = v.text;
  else list.numbers[i] = isNullBoxed(v.number) ? v.number : castTo(item, v.number);
}

void insertElement(Array& list, Base item, std::size_t at, const Value& v, int line) {
  if (list.length() >= kMaxElements) fail("a list of more than " + std::to_string(kMaxElements) + " elements is too large", line);
  if (item == Base::String) {
    list.ofTexts = true;
    list.texts.insert(list.texts.begin() + static_cast<std::ptrdiff_t>(at), v.text);
  } else {
    list.numbers.insert(list.numbers.begin() + static_cast<std::ptrdiff_t>(at), isNullBoxed(v.number) ? v.number : castTo(item, v.number));
  }
  ++list.modCount;
}

void eraseElement(Array& list, Base item, std::size_t i) {
  if (item == Base::String) list.texts.erase(list.texts.begin() + static_cast<std::ptrdiff_t>(i));
  else list.numbers.erase(list.numbers.begin() + static_cast<std::ptrdiff_t>(i));
  ++list.modCount;
}

long findElement(const Array& list, Base item, const Value& v, bool last) {
  const std::size_t n = list.length();
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = last ? n - 1 - k : k;
    const bool same = item == Base::String ? list.texts[i] == v.text : sameNumber(item, list.numbers[i], v.number);
    if (same) return static_cast<long>(i);
  }
  return -1;
}

ArrayRef newListOf(Base item) {
  auto list = std::make_shared<Array>();
  list->ofTexts = item == Base::String;
  return list;
}

ArrayRef newMap(MapKind kind, Base key, Base item, double capacity) {
  auto map = std::make_shared<Array>();
  map->state = std::make_shared<ObjectState>();
  map->state->mapKind = kind;
  map->state->keys = newListOf(key);
  map->state->values = newListOf(item);
  map->state->capacity = capacity > 0 ? tableSizeFor(capacity) : 0;
  return map;
}

long mapFind(const Array& map, Base key, const Value& k) { return findElement(*map.state->keys, key, k, false); }

Value mapPut(Array& map, Base key, Base item, const Value& k, const Value& v, int line) {
  const long at = mapFind(map, key, k);
  if (at >= 0) {
    Value old = elementAt(*map.state->values, item, static_cast<std::size_t>(at));
    setElement(*map.state->values, item, static_cast<std::size_t>(at), v);
    return old;
  }
  if (map.state->mapKind == MapKind::Tree && (key == Base::String ? isNullText(k.text) : isNullBoxed(k.number))) {
    fail("NullPointerException: a TreeMap key cannot be null", line);
  }
  insertElement(*map.state->keys, key, map.state->keys->length(), k, line);
  insertElement(*map.state->values, item, map.state->values->length(), v, line);
  ++map.modCount;
  if (map.state->capacity == 0) map.state->capacity = 16;
  if (static_cast<double>(map.state->keys->length()) > 0.75 * static_cast<double>(map.state->capacity)) map.state->capacity *= 2;
  return nullValue(item);
}

Value mapRemove(Array& map, Base key, Base item, const Value& k) {
  const long at = mapFind(map, key, k);
  if (at < 0) return nullValue(item);
  Value old = elementAt(*map.state->values, item, static_cast<std::size_t>(at));
  eraseElement(*map.state->keys, key, static_cast<std::size_t>(at));
  eraseElement(*map.state->values, item, static_cast<std::size_t>(at));
  ++map.modCount;
  return old;
}

void mapClear(Array& map) {
  map.state->keys->texts.clear();
  map.state->keys->numbers.clear();
  map.state->values->texts.clear();
  map.state->values->numbers.clear();
  ++map.modCount;
}

std::vector<std::size_t> mapOrder(const Array& map, Base key) {
  std::vector<std::size_t> order(map.state->keys->length());
  std::iota(order.begin(), order.end(), std::size_t{0});
  if (map.state->mapKind == MapKind::Linked) return order;
  if (map.state->mapKind == MapKind::Tree) {
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return compareValues(key, elementAt(*map.state->keys, key, a), elementAt(*map.state->keys, key, b)) < 0;
    });
    return order;
  }
  const std::size_t mask = (map.state->capacity == 0 ? 16 : map.state->capacity) - 1;
  std::vector<std::size_t> bucket(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    const Value k = elementAt(*map.state->keys, key, i);
    const bool null = key == Base::String ? isNullText(k.text) : isNullBoxed(k.number);
    const auto h = null ? 0U : static_cast<std::uint32_t>(hashOf(key, k));
    bucket[i] = (h ^ (h >> 16)) & mask;
  }
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return bucket[a] < bucket[b]; });
  return order;
}

}  // namespace pesim::java
