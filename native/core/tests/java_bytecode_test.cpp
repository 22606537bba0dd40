// The bytecode of Java blocks (control/java/bytecode.hpp): the code of typical blocks runs entirely
// as bytecode, and every program gives the same results, bit for bit, and the same failures as
// through its nodes.
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

}  // namespace

TEST(java_bytecode_listing_debug) {
  Program p(BlockCode{"double u = yOUT[0];\ndouble f_s = xIN[0];\n\ndouble ss = 2.0/(1.0/f_s/dt);\n\ndouble y = 0;\n\nif (dir == 2){\n    y = 0;\n    dir = 1;\n}\nelse{\n\tif (dir == 1){\n    \t\ty = u + ss;\n    \t\tdir = 1;\n    \t\t\n    \t\tif (y == 1){\n    \t\t\tdir = -1;\n    \t\t}\n    \t\telse if (y > 1){\n    \t\t\ty = 1 - (ss - abs(1-u));\n    \t\t\tdir = -1;\n    \t\t}\n    \t}\n        else {\n        \ty = u - ss;\n        \tdir = -1;\n        \tif (y == 0){\n        \t\tdir = 1;\n        \t}\n        \telse if (y < 0) {\n        \t\ty = 0 + ss - abs(u);\n        \t\tdir = 1;\n        \t}\n        }\n}\n\nyOUT[0] = y;\nreturn yOUT;", "dir = 2;", "private static int dir = 2;"}, 1, 1);
  printf("%s\n", pesim::java::listing(*p.compiled().calculate->code).c_str());
}
