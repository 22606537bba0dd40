// Checked access to element and block parameters: every failure names the owner and the parameter.
#pragma once

#include <string>
#include <vector>

#include "pesim/netlist.hpp"

namespace pesim {

class Params {
 public:
  Params(const std::string& owner, const ParameterSet& set) : owner_(owner), set_(set) {}

  bool has(const std::string& key) const;
  double number(const std::string& key) const;                       // required
  double number(const std::string& key, double fallback) const;      // optional
  double positive(const std::string& key) const;                     // required, > 0
  double positive(const std::string& key, double fallback) const;    // optional, > 0
  double nonNegative(const std::string& key, double fallback) const; // optional, >= 0
  double inRange(const std::string& key, double lo, double hi, double fallback) const;
  std::string text(const std::string& key) const;                    // required word
  std::string text(const std::string& key, const std::string& fallback) const;
  std::vector<double> array(const std::string& key) const;           // required list of numbers
  std::vector<std::string> names(const std::string& key) const;      // required list of words

  [[noreturn]] void outOfRange(const std::string& key, const std::string& expected) const;

 private:
  const std::string& owner_;
  const ParameterSet& set_;
};

}  // namespace pesim
