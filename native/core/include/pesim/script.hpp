// Scripts in the engine's Java subset (`pesim script`, GeckoSCRIPT): the same compiler and
// interpreter as Java blocks (native/core/src/control/java/script.hpp tells what a script adds).
// The embedding program lists its host functions with their signatures, answers their calls, and
// takes the script's output. A session keeps the script's variables from one compiled piece to the
// next (GeckoSCRIPT declarations, then code; prompt inputs).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace pesim::script {

// A value passed to or returned by a host function, by its Java type: a number (int, long, double;
// boolean as 0 or 1), a String (`null` set for a null String or array), or an array (`items`).
struct HostValue {
  double number = 0.0;
  std::string text;
  bool null = false;
  std::vector<HostValue> items;
};

// Java type names: void, int, long, double, float, boolean, String, Object (any value, passed as
// its text), and arrays of the others (double[], double[][], String[], float[]).
struct HostSignature {
  std::vector<std::string> parameters;
  std::string result;
  // The result is written into the first argument (an array of the result's type), and that
  // array is returned: a Java method that changes its argument and returns it.
  bool inPlace = false;
};
struct HostFunction {
  std::string name;
  std::vector<HostSignature> signatures;  // overloads, tried in order
};
// Thrown by a host call: the script ends with `message` at the call.
struct HostFailure {
  std::string message;
};
// Calls function `function` (index in Setup::functions) by its overload `signature`. Throws HostFailure.
using HostCall = std::function<HostValue(std::size_t function, std::size_t signature, std::vector<HostValue>& arguments)>;

struct Setup {
  std::vector<HostFunction> functions;
  // Names whose calls stop the compilation with "the GeckoSCRIPT function 'NAME' is not supported by pesim".
  std::vector<std::string> unsupported;
  HostCall call;
  std::function<void(const std::string&)> write;  // System.out, print, writeOutput
  long long maxSteps = 0;                         // executed statements allowed per run; 0: no bound
  const std::int32_t* interrupt = nullptr;        // nonzero: stop (read every 1 024 statements and after a failed host call)
  std::string outputDir = ".";                    // the folder PrintWriter and FileWriter may write in
};

struct Source {
  std::string name;
  std::string text;
  int firstLine = 1;  // line of the text's first line in its file
};

// Statements: a script file. Input: one prompt input, statements or else a bare expression whose
// value is printed. Declarations: a GeckoSCRIPT declarations section (a class body: fields, methods).
enum class Part { Statements, Input, Declarations };

// kind: "syntax", "compile", "runtime", "step-limit" or "interrupted"; line 0 when no position.
struct Error {
  std::string kind;
  std::string message;
  int line = 0;
  int column = 0;
};

// A host call of a compiled piece (the embedding program prepares for some: getOutput's blocks).
struct CallSite {
  std::string function;
  bool constantFirst = false;  // the first argument is a String constant, `first`
  std::string first;
};

class Session {
 public:
  // Throws std::invalid_argument for an unknown type name in a signature.
  explicit Session(Setup setup);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Compiles `source` as `part` (nothing runs): its host calls. Throws Error (syntax, compile); the
  // variables it would have declared are then forgotten.
  std::vector<CallSite> compile(const Source& source, Part part);
  // Runs what compile() compiled last (once). Throws Error (runtime, step-limit, interrupted).
  void run();
  // Statements the last run executed.
  long long steps() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace pesim::script
