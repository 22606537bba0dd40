// Fixed arrays in the bytecode of Java blocks (bindFixedArrays, control/java/bytecode_bind.cpp):
// after start() the element accesses at constant indices of xIN and of the array fields address
// the elements directly, with the same results as the nodes; code that may assign the variables
// keeps the generic accesses, and accesses that fail still fail as before. Divisions keep their last
// result while their operands repeat, bit for bit. Number operands address their slots directly.
// Code that reads xIN only at constant indices reads a block's inputs where they are
// (Program::readInputsFrom), with the same results as copying them into xIN.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "control/java/bytecode.hpp"
#include "control/java/program.hpp"
#include "harness.hpp"

namespace {

using pesim::java::BlockCode;
using pesim::java::CodeFailure;
using pesim::java::Program;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

std::string boundListing(const Program& p) {
  return p.boundCalculate() != nullptr ? pesim::java::listing(*p.boundCalculate()) : std::string();
}

std::uint64_t bits(double v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// The outputs' bits of `steps` steps (input n·0.25 − 3 at step n), or the first failure.
std::string run(const BlockCode& code, std::size_t outputs, Program::Execution how, int steps) {
  Program p(code, 1, outputs, how);
  std::string out;
  try {
    p.start(1);
    for (int n = 0; n < steps; ++n) {
      p.inputs()[0] = n * 0.25 - 3.0;
      for (double v : p.calculate(n * 1e-6, 1e-6).numbers) out += std::to_string(bits(v)) + " ";
    }
  } catch (const CodeFailure& f) {
    out += "failure at line " + std::to_string(f.line) + ": " + f.message;
  }
  return out;
}

bool sameAsNodes(const BlockCode& code, std::size_t outputs) {
  return run(code, outputs, Program::Execution::Bytecode, 50) == run(code, outputs, Program::Execution::Nodes, 50);
}

}  // namespace

TEST(java_bind_addresses_xin_yout_and_array_fields_directly) {
  const BlockCode code{"hist[2] = hist[1]; hist[1] = xIN[0]; yOUT[0] = hist[2] + yOUT[1]; yOUT[1] = xIN[0]; return yOUT;", "",
                       "static double[] hist = new double[3];"};
  Program p(code, 1, 2);
  p.start(1);
  const std::string bound = boundListing(p);
  // Every access direct: no generic element access, no address taken for the stores (the reads and
  // stores in a row run as Copies).
  CHECK(count(bound, "LoadFixed") > 0 && count(bound, "StoreFixed") > 0 && count(bound, "Copies") > 0);
  CHECK(count(bound, "ElementK") + count(bound, "ElementAddress") + count(bound, "Pointer") == 0);
  CHECK(count(bound, "FixedAddress") == 0);
  CHECK(sameAsNodes(code, 2));
}

TEST(java_bind_follows_arrays_the_init_code_assigns) {
  // init() gives yOUT a longer array: the bound code writes into that one.
  const BlockCode code{"yOUT[2] = xIN[0] * 2; yOUT[0] = yOUT[2]; return yOUT;", "yOUT = new double[3];", ""};
  Program p(code, 1, 1);
  p.start(1);
  CHECK(count(boundListing(p), "ElementK") == 0);
  p.inputs()[0] = 1.5;
  const auto& out = p.calculate(0.0, 1e-6);
  CHECK(out.numbers.size() == 3 && out.numbers[0] == 3.0 && out.numbers[2] == 3.0);
  CHECK(sameAsNodes(code, 1));
}

TEST(java_bind_leaves_code_that_may_assign_the_arrays) {
  const BlockCode assigns{"buf = new double[2]; buf[1] = xIN[0]; yOUT[0] = buf[1]; return yOUT;", "", "static double[] buf;"};
  const BlockCode calls{"yOUT[0] = twice(xIN[0]); return yOUT;", "",
                        "static double[] buf = new double[2]; static double twice(double v) { buf = new double[1]; return 2 * v; }"};
  for (const BlockCode* code : {&assigns, &calls}) {
    Program p(*code, 1, 1);
    p.start(1);
    CHECK(p.boundCalculate() == nullptr);
    CHECK(sameAsNodes(*code, 1));
  }
}

TEST(java_bind_keeps_failing_accesses_generic) {
  const BlockCode outOfBounds{"yOUT[0] = xIN[0]; if (xIN[0] > 5) yOUT[1] = 1; return yOUT;", "", ""};
  const BlockCode nullField{"yOUT[0] = xIN[0]; if (xIN[0] > 5) yOUT[0] = none[0]; return yOUT;", "", "static double[] none;"};
  for (const BlockCode* code : {&outOfBounds, &nullField}) {
    Program p(*code, 1, 1);
    p.start(1);
    CHECK(count(boundListing(p), "Fixed") > 0);  // xIN[0], yOUT[0]; the failing access stays generic
    CHECK(count(boundListing(p), "ElementK") == 1);
    const std::string fast = run(*code, 1, Program::Execution::Bytecode, 50);
    CHECK(fast == run(*code, 1, Program::Execution::Nodes, 50));
    CHECK(fast.find("failure at line 1") != std::string::npos);
  }
}

TEST(java_bind_divisions_keep_their_result_while_the_operands_repeat) {
  // The input runs n·0.25 − 3: the divisor `d` is 0, −0 and 1 in turn for three steps each, so
  // 1.0 / d repeats its operands and then meets −0 after 0 (−∞ after +∞); (x·0) / d gives ±0 / ±0
  // (NaN) and ±0; `s` divides the same values at every step.
  const BlockCode code{"double d = ((int) (xIN[0] * 4 / 3)) % 3 == 0 ? 0.0 : ((int) (xIN[0] * 4 / 3)) % 3 == 1 ? -0.0 : 1.0;"
                       " double s = 2.0 / (1.0 / rate / dt); yOUT[0] = (xIN[0] * 0) / d; yOUT[1] = s; yOUT[2] = 1.0 / d;"
                       " return yOUT;",
                       "", "static double rate = 10000;"};
  Program p(code, 1, 3);
  p.start(1);
  CHECK(count(boundListing(p), "DivKept") >= 5);
  CHECK(count(boundListing(p), "Div ") == 0);
  CHECK(sameAsNodes(code, 3));
}

TEST(java_bind_addresses_number_slots_directly) {
  // Locals, temporaries, fields and constants as operands of arithmetic, increments, Math calls,
  // comparisons, element reads at variable indices and a for-each over a field array.
  const BlockCode code{"double s = 0; int k = 0; for (int i = 0; i < 3; i++) { hist[i] = hist[i] * 0.5 + xIN[0]; k += i; }"
                       " for (double h : hist) { s += Math.abs(h) > 1 ? h : -h; } count++; yOUT[0] = s + k;"
                       " yOUT[1] = count % 4 == 0 ? hist[(int) count % 3] : Math.max(s, xIN[0]); return yOUT;",
                       "", "static double[] hist = new double[3]; static long count;"};
  Program p(code, 1, 2);
  p.start(1);
  CHECK(boundListing(p).rfind("(number operands: byte offsets", 0) == 0);
  CHECK(sameAsNodes(code, 2));
  // A block without locals takes its offsets from its fields.
  const BlockCode fieldsOnly{"Tj = xIN[0]; if (Tj > Tjmax) Tjmax = Tj; yOUT[0] = Tjmax; return yOUT;", "Tjmax = 0;",
                             "static double Tjmax; static double Tj;"};
  Program q(fieldsOnly, 1, 1);
  q.start(1);
  CHECK(boundListing(q).rfind("(number operands: byte offsets", 0) == 0);
  CHECK(sameAsNodes(fieldsOnly, 1));
}

TEST(java_bind_keeps_tables_written_into_the_code) {
  // A table literal of constants runs no code: the block binds, and its reads give the nodes'
  // values until the row index leaves the table (step 16), where both fail alike.
  const BlockCode table{"int state = ((int) (xIN[0] + 3)) % 5; double t[][] = {{0, 1.5}, {2, -0.0}, {4, 5}, {6, 7}};"
                        " yOUT[0] = t[state][0]; yOUT[1] = t[state][1]; return yOUT;",
                        "", ""};
  Program p(table, 1, 2);
  p.start(1);
  CHECK(count(boundListing(p), "AssignArray") == 1);
  const std::string fast = run(table, 2, Program::Execution::Bytecode, 30);
  CHECK(fast == run(table, 2, Program::Execution::Nodes, 30));
  CHECK(fast.find("failure at line 1: ArrayIndexOutOfBoundsException") != std::string::npos);
  // A row of constants given to an array field: the field's accesses stay generic (it is assigned).
  const BlockCode row{"yOUT = new double[] {1, 2}; yOUT[1] = xIN[0]; return yOUT;", "", ""};
  Program q(row, 1, 2);
  q.start(1);
  CHECK(count(boundListing(q), "AssignArray") == 1);
  CHECK(count(boundListing(q), "Fixed") == 1);  // xIN[0]; not yOUT[1]
  CHECK(sameAsNodes(row, 2));
  // A literal with a variable element still runs its node: no binding.
  const BlockCode varying{"double[] v = {xIN[0], 2}; yOUT[0] = v[0]; return yOUT;", "", ""};
  Program r(varying, 1, 1);
  r.start(1);
  CHECK(r.boundCalculate() == nullptr);
  CHECK(sameAsNodes(varying, 1));
}

TEST(java_bind_reads_fields_the_code_never_writes_as_constants) {
  // dT and max are set by their initializers and init(); `n` is written by the code, so it stays a
  // field. The comparisons on dT fold into compare-with-constant jumps.
  const BlockCode code{"n++; double theta = (time * 5e5) % 10; int s = 0;"
                       " if (theta < 2 + 0.16 * dT) s = 1; else if (theta < 5 - 0.5 * dT) s = 2; else s = 3;"
                       " yOUT[0] = s; yOUT[1] = n + max / dT; return yOUT;",
                       "max = 7;", "static double dT = 1.5, max; static int n;"};
  Program p(code, 1, 2);
  p.start(1);
  const std::string bound = boundListing(p);
  CHECK(count(bound, "Mul") == 1);      // time * 5e5 only
  CHECK(count(bound, "JumpNotLtK") == 2);
  CHECK(count(bound, "Increment") == 1);
  CHECK(sameAsNodes(code, 2));
  // The values are those after init(): max / dT = 7 / 1.5.
  const auto& out = p.calculate(0.0, 1e-6);
  CHECK(out.numbers[1] == 1.0 + 7.0 / 1.5);
}

TEST(java_bind_joins_runs_of_copies) {
  // The inputs read into locals, the outputs' locals set in each branch, then stored into yOUT (as
  // a PWM block's code does); `if (a > 2)` jumps into the middle of a run; an int array's store
  // converts, so it is no copy.
  const BlockCode code{"double a = xIN[0]; double b = a; double c = 0, d = 0;"
                       " if (a > 0) { c = 1; d = 2; } else if (a > -1) { c = -1; } else { c = 0.5; d = -0.0; }"
                       " if (a > 2) c = 3; double f = b; double g = -a; if (k % 3 == 1) { c = c + 1; }"
                       " counts[0] = k; k++; yOUT[0] = c; yOUT[1] = d; yOUT[2] = b + f * g; return yOUT;",
                       "", "static int k; static int[] counts = new int[1];"};
  Program p(code, 1, 3);
  p.start(1);
  const std::string bound = boundListing(p);
  CHECK(count(bound, "Copies") >= 4);
  CHECK(sameAsNodes(code, 3));
}

TEST(java_bind_reads_rows_and_stores_fixed_elements_in_one_instruction) {
  // t[r][k] is one instruction (LoadRowK) checking what the row and the element access check, in
  // their order; yOUT[k] = (a value computed first) stores directly. An assignment whose value is
  // used, and one whose value's code branches, keep the element's address. Each program fails in
  // the end: an index out of bounds in a row, then a null row; the same with a method call, which
  // keeps the code from being bound (LoadRowK run with operands by space and index).
  const std::string head = "int s = ((int) (xIN[0] + 3)) % 3; double t[][] = {{1, 2, 3}, {4, 5}}; int r = s % 2;"
                           " double v = (yOUT[0] = t[r][1] * 2); yOUT[1] += t[r][0]; yOUT[2] = v + m[s == 1 ? 0 : s][0];";
  const std::string init = "m[0] = new double[] {1, 2}; m[2] = new double[] {3};";
  const std::string fields = "static double[][] m = new double[3][];";
  for (const std::string tail : {" if (xIN[0] > 2) yOUT[2] = m[2][1]; return yOUT;", " if (xIN[0] > 2) yOUT[2] = m[1][0]; return yOUT;",
                                 " if (xIN[0] > 2) yOUT[2] = m[2][1] + one(); return yOUT;"}) {
    const BlockCode code{head + tail, init, fields + " static double one() { return 1; }"};
    Program p(code, 1, 3);
    p.start(1);
    if (tail.find("one()") == std::string::npos) {
      const std::string bound = boundListing(p);
      CHECK(count(bound, "LoadRowK") == 3);      // not m[s == 1 ? 0 : s][0]: its row index is computed
      CHECK(count(bound, "FixedAddress") == 2);  // yOUT[0] (value used), yOUT[2] (its value's code branches)
    } else {
      CHECK(p.boundCalculate() == nullptr);
      CHECK(count(pesim::java::listing(*p.compiled().calculate->code), "LoadRowK") == 2);  // t[r][1], t[r][0]
    }
    const std::string fast = run(code, 3, Program::Execution::Bytecode, 40);
    CHECK(fast == run(code, 3, Program::Execution::Nodes, 40));
    CHECK(fast.find("failure at line 1") != std::string::npos);
  }
}

TEST(java_bind_returns_the_array_the_code_returns) {
  // Bound code that returns yOUT gives yOUT without reading the code's answer; code that may return
  // another field, or gives yOUT another array, gives what it returns.
  const BlockCode other{"yOUT[0] = xIN[0]; if (xIN[0] > 0) return other; return yOUT;", "", "static double[] other = {7, 8};"};
  const BlockCode renewed{"yOUT[0] = xIN[0]; if (xIN[0] > 0) yOUT = new double[] {5, 6}; return yOUT;", "", ""};
  for (const BlockCode* code : {&other, &renewed}) {
    Program p(*code, 1, 2);
    p.start(1);
    CHECK(p.boundCalculate() != nullptr);
    CHECK(sameAsNodes(*code, 2));
  }
}

namespace {

// The outputs' bits of `steps` steps with two inputs (n·0.25 − 3 and its square at step n), or the
// first failure: the inputs copied into xIN, or (inPlace) read by the code where they are, in a
// signal array whose other entries change too. `bound` is set to whether the code took them in place.
std::string runTwoInputs(const BlockCode& code, std::size_t outputs, bool inPlace, int steps, bool& bound) {
  Program p(code, 2, outputs);
  std::vector<double> signals(6, -1.0);
  std::string out;
  try {
    p.start(1);
    bound = inPlace && p.readInputsFrom({&signals[4], &signals[1]});
    for (int n = 0; n < steps; ++n) {
      const double a = n * 0.25 - 3.0;
      for (double& s : signals) s += 0.5;
      signals[4] = a;
      signals[1] = a * a;
      if (!bound) {
        p.inputs()[0] = a;
        p.inputs()[1] = a * a;
      }
      // Code that runs in place is run as a block runs it: calculateInPlace, then its fixed result.
      const pesim::java::Array* values = nullptr;
      if (bound && p.runsInPlace()) {
        p.calculateInPlace(n * 1e-6, 1e-6);
        values = p.fixedResult();
      } else {
        values = &p.calculate(n * 1e-6, 1e-6);
      }
      for (double v : values->numbers) out += std::to_string(bits(v)) + " ";
    }
  } catch (const CodeFailure& f) {
    out += "failure at line " + std::to_string(f.line) + ": " + f.message;
  }
  return out;
}

}  // namespace

TEST(java_bind_reads_inputs_in_place) {
  // xIN read at constant indices only: the code reads the inputs' own addresses (no LoadElementK
  // left, nothing copied into xIN) with the same results as copying them in, and fails alike (an
  // int division by zero when the first input reaches 0).
  const BlockCode code{"double a = xIN[0]; double b = xIN[1]; if (a > b - 2) yOUT[0] = a; else yOUT[0] = -b;"
                       " yOUT[1] = yOUT[1] + xIN[1] / 4; int k = (int) (xIN[0] * 4); yOUT[2] = 12 / (k + 4 * (k > 0 ? 1 : 0));"
                       " return yOUT;",
                       "", ""};
  bool inPlace = false, copied = true;
  const std::string read = runTwoInputs(code, 3, true, 30, inPlace);
  CHECK(inPlace);
  CHECK(read == runTwoInputs(code, 3, false, 30, copied));
  CHECK(read.find("failure at line 1: ArithmeticException") != std::string::npos);
  Program p(code, 2, 3);
  p.start(1);
  std::vector<double> signals{1.0, 2.0};
  CHECK(p.readInputsFrom({&signals[0], &signals[1]}));
  CHECK(p.boundCalculate()->inputsInPlace);
  CHECK(count(boundListing(p), "ElementK") == 0);
  CHECK(count(boundListing(p), "ReturnHeld") == 0);  // yOUT is read by the caller after a Return
  CHECK(!p.readInputsFrom({&signals[0]}));          // one address per input
  // Locals the code's start sets from inputs (and from such locals) are read as the inputs: the
  // copies go. A division before them is no jump that would end the start.
  const BlockCode start{"double f = xIN[0]; double g = f; double r = 2.0 / (1.0 / g / dt); double h = xIN[1];"
                        " if (h > f) yOUT[0] = r; else yOUT[0] = -h; return yOUT;",
                        "", ""};
  Program q(start, 2, 1);
  q.start(1);
  CHECK(q.readInputsFrom({&signals[0], &signals[1]}));
  CHECK(count(boundListing(q), "LoadFixed") + count(boundListing(q), "Move") + count(boundListing(q), "Copies") == 0);
  CHECK(runTwoInputs(start, 1, true, 30, inPlace) == runTwoInputs(start, 1, false, 30, copied));
  CHECK(inPlace);
  // A table written into the code (a local array, renewed at each call) runs in place too, until
  // its row index leaves the table, where both fail alike.
  const BlockCode table{"int s = ((int) (xIN[0] + 3)) % 5; double t[][] = {{0, 1.5}, {2, -0.0}, {4, 5}, {6, 7}};"
                        " yOUT[0] = t[s][0] + xIN[1]; yOUT[1] = t[s][1]; return yOUT;",
                        "", ""};
  Program r(table, 2, 2);
  r.start(1);
  CHECK(r.readInputsFrom({&signals[0], &signals[1]}) && r.runsInPlace());
  const std::string tableRead = runTwoInputs(table, 2, true, 30, inPlace);
  CHECK(inPlace);
  CHECK(tableRead == runTwoInputs(table, 2, false, 30, copied));
  CHECK(tableRead.find("failure at line 1: ArrayIndexOutOfBoundsException") != std::string::npos);
}

TEST(java_bind_keeps_xin_when_the_code_reads_it_otherwise) {
  // An index that is computed, xIN's length, xIN given to a variable or written, and an index past
  // its length (which fails): xIN stays an array the inputs are copied into, with the same results.
  const std::vector<BlockCode> codes{
      {"yOUT[0] = xIN[((int) Math.abs(xIN[0])) % 2]; return yOUT;", "", ""},
      {"yOUT[0] = xIN.length + xIN[1]; return yOUT;", "", ""},
      {"double[] v = xIN; yOUT[0] = v[1] + xIN[0]; return yOUT;", "", ""},
      {"xIN[1] = xIN[0] * 2; yOUT[0] = xIN[1]; return yOUT;", "", ""},
      {"yOUT[0] = xIN[0]; if (xIN[0] > 1) yOUT[0] = xIN[2]; return yOUT;", "", ""},
  };
  for (const BlockCode& code : codes) {
    bool inPlace = true, copied = true;
    const std::string tried = runTwoInputs(code, 1, true, 30, inPlace);
    CHECK(!inPlace);
    CHECK(tried == runTwoInputs(code, 1, false, 30, copied));
  }
}
