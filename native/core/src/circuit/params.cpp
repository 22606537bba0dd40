// Checked parameter access (see params.hpp).
#include "circuit/params.hpp"

#include <cmath>
#include <sstream>

#include "pesim/errors.hpp"

namespace pesim {

namespace {
std::string formatNumber(double value) {
  std::ostringstream out;
  out << value;
  return out.str();
}
}  // namespace

bool Params::has(const std::string& key) const {
  set_.asked.insert(key);
  return set_.numbers.count(key) || set_.strings.count(key) || set_.arrays.count(key) ||
         set_.names.count(key);
}

void Params::outOfRange(const std::string& key, const std::string& expected) const {
  std::string got;
  auto it = set_.numbers.find(key);
  if (it != set_.numbers.end()) got = " (got " + formatNumber(it->second) + ")";
  throw ParameterError(ErrorCode::ParameterOutOfRange,
                       owner_ + ": parameter '" + key + "' must be " + expected + got, owner_, key);
}

double Params::number(const std::string& key) const {
  set_.asked.insert(key);
  auto it = set_.numbers.find(key);
  if (it == set_.numbers.end()) {
    if (has(key)) outOfRange(key, "a number");
    throw Error(ErrorCode::MissingParameter, owner_ + ": missing parameter '" + key + "'", owner_);
  }
  if (!std::isfinite(it->second)) outOfRange(key, "a finite number");
  return it->second;
}

double Params::number(const std::string& key, double fallback) const {
  return has(key) ? number(key) : fallback;
}

double Params::positive(const std::string& key) const {
  double value = number(key);
  if (!(value > 0.0)) outOfRange(key, "greater than 0");
  return value;
}

double Params::positive(const std::string& key, double fallback) const {
  return has(key) ? positive(key) : fallback;
}

double Params::nonNegative(const std::string& key, double fallback) const {
  if (!has(key)) return fallback;
  double value = number(key);
  if (value < 0.0) outOfRange(key, "0 or greater");
  return value;
}

double Params::inRange(const std::string& key, double lo, double hi, double fallback) const {
  if (!has(key)) return fallback;
  double value = number(key);
  if (value < lo || value > hi) {
    outOfRange(key, "between " + formatNumber(lo) + " and " + formatNumber(hi));
  }
  return value;
}

std::string Params::text(const std::string& key) const {
  set_.asked.insert(key);
  auto it = set_.strings.find(key);
  if (it == set_.strings.end()) {
    if (has(key)) outOfRange(key, "a word");
    throw Error(ErrorCode::MissingParameter, owner_ + ": missing parameter '" + key + "'", owner_);
  }
  return it->second;
}

std::string Params::text(const std::string& key, const std::string& fallback) const {
  return has(key) ? text(key) : fallback;
}

std::vector<double> Params::array(const std::string& key) const {
  set_.asked.insert(key);
  auto it = set_.arrays.find(key);
  if (it == set_.arrays.end()) {
    if (has(key)) outOfRange(key, "a list of numbers");
    throw Error(ErrorCode::MissingParameter, owner_ + ": missing parameter '" + key + "'", owner_);
  }
  for (double value : it->second) {
    if (!std::isfinite(value)) outOfRange(key, "a list of finite numbers");
  }
  return it->second;
}

std::vector<std::string> Params::names(const std::string& key) const {
  set_.asked.insert(key);
  auto it = set_.names.find(key);
  if (it == set_.names.end()) {
    if (has(key)) outOfRange(key, "a list of names");
    throw Error(ErrorCode::MissingParameter, owner_ + ": missing parameter '" + key + "'", owner_);
  }
  return it->second;
}

}  // namespace pesim
