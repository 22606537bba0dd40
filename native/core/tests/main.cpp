// Runs every registered core test.
#include <cstdio>
#include <exception>

#include "harness.hpp"

int main() {
  for (const auto& c : pesim::test::registry()) {
    int before = pesim::test::failures();
    try {
      c.run();
    } catch (const std::exception& e) {
      pesim::test::fail(c.name, 0, std::string("unexpected exception: ") + e.what());
    }
    std::printf("%s %s\n", pesim::test::failures() == before ? "ok  " : "FAIL", c.name);
  }
  std::printf("%d failure(s)\n", pesim::test::failures());
  return pesim::test::failures() == 0 ? 0 : 1;
}
