// Elements of java.util lists and maps of any element type (boxed numbers or Strings) as values,
// and the JDK's hashing and natural ordering of them (nodes_maps.cpp).
#pragma once

#include "control/java/nodes.hpp"

namespace pesim::java {

// A null element of `item` values.
Value nullValue(Base item);
Value elementAt(const Array& list, Base item, std::size_t i);
void setElement(Array& list, Base item, std::size_t i, const Value& v);
// Appends (inserts at `at`), failing when the list would exceed the element limit.
void insertElement(Array& list, Base item, std::size_t at, const Value& v, int line);
void eraseElement(Array& list, Base item, std::size_t i);
// Index of the first (last) element equal to v (Double.equals, String.equals), −1 when none.
long findElement(const Array& list, Base item, const Value& v, bool last);
// A new list of `item` values.
ArrayRef newListOf(Base item);
// java.util.HashMap (LinkedHashMap, TreeMap) of `key` to `item` values; a HashMap's table starts at
// `capacity` (HashMap.tableSizeFor) or 16.
ArrayRef newMap(MapKind kind, Base key, Base item, double capacity);
long mapFind(const Array& map, Base key, const Value& k);
// put: the previous value, or null.
Value mapPut(Array& map, Base key, Base item, const Value& k, const Value& v, int line);
// remove: the removed value, or null.
Value mapRemove(Array& map, Base key, Base item, const Value& k);
void mapClear(Array& map);
// Natural order (Comparable.compareTo) of two values of `item`: Double.compare, String.compareTo.
int compareValues(Base item, const Value& a, const Value& b);
// String.compareTo / hashCode over the UTF-16 code units of a UTF-8 text.
int compareTexts(const std::string& a, const std::string& b);
std::int32_t textHash(const std::string& s);

}  // namespace pesim::java
