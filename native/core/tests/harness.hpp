// A minimal test harness for the core: TEST registers a function, CHECK_NEAR/CHECK record
// failures with file and line, main() runs every test and returns non-zero on any failure.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace pesim::test {

struct Case {
  const char* name;
  std::function<void()> run;
};

inline std::vector<Case>& registry() {
  static std::vector<Case> cases;  // filled before main() runs; the test binary is single-threaded
  return cases;
}

inline int& failures() {
  static int count = 0;
  return count;
}

struct Registrar {
  Registrar(const char* name, std::function<void()> run) { registry().push_back({name, std::move(run)}); }
};

inline void fail(const char* file, int line, const std::string& what) {
  ++failures();
  std::fprintf(stderr, "%s:%d: %s\n", file, line, what.c_str());
}

/** The same double to the bit (a changed code path must give bit-identical results; -0 ≠ 0, NaN = its own bits). */
inline bool sameBits(double a, double b) {
  std::uint64_t x = 0;
  std::uint64_t y = 0;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x == y;
}

}  // namespace pesim::test

#define PESIM_CONCAT_(a, b) a##b
#define PESIM_CONCAT(a, b) PESIM_CONCAT_(a, b)
#define TEST(name)                                                                       \
  static void name();                                                                    \
  static ::pesim::test::Registrar PESIM_CONCAT(registrar_, name)(#name, name);           \
  static void name()

#define CHECK(condition)                                                                 \
  do {                                                                                   \
    if (!(condition)) ::pesim::test::fail(__FILE__, __LINE__, "CHECK(" #condition ")");  \
  } while (0)

#define CHECK_NEAR(actual, expected, tolerance)                                          \
  do {                                                                                   \
    double a_ = (actual), e_ = (expected), t_ = (tolerance);                             \
    if (!(std::abs(a_ - e_) <= t_)) {                                                    \
      char buffer_[256];                                                                 \
      std::snprintf(buffer_, sizeof buffer_, "%s = %.12g, expected %.12g ± %.3g", #actual, a_, e_, t_); \
      ::pesim::test::fail(__FILE__, __LINE__, buffer_);                                  \
    }                                                                                    \
  } while (0)
