// The library a Java block may use: java.lang.Math (also through `import static java.lang.Math.*`),
// a few constants and tests of Double, Integer and Long.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "control/java/types.hpp"

namespace pesim::java {

// Result type of the library function `name` (e.g. "Math.max", "Double.isNaN") for these
// argument types; nullopt when the name or the argument count/types are not supported.
std::optional<Type> libraryResult(const std::string& name, const std::vector<Type>& arguments);

// Value and type of a library constant such as "Math.PI" or "Integer.MAX_VALUE".
struct LibraryConstant {
  Type type;
  double value;
};
std::optional<LibraryConstant> libraryConstant(const std::string& name);

}  // namespace pesim::java
