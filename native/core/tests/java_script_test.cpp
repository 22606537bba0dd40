// Scripts in the Java subset (control/java/script.hpp): statements without a class, variables kept
// from piece to piece, declarations by first value, host functions, the statement bound and the
// interrupt flag, and errors with line and column.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"
#include "pesim/script.hpp"

namespace {

using pesim::script::HostFailure;
using pesim::script::HostValue;
using ScriptError = pesim::script::Error;
using ScriptPart = pesim::script::Part;
using ScriptSession = pesim::script::Session;
using ScriptSetup = pesim::script::Setup;

struct Harness {
  std::string out;
  std::vector<std::string> calls;
  std::int32_t interrupt = 0;
  std::unique_ptr<ScriptSession> session;

  explicit Harness(long long maxSteps = 0, std::string outputDir = ".") {
    ScriptSetup setup;
    setup.outputDir = std::move(outputDir);
    // twice(double) → double; fail(String) fails with its text; note(Object) records the text.
    setup.functions = {
        {"twice", {{{"double"}, "double"}}},
        {"fail", {{{"String"}, "void"}}},
        {"note", {{{"Object"}, "void"}}},
        {"pair", {{{}, "double[][]"}}},
    };
    setup.unsupported = {"simulateStep"};
    setup.call = [this](std::size_t f, std::size_t, std::vector<HostValue>& a) {
      HostValue v;
      if (f == 0) v.number = 2 * a[0].number;
      if (f == 1) throw HostFailure{a[0].text};
      if (f == 2) calls.push_back(a[0].text);
      if (f == 3) {
        for (double x : {1.0, 2.0}) {
          HostValue row;
          row.items = {HostValue{x, "", false, {}}, HostValue{x * 10, "", false, {}}};
          v.items.push_back(row);
        }
      }
      return v;
    };
    setup.write = [this](const std::string& text) { out += text; };
    setup.maxSteps = maxSteps;
    setup.interrupt = &interrupt;
    session = std::make_unique<ScriptSession>(std::move(setup));
  }

  std::string run(const std::string& text, ScriptPart part = ScriptPart::Statements) {
    out.clear();
    session->compile(pesim::script::Source{"test.pss", text, 1}, part);
    session->run();
    return out;
  }

  std::string error(const std::string& text, ScriptPart part = ScriptPart::Statements) {
    try {
      run(text, part);
    } catch (const ScriptError& e) {
      return e.kind + " " + std::to_string(e.line) + ":" + std::to_string(e.column) + ": " + e.message;
    }
    return "no error";
  }
};

}  // namespace

TEST(script_statements_declarations_and_output) {
  Harness h;
  CHECK(h.run("double x = 1; int i; y = 2; var w = \"v\"; print(x); print(i); print(y); print(w); print(7 / 2);") == "1.0\n0\n2\nv\n3\n");
  CHECK(h.run("for (k = 0; k < 3; k++) writeOutput(k); writeOutputLn(); System.out.println(sqrt(16));") == "012\n4.0\n");
  CHECK(h.run("print(1); if (true) return; print(2);") == "1\n");
  CHECK(h.run("import static java.lang.Math.*;\nprint(PI);") == "3.141592653589793\n");
}

TEST(script_variables_stay_from_piece_to_piece) {
  Harness h;
  h.run("double Kp = 2.2; int[] f = {1, 2};");
  CHECK(h.run("print(Kp * f[1]);") == "4.4\n");
  CHECK(h.error("int a = 1; nosuch();").find("unknown function 'nosuch'") != std::string::npos);
  CHECK(h.run("int a = 2; print(a);") == "2\n");  // the failed piece declared nothing
  CHECK(h.error("int z = 0; double b = 1 / z;") == "runtime 1:25: ArithmeticException: / by zero");
  CHECK(h.run("print(b);") == "0.0\n");
}

TEST(script_prompt_prints_a_bare_expression) {
  Harness h;
  CHECK(h.run("1.0 / 4", ScriptPart::Input) == "0.25\n");
  CHECK(h.run("double q = 3;", ScriptPart::Input).empty());
  CHECK(h.run("q + 1;", ScriptPart::Input) == "4.0\n");
  CHECK(h.run("q = q * 2;", ScriptPart::Input).empty());
  CHECK(h.run("Math.max(q, 1);", ScriptPart::Input).empty());  // a call is a statement
  CHECK(h.run("Math.max(q, 1)", ScriptPart::Input) == "6.0\n");   // without its ;, a value
  CHECK(h.error("q + 1;") == "compile 1:1: not a statement (a value alone does nothing)");
  CHECK(h.error("q +;", ScriptPart::Input).rfind("compile 1:3:", 0) == 0 || h.error("q +;", ScriptPart::Input).rfind("syntax", 0) == 0);
}

TEST(script_declarations_section_is_a_class_body) {
  Harness h;
  h.run("static java.util.ArrayList<Double> periods = new java.util.ArrayList<>();\ndouble scale = 2;\n"
        "double scaled(double x) { return x * scale; }", ScriptPart::Declarations);
  CHECK(h.run("periods.add(scaled(3)); print(periods);") == "[6.0]\n");
  CHECK(h.error("print(1);", ScriptPart::Declarations).rfind("compile 1:1: only field and method declarations belong in the declarations section", 0) == 0);
}

TEST(script_host_functions) {
  Harness h;
  CHECK(h.run("print(twice(2) + twice(0.25)); note(3); note(\"a\" + 1); double[][] w = pair(); print(w[1][1]);") == "4.5\n20.0\n");
  CHECK((h.calls == std::vector<std::string>{"3", "a1"}));
  // Rows of a call's result, which nothing else holds.
  CHECK(h.run("print(pair()[1][1] + \" \" + pair()[0].length); double[] r = pair()[0]; print(r[1]);") == "20.0 2\n10.0\n");
  CHECK(h.error("print(1);\n  fail(\"no circuit is loaded\");") == "runtime 2:3: no circuit is loaded");
  CHECK(h.error("twice(1, 2);") == "compile 1:1: twice expects twice(double), got 2 arguments");
  CHECK(h.error("twice(\"x\");") == "compile 1:7: argument 1 of twice must be double, found String");
  CHECK(h.error("int q = 1;\nsimulateStep(q);") == "compile 2:1: the GeckoSCRIPT function 'simulateStep' is not supported by pesim");
  CHECK(h.out.empty());  // nothing ran
}

TEST(script_statement_bound_and_interrupt) {
  Harness bounded(5000);
  CHECK(bounded.error("int n = 0;\nwhile (true) {\n  n++;\n}").rfind("step-limit", 0) == 0);
  CHECK(bounded.error("int m = 0; while (true) m++;").find("the script exceeded the limit of 5000 statements (--max-steps)") != std::string::npos);
  CHECK(bounded.session->steps() == 5001);
  Harness h;
  h.interrupt = 1;
  CHECK(h.error("double x = 0;\nfor (;;) x += 1;").rfind("interrupted", 0) == 0);
}

TEST(script_errors_name_line_and_column) {
  Harness h;
  CHECK(h.error("int x = 1;\n  x = foo(3);") == "compile 2:7: unknown function 'foo'");
  CHECK(h.error("print(\"abc);") .rfind("syntax 1:7:", 0) == 0);
  CHECK(h.error("int[] a = new int[2];\na[2] = 1;") == "runtime 2:2: ArrayIndexOutOfBoundsException: Index 2 out of bounds for length 2");
  CHECK(h.error("print(1) print(2);") == "syntax 1:10: expected ')' after the print argument, found 'print'" ||
        h.error("print(1) print(2);").rfind("syntax 1:10:", 0) == 0);
  CHECK(h.error("}").rfind("syntax 1:1:", 0) == 0);
}

namespace {

std::string fileText(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(script_writes_files_only_in_its_folder) {
  namespace fs = std::filesystem;
  const fs::path root = fs::temp_directory_path() / ("pesim-script-files-" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "out" / "sub");
  fs::create_directories(root / "elsewhere");
  fs::create_symlink(root / "elsewhere", root / "out" / "link");
  Harness h(0, (root / "out").string());
  h.run("PrintWriter w = new PrintWriter(new FileWriter(\"a.csv\"));\nw.println(\"t,v\"); w.printf(\"%.2f,%d%n\", 0.5, 3); w.print(1.5); w.close();\n"
        "try (BufferedWriter b = new BufferedWriter(new FileWriter(\"sub/b.txt\", true))) { b.write(\"x\"); b.newLine(); }");
  CHECK(fileText(root / "out" / "a.csv") == "t,v\n0.50,3\n1.5");
  CHECK(fileText(root / "out" / "sub" / "b.txt") == "x\n");
  for (const std::string& path : std::vector<std::string>{"../escape.txt", (root / "elsewhere" / "abs.txt").string(), "link/through.txt", "sub/../../x.txt"}) {
    const std::string e = h.error("new PrintWriter(\"" + path + "\");");
    CHECK(e.find("runtime 1:1: SecurityException: " + path + " is outside the folder scripts may write to") == 0);
  }
  CHECK(fs::is_empty(root / "elsewhere"));
  CHECK(!fs::exists(root / "escape.txt"));
  CHECK(h.error("try { new FileWriter(\"../e.txt\"); } catch (SecurityException e) { print(\"caught\"); }") == "no error");
  fs::remove_all(root);
}
