// Exception classes of the Java subset (see exceptions.hpp).
#include "control/java/exceptions.hpp"

#include <map>

namespace pesim::java {

namespace {

struct ExceptionClass {
  const char* package;
  const char* parent;  // "" for Throwable
};

const std::map<std::string, ExceptionClass>& classes() {
  static const std::map<std::string, ExceptionClass> kClasses = {
      {"Throwable", {"java.lang", ""}},
      {"Exception", {"java.lang", "Throwable"}},
      {"Error", {"java.lang", "Throwable"}},
      {"StackOverflowError", {"java.lang", "Error"}},
      {"RuntimeException", {"java.lang", "Exception"}},
      {"IOException", {"java.io", "Exception"}},
      {"FileNotFoundException", {"java.io", "IOException"}},
      {"ArithmeticException", {"java.lang", "RuntimeException"}},
      {"ArrayStoreException", {"java.lang", "RuntimeException"}},
      {"ClassCastException", {"java.lang", "RuntimeException"}},
      {"IllegalArgumentException", {"java.lang", "RuntimeException"}},
      {"NumberFormatException", {"java.lang", "IllegalArgumentException"}},
      {"IllegalFormatException", {"java.util", "IllegalArgumentException"}},
      {"IllegalFormatConversionException", {"java.util", "IllegalFormatException"}},
      {"MissingFormatArgumentException", {"java.util", "IllegalFormatException"}},
      {"UnknownFormatConversionException", {"java.util", "IllegalFormatException"}},
      {"MissingFormatWidthException", {"java.util", "IllegalFormatException"}},
      {"IllegalFormatPrecisionException", {"java.util", "IllegalFormatException"}},
      {"IllegalStateException", {"java.lang", "RuntimeException"}},
      {"SecurityException", {"java.lang", "RuntimeException"}},
      {"IndexOutOfBoundsException", {"java.lang", "RuntimeException"}},
      {"ArrayIndexOutOfBoundsException", {"java.lang", "IndexOutOfBoundsException"}},
      {"StringIndexOutOfBoundsException", {"java.lang", "IndexOutOfBoundsException"}},
      {"NegativeArraySizeException", {"java.lang", "RuntimeException"}},
      {"NullPointerException", {"java.lang", "RuntimeException"}},
      {"UnsupportedOperationException", {"java.lang", "RuntimeException"}},
      {"ConcurrentModificationException", {"java.util", "RuntimeException"}},
      {"NoSuchElementException", {"java.util", "RuntimeException"}},
  };
  return kClasses;
}

}  // namespace

bool knownException(const std::string& name) { return classes().count(name) > 0; }

std::string qualifiedException(const std::string& name) {
  auto it = classes().find(name);
  return it == classes().end() ? name : std::string(it->second.package) + "." + name;
}

bool catches(const std::string& caught, const std::string& thrown) {
  for (std::string c = thrown; !c.empty();) {
    if (c == caught) return true;
    auto it = classes().find(c);
    if (it == classes().end()) return false;
    c = it->second.parent;
  }
  return false;
}

std::string exceptionClassOf(const std::string& message) {
  const std::string name = message.substr(0, message.find(':'));
  return knownException(name) ? name : "";
}

}  // namespace pesim::java
