// The Java block interpreter (control/java): Java's integer and floating-point semantics, state
// kept in fields between steps, arrays, methods, switch, printing as Java prints, and the errors
// a user sees for code that does not compile or fails while running.
#include <algorithm>
#include <string>
#include <vector>

#include "control/java/program.hpp"
#include "harness.hpp"

namespace {

using pesim::java::BlockCode;
using pesim::java::CodeError;
using pesim::java::CodeFailure;
using pesim::java::Program;

// One call of the code with these inputs.
const pesim::java::Array& step(Program& p, const std::vector<double>& inputs, double time, double dt) {
  std::copy(inputs.begin(), inputs.end(), p.inputs());
  return p.calculate(time, dt);
}

std::vector<double> once(const std::string& code, std::size_t outputs, std::vector<double> inputs = {},
                         const std::string& variables = "", const std::string& init = "") {
  Program p(BlockCode{code, init, variables}, inputs.size(), outputs);
  p.start(1);
  return step(p, inputs, 1e-6, 1e-6).numbers;
}

std::string compileError(const std::string& code, const std::string& variables = "") {
  try {
    Program p(BlockCode{code, "", variables}, 1, 1);
  } catch (const CodeError& e) {
    return e.section + ":" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": " + e.message;
  }
  return "";
}

std::string runError(const std::string& code) {
  try {
    Program p(BlockCode{code, "", ""}, 1, 1);
    p.start(1);
    step(p, {0.0}, 0.0, 1e-6);
  } catch (const CodeFailure& f) {
    return std::to_string(f.line) + ": " + f.message;
  }
  return "";
}

}  // namespace

// JLS §15.17 and §5.1.3: int arithmetic truncates and wraps, casts truncate toward zero.
TEST(java_integer_arithmetic) {
  auto y = once(
      "int max_val = 1000;\n"
      "yOUT[0] = max_val*1/6; yOUT[1] = 1/25000; yOUT[2] = 7 % -3; yOUT[3] = -7 / 2;\n"
      "yOUT[4] = (int) 3.99; yOUT[5] = (int) -3.99; yOUT[6] = Integer.MAX_VALUE + 1; yOUT[7] = 5.5 % 2;\n"
      "yOUT[8] = 1 << 33; yOUT[9] = -16 >>> 28; yOUT[10] = (long) 1e300; yOUT[11] = 'a' + 1;\n"
      "double T_samp = 1/25000; yOUT[12] = T_samp; yOUT[13] = 1.0/4; yOUT[14] = (int) Double.NaN;\n"
      "return yOUT;",
      15);
  std::vector<double> expected = {166, 0, 1, -3, 3, -3, -2147483648.0, 1.5, 2, 15, 9223372036854775807.0, 98, 0, 0.25, 0};
  for (std::size_t i = 0; i < expected.size(); ++i) CHECK_NEAR(y[i], expected[i], 0.0);
}

// GeckoCIRCUITS' example outputstagemodel: a triangle carrier from a static direction flag.
TEST(java_state_between_steps) {
  Program p(BlockCode{
                "double u = yOUT[0]; double f_s = xIN[0]; double ss = 2.0/(1.0/f_s/dt); double y = 0;\n"
                "if (dir == 2) { y = 0; dir = 1; }\n"
                "else if (dir == 1) { y = u + ss; if (y >= 1) { y = 1 - (y - 1); dir = -1; } }\n"
                "else { y = u - ss; if (y <= 0) { y = -y; dir = 1; } }\n"
                "yOUT[0] = y; return yOUT;",
                "dir = 2;", "private static int dir = 5;"},
            1, 1);
  p.start(1);
  double fs = 100e3, dt = 1e-6;  // 10 steps per period: ss = 0.2
  std::vector<double> got;
  for (int n = 1; n <= 8; ++n) got.push_back(step(p, {fs}, n * dt, dt).numbers[0]);
  std::vector<double> expected = {0, 0.2, 0.4, 0.6, 0.8, 1.0, 0.8, 0.6};
  for (std::size_t i = 0; i < expected.size(); ++i) CHECK_NEAR(got[i], expected[i], 1e-12);
}

TEST(java_arrays_methods_and_loops) {
  auto y = once(
      "double[][] table = {{0,1},{2,3},{4,5}};\n"
      "double sum = 0; for (int i = 0; i < table.length; i++) for (double v : table[i]) sum += v;\n"
      "int k = 0; while (true) { if (++k >= 10) break; if (k % 2 == 0) continue; }\n"
      "double[] buf = new double[4]; buf[3] = sq(3);\n"
      "int n = 0; do { n += 2; } while (n < 7);\n"
      "yOUT[0] = sum; yOUT[1] = k; yOUT[2] = buf[3]; yOUT[3] = fact(5); yOUT[4] = n; yOUT[5] = table[2][1];\n"
      "yOUT[6] = hits > 0 ? 1 : 0; yOUT[7] = Math.max(2, 3.5) + abs(-1) + Math.round(2.5) + floor(-0.5);\n"
      "return yOUT;",
      8, {}, "static double sq(double x) { return x * x; }\nint fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\nint hits = 1;");
  std::vector<double> expected = {15, 10, 9, 120, 8, 5, 1, 3.5 + 1 + 3 - 1};
  for (std::size_t i = 0; i < expected.size(); ++i) CHECK_NEAR(y[i], expected[i], 0.0);
}

// JDK array helpers: System.arraycopy (overlapping: as if through a temporary), Arrays.fill,
// Arrays.copyOf (zero-padded), clone() (a copy, not the same array).
TEST(java_array_helpers) {
  auto y = once(
      "double[] a = {1, 2, 3, 4, 5};\n"
      "System.arraycopy(a, 0, a, 1, 4);\n"
      "double[] b = a.clone(); b[0] = 9;\n"
      "double[] c = Arrays.copyOf(a, 7);\n"
      "int[] z = new int[3]; Arrays.fill(z, 7);\n"
      "yOUT[0] = a[0] + a[1] * 10 + a[4] * 100; yOUT[1] = a[0]; yOUT[2] = c.length + c[6] + c[4];\n"
      "yOUT[3] = z[0] + z[2]; return yOUT;",
      4);
  CHECK_NEAR(y[0], 1 + 10 + 400, 0.0);
  CHECK_NEAR(y[1], 1, 0.0);
  CHECK_NEAR(y[2], 7 + 0 + 4, 0.0);
  CHECK_NEAR(y[3], 14, 0.0);
  CHECK(runError("double[] a = new double[3];\nSystem.arraycopy(a, 1, a, 0, 3);") ==
        "2: ArrayIndexOutOfBoundsException: arraycopy of 3 elements from 1 (length 3) to 0 (length 3)");
  CHECK(compileError("double[] a = new double[3]; System.arraycopy(a, 0, 5, 0, 1);") ==
        "code:1:29: System.arraycopy takes (array, int, array of the same type, int, int)");
}

// Initializer blocks of the class run with the field initializers, in declaration order.
TEST(java_initializer_blocks) {
  auto y = once("yOUT[0] = table[3]; yOUT[1] = scale; return yOUT;", 2, {},
                "static double[] table = new double[5];\nstatic { for (int i = 0; i < table.length; i++) table[i] = i * i; }\n"
                "double scale = table[2];\n{ scale *= 10; }");
  CHECK_NEAR(y[0], 9, 0.0);
  CHECK_NEAR(y[1], 40, 0.0);
}

TEST(java_switch_falls_through) {
  auto y = once(
      "int s = (int) xIN[0]; double r = 0;\n"
      "switch (s) { case 1: r += 1; case 2: r += 10; break; case -3: r = -3; break; default: r = 99; }\n"
      "yOUT[0] = r; return yOUT;",
      1, {1});
  CHECK_NEAR(y[0], 11, 0.0);
  CHECK_NEAR(once("int s = -3; double r = 0; switch (s) { case -3: r = -3; break; default: r = 99; } yOUT[0] = r; return yOUT;", 1)[0], -3, 0.0);
  CHECK_NEAR(once("int s = 7; double r = 0; switch (s) { case 1: r = 1; break; default: r = 99; } yOUT[0] = r; return yOUT;", 1)[0], 99, 0.0);
}

// Printing writes Java's text of numbers (Double.toString); the test flag is remembered.
TEST(java_printing_and_test_flag) {
  Program p(BlockCode{"System.out.println(\"x = \" + 1.5 + \", n = \" + 3 + \", \" + 1e10 + \" \" + (0.1 + 0.2) + \" \" + 100.0 + \" \" + 0.0001 + \" \" + (time > 0));\n"
                      "System.out.print(\"a\"); System.out.print(\"b\\nc\");\n"
                      "gecko.GeckoSim._testSuccessful = true; return yOUT;",
                      "", ""},
            0, 1);
  p.start(1);
  step(p, {}, 0.5, 1e-6);
  const auto& s = p.state();
  CHECK(s.printed.size() == 2);
  CHECK(s.printed[0] == "x = 1.5, n = 3, 1.0E10 0.30000000000000004 100.0 1.0E-4 true");
  CHECK(s.printed[1] == "ab");
  CHECK(s.pendingLine == "c");
  CHECK(s.testPassed);
  CHECK_NEAR(s.testPassedAt, 0.5, 0.0);
}

// String variables (locals, fields, parameters and results of methods), +=, String.valueOf.
TEST(java_strings) {
  Program p(BlockCode{"String s = \"n=\" + n;\ns += \", \" + label(xIN[0]);\nlog = String.valueOf(time > 0) + \"|\" + s;\n"
                      "System.out.println(log); n++; return yOUT;",
                      "", "int n = 1; String log;\nstatic String label(double v) { return v > 0 ? \"up\" : \"down\"; }"},
            1, 1);
  p.start(1);
  step(p, {2.0}, 0.5, 1e-6);
  step(p, {-1.0}, 1.0, 1e-6);
  CHECK(p.state().printed.size() == 2);
  CHECK(p.state().printed[0] == "true|n=1, up");
  CHECK(p.state().printed[1] == "true|n=2, down");
  CHECK(compileError("String s = 1;") == "code:1:8: the initial value must be String, not int");
  CHECK(compileError("String s = \"a\"; s -= \"b\";") == "code:1:19: only '=' and '+=' assign to a String variable");
}

TEST(java_compile_errors_name_section_line_and_column) {
  CHECK(compileError("double x = ;") == "code:1:12: expected a value, found ';'");
  CHECK(compileError("double a = 1;\nFile f = null;") .find("code:2:1: type 'File' is not supported") == 0);
  CHECK(compileError("yOUT[0] = get_Tend();").find("code:1:11: unknown method 'get_Tend'") == 0);
  CHECK(compileError("int x = 1;\nint x = 2;") == "code:2:5: variable 'x' is already defined in this method");
  CHECK(compileError("if (1) { }") == "code:1:5: the if condition must be a boolean, not int");
  CHECK(compileError("", "double q = undefinedName;").find("static variables:1:12: unknown name 'undefinedName'") == 0);
  CHECK(compileError("yOUT[0] = 1.5[0];") == "code:1:14: '[' needs an array, not double");
  CHECK(compileError("synchronized (this) { }") == "code:1:1: 'synchronized' is not supported in the Java subset");
  CHECK(compileError("int n = 0;\nswitch (n) { case 1 -> n++; }") == "code:2:21: switch rules (case ... ->) are not supported: write 'case x:' with break");
  CHECK(compileError("var x = 1;") == "code:1:1: 'var' is not supported in the Java subset: write the variable's type");
  CHECK(compileError("try (java.io.FileWriter w = null) { }") == "code:1:5: try-with-resources is not supported: close the writer in a finally block");
  CHECK(compileError("try { } catch (Foo e) { }").find("code:1:16: expected an exception class of the subset") == 0);
  CHECK(compileError("String a = \"x\", b = \"y\"; boolean s = a == b;") == "code:1:40: '==' on two Strings compares references in Java, not their text; use equals (a.equals(b))");
  CHECK(compileError("/* never closed") == "code:1:1: comment '/*' is not closed with '*/'");
  // Deep nesting is refused, not a stack overflow.
  CHECK(compileError("double x = " + std::string(100000, '(') + "1;").find("nested more than 200 levels") != std::string::npos);
  CHECK(compileError(std::string(100000, '{')).find("nested more than 200 levels") != std::string::npos);
  CHECK(compileError("double x = " + std::string(100000, '-') + "1;").find("nested more than 200 levels") != std::string::npos);
  CHECK(compileError("int[][] a = " + std::string(5000, '{')) == "code:1:15: expected a value, found '{'");
  CHECK(compileError("int x = 0; " + std::string(300, '!') + "true;").find("nested more than 200 levels") != std::string::npos);
}

TEST(java_runtime_failures_name_the_line) {
  CHECK(runError("double[] a = new double[2];\na[2] = 1; return yOUT;") == "2: ArrayIndexOutOfBoundsException: Index 2 out of bounds for length 2");
  CHECK(runError("int z = 0;\nint q = 1 / z; return yOUT;") == "2: ArithmeticException: / by zero");
  CHECK(runError("while (true) { }").find("1: the code ran more than its limit") == 0);
  CHECK(runError("double[] a = null; a[0] = 1;") == "1: NullPointerException: the array is null");
}

// java.util lists with java.util.ArrayList's results (checked against JDK 17): boxing, remove(int)
// by index and remove(Object) by value, equality as Double.equals (NaN equals NaN, 0.0 is not
// -0.0, an Integer never equals a Double), toString, copies, for-each with widening, and the
// fields of GeckoCIRCUITS' buck_control example (an ArrayList<Double> field created in init()).
TEST(java_lists) {
  Program p(BlockCode{
                "periodList.add(time); ints.add(ints.size() * 10);\n"
                "List<Double> d = new ArrayList<>();\n"
                "d.add(1.5); d.add(Double.NaN); d.add(-0.0); d.add(2.5); d.add(1, 7.0);\n"
                "double old = d.set(0, 4.0);\n"
                "boolean gone = d.remove(Double.valueOf(2.5));\n"
                "double removed = d.remove(0);\n"
                "java.util.ArrayList<Integer> copy = new java.util.ArrayList<Integer>(ints);\n"
                "copy.remove(Integer.valueOf(0)); if (!copy.isEmpty()) copy.remove(0);\n"
                "int sum = 0; for (int v : ints) sum += v; double wide = 0; for (double v : ints) wide += v / 4;\n"
                "Integer boxed = ints.get(ints.size() - 1);\n"
                "System.out.println(d + \" \" + ints + \" \" + copy + \" \" + d.contains(0.0) + d.contains(-0.0) + d.contains(7) + \" \" + d.indexOf(Double.NaN) + d.lastIndexOf(7.0) + \" \" + boxed.doubleValue());\n"
                "yOUT[0] = old; yOUT[1] = removed; yOUT[2] = gone ? 1 : 0; yOUT[3] = sum; yOUT[4] = wide; yOUT[5] = (double) periodList.get(periodList.size() - 1);\n"
                "yOUT[6] = d.size() + (d.isEmpty() ? 100 : 0); return yOUT;",
                "periodList = new ArrayList<Double>();",
                "static ArrayList<Double> periodList, unused;\nstatic List<Integer> ints = new ArrayList<Integer>();"},
            0, 7);
  p.start(1);
  step(p, {}, 1e-6, 1e-6);
  step(p, {}, 2e-6, 1e-6);
  auto y = step(p, {}, 3e-6, 1e-6).numbers;
  std::vector<double> expected = {1.5, 4.0, 1, 30, 7.5, 3e-6, 3};
  for (std::size_t i = 0; i < expected.size(); ++i) CHECK_NEAR(y[i], expected[i], 0.0);
  const auto& printed = p.state().printed;
  CHECK(printed.size() == 3);
  CHECK(printed[0] == "[7.0, NaN, -0.0] [0] [] falsetruefalse 10 0.0");
  CHECK(printed[2] == "[7.0, NaN, -0.0] [0, 10, 20] [20] falsetruefalse 10 20.0");
  // Clearing, and a for-each over an empty list.
  auto z = once("ArrayList<Long> l = new ArrayList<Long>(4); l.add(5L); l.clear(); long s = 0; for (Long v : l) s += v;\n"
                "yOUT[0] = l.size() + s; return yOUT;", 1);
  CHECK_NEAR(z[0], 0.0, 0.0);
}

// The JDK's exceptions, with the block's CODE_FAILED line.
TEST(java_list_failures) {
  CHECK(runError("List<Double> l = new ArrayList<Double>();\nl.add(1.0);\ndouble x = l.get(1); return yOUT;") ==
        "3: IndexOutOfBoundsException: Index 1 out of bounds for length 1");
  CHECK(runError("ArrayList<Integer> l = new ArrayList<>();\nl.add(0, 4); l.add(3, 5); return yOUT;") ==
        "2: IndexOutOfBoundsException: Index: 3, Size: 1");
  CHECK(runError("ArrayList<Integer> l = new ArrayList<>();\nl.remove(-1);") == "2: IndexOutOfBoundsException: Index -1 out of bounds for length 0");
  CHECK(runError("ArrayList<Double> l = new ArrayList<>(); l.add(1.0); l.add(2.0);\nfor (double v : l)\n  l.add(v);") ==
        "2: ConcurrentModificationException");
  // Removing the second-to-last element ends the loop without an exception (Itr.hasNext).
  CHECK(runError("ArrayList<Double> l = new ArrayList<>(); l.add(1.0); l.add(2.0); l.add(3.0);\n"
                 "for (double v : l) if (v == 2.0) l.remove(v); return yOUT;") == "");
  CHECK(runError("ArrayList<Double> l = null;\nint n = l.size();") == "2: NullPointerException: the list is null");
  CHECK(runError("ArrayList<Double> l = new ArrayList<Double>(-2);") == "1: IllegalArgumentException: Illegal Capacity: -2");
}

// What javac refuses is refused, with the line and column.
TEST(java_list_compile_errors) {
  CHECK(compileError("List<Double> l = new ArrayList<>(); l.add(1);") ==
        "code:1:39: a List<Double> holds Double values, not int (write the number as a double)");
  CHECK(compileError("ArrayList l = new ArrayList();") == "code:1:1: raw ArrayList is not supported in Java blocks: give its element type, e.g. ArrayList<Double>");
  CHECK(compileError("List<double> l;") == "code:1:6: a List holds objects: write Double, not double");
  CHECK(compileError("List<Object> l;").find("code:1:6: List of Object is not supported") == 0);
  CHECK(compileError("List<Double> l = new List<Double>();") == "code:1:22: List is an interface: create an ArrayList");
  CHECK(compileError("List<Double> l = new ArrayList<>(); Double a = l.get(0), b = l.get(0); boolean s = a == b;") ==
        "code:1:86: '==' on two Double objects compares references in Java, not values; unbox one, e.g. (double) x");
  CHECK(compileError("List<Integer> l = new ArrayList<>(); for (int v : l) { } for (Double d : l) { }") ==
        "code:1:70: a for-each loop over List<Integer> needs a variable of type Integer or a primitive it widens to, not Double");
  CHECK(compileError("List<Double> l = new ArrayList<>(); double x = l.length;") ==
        "code:1:49: '.length' needs an array, not List<Double> (a list has .size())");
  CHECK(compileError("List<Double> l = new ArrayList<>(); l.sort(null);").find("code:1:39: unknown method 'sort' of List<Double>") == 0);
  CHECK(compileError("HashSet<String> m = new HashSet<>();").find("code:1:1: type 'HashSet' is not supported") == 0);
  CHECK(compileError("Map<String, Double> m = new HashMap<>(); m.put(\"a\", 1);") == "code:1:44: Map<String, Double>.put takes a String key and a Double value");
  CHECK(compileError("Double d = 1;") == "code:1:8: the initial value must be Double, not int");
}

// A library method given too few arguments is no library call (an unknown method), never a read
// past the arguments.
TEST(java_library_calls_without_arguments) {
  const char* unknown = "code:1:11: unknown method '";
  for (const char* name : {"Integer.parseInt", "Long.parseLong", "Double.parseDouble", "Integer.toString", "Integer.toHexString",
                           "Integer.compare", "Character.isDigit", "Character.toUpperCase", "Arrays.toString", "Arrays.sort",
                           "Collections.max", "Collections.sort", "String.join"}) {
    CHECK(compileError(std::string("yOUT[0] = ") + name + "();").find(unknown + std::string(name) + "'") == 0);
  }
}
