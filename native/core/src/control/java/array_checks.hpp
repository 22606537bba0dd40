// Java's checks on an array access (JLS §15.10.4): the index must lie in [0, length), else
// ArrayIndexOutOfBoundsException with the JDK's message. Shared by the expression nodes
// (nodes_expr.cpp) and the bytecode interpreter (bytecode_run.cpp), so both fail alike.
#pragma once

#include <cstddef>
#include <string>

#include "control/java/arith.hpp"
#include "control/java/types.hpp"

namespace pesim::java {

[[noreturn]] inline void outOfBounds(const Array& a, double index, int line) {
  fail("ArrayIndexOutOfBoundsException: Index " + javaText(Base::Int, index) + " out of bounds for length " +
           std::to_string(a.length()),
       line);
}

inline std::size_t checkedIndex(const Array& a, double index, int line) {
  if (index < 0 || index >= static_cast<double>(a.length())) outOfBounds(a, index, line);
  return static_cast<std::size_t>(index);
}

}  // namespace pesim::java
