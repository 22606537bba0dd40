// The one translation point from C++ failures to JavaScript errors with a `code` property.
#pragma once

#include <napi.h>

#include <cmath>
#include <exception>
#include <string>

#include "pesim/errors.hpp"

namespace pesim::addon {

// A failure captured on a worker thread, turned into a JS error later on the main thread.
struct CapturedError {
  std::string code;
  std::string message;
  std::string element;
  std::string node;
  double time = std::nan("");  // NaN: not tied to a simulated time
  std::string field;           // the argument at fault (InputError), empty otherwise
};

CapturedError capture(const std::exception_ptr& failure);
Napi::Error toJsError(Napi::Env env, const CapturedError& error);

}  // namespace pesim::addon
