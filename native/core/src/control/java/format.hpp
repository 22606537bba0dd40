// java.util.Formatter for String.format, printf and PrintWriter.printf: the conversions
// b s S c d o x X e E f g G % n with flags, width and precision (JDK 17 semantics: floating
// values are rounded half-up from their shortest decimal digits, as FormattedFloatingDecimal does).
#pragma once

#include <string>
#include <vector>

#include "control/java/types.hpp"

namespace pesim::java {

// One argument: its static type (boxed or not) and value; a null is `null` true.
struct FormatArg {
  Base type = Base::Void;
  double number = 0.0;
  std::string text;
  bool null = false;
};

// The formatted text; throws CodeFailure with the JDK's exception (e.g.
// "IllegalFormatConversionException: d != java.lang.Double") at `line`.
std::string javaFormat(const std::string& format, const std::vector<FormatArg>& args, int line);

}  // namespace pesim::java
