// The bytecode of Java blocks (control/java/bytecode.hpp): the blocks of the GeckoCIRCUITS corpus
// and typical code run entirely as bytecode, and every program gives the same outputs, bit for
// bit, and the same failures (message and line) as through its nodes, including the constructs
// that the bytecode runs through their nodes.
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

struct Block { const char* name; const char* variables; const char* init; const char* code; std::size_t inputs, outputs; };
// The Java blocks of the GeckoCIRCUITS corpus models 025_Swiss_Rect, 035_NPCmodel and
// 019_outputstagemodel (the models whose run time goes to their Java blocks), as written there.
const std::vector<Block> kCorpusBlocks = {
    {"swiss_rect_switching_table", R"JAVA(static double S1a,S1b,S2a,S2b,S3a,S3b;
static double Ur,Us,Ut, theta, dT = 1;
static int state;
)JAVA", R"JAVA(
)JAVA", R"JAVA(Ur = xIN[0];
Us = xIN[1];
Ut = xIN[2];

int max_val = 1000;

theta = (time * 50 * max_val) % max_val;

if (theta<max_val*0 + 0.16*dT){			// 2nd half of 2->3
	state = 23;
}else if (theta<max_val*0 + 0.5*dT){
	state = 24;
}else if (theta<max_val*1/6 - 0.5*dT){		// steady state 3
	state = 1;
}else if (theta<max_val*1/6 - 0.16*dT){
	state = 2;
}else if (theta<max_val*1/6 + 0.16*dT){
	state = 3;
}else if (theta<max_val*1/6 + 0.5*dT){
	state = 4;
}else if (theta<max_val*2/6 - 0.5*dT){		// steady state 1
	state = 5;
}else if (theta<max_val*2/6 - 0.16*dT){
	state = 6;
}else if (theta<max_val*2/6 + 0.16*dT){
	state = 7;
}else if (theta<max_val*2/6 + 0.5*dT){
	state = 8;
}else if (theta<max_val*3/6 - 0.5*dT){		// steady state 2
	state = 9;
}else if (theta<max_val*3/6 - 0.16*dT){
	state = 10;
}else if (theta<max_val*3/6 + 0.16*dT){
	state = 11;
}else if (theta<max_val*3/6 + 0.5*dT){
	state = 12;
}else if (theta<max_val*4/6 - 0.5*dT){		// steady state 3
	state = 13;
}else if (theta<max_val*4/6 - 0.16*dT){
	state = 14;
}else if (theta<max_val*4/6 + 0.16*dT){
	state = 15;
}else if (theta<max_val*4/6 + 0.5*dT){
	state = 16;
}else if (theta<max_val*5/6 - 0.5*dT){		// steady state 1
	state = 17;
}else if (theta<max_val*5/6 - 0.16*dT){
	state = 18;
}else if (theta<max_val*5/6 + 0.16*dT){
	state = 19;
}else if (theta<max_val*5/6 + 0.5*dT){
	state = 20;
}else if (theta<max_val*6/6 - 0.5*dT){
	state = 21;
}else if (theta<max_val*6/6 - 0.16*dT){
	state = 22;
}


// S1a = ((Ut>Ur)&&(Ur>Us))||((Us>Ur)&&(Ur>Ut))? 1 : 0;
// S1b = ((Ut>Ur)&&(Ur>Us))||((Us>Ur)&&(Ur>Ut))? 1 : 0;
// S2a = ((Ur>Us)&&(Us>Ut))||((Ut>Us)&&(Us>Ur))? 1 : 0;
// S2b = ((Ur>Us)&&(Us>Ut))||((Ut>Us)&&(Us>Ur))? 1 : 0;
// S3a = ((Ur>Ut)&&(Ut>Us))||((Us>Ut)&&(Ut>Ur))? 1 : 0;
// S3b = ((Ur>Ut)&&(Ut>Us))||((Us>Ut)&&(Ut>Ur))? 1 : 0;

double switch_array[][] = {		// S1a, S1b, S2a, S2b, S3a, S3b
	{0,0,0,0,0,0},		//OFF
	{0,0,0,0,1,1},		//steady state case 1		I right
	{0,0,0,0,1,0},		//2
	{1,0,0,0,1,0},		//3
	{1,0,0,0,0,0},		//4
	{1,1,0,0,0,0},		//steady state case 2		I left
	{0,1,0,0,0,0},		//6
	{0,1,0,1,0,0},		//7
	{0,0,0,1,0,0},		//8
	{0,0,1,1,0,0},		//steady state case 3		I right
	{0,0,1,0,0,0},		//10
	{0,0,1,0,1,0},		//11
	{0,0,0,0,1,0},		//12
	{0,0,0,0,1,1},		//steady state case 4		I left
	{0,0,0,0,0,1},		//14
	{0,1,0,0,0,1},		//15
	{0,1,0,0,0,0},		//16
	{1,1,0,0,0,0},		//steady state case 5		I right
	{1,0,0,0,0,0},		//18
	{1,0,1,0,0,0},		//19
	{0,0,1,0,0,0},		//20
	{0,0,1,1,0,0},		//steady state case 6		I left
	{0,0,0,1,0,0},		//22
	{0,0,0,1,0,1},		//23
	{0,0,0,0,0,1}};		//24


yOUT[0] = switch_array[state][0];
yOUT[1] = switch_array[state][1];
yOUT[2] = switch_array[state][2];
yOUT[3] = switch_array[state][3];
yOUT[4] = switch_array[state][4];
yOUT[5] = switch_array[state][5];
yOUT[6] = theta;
return yOUT;)JAVA", 3, 7},
    {"npc_carrier", R"JAVA(private static int dir = 2;
)JAVA", R"JAVA(dir = 2;
)JAVA", R"JAVA(double u = yOUT[0];
double f_s = xIN[0];

double ss = 2.0/(1.0/f_s/dt);

double y = 0;

if (dir == 2){
    y = 0;
    dir = 1;
}
else{
	if (dir == 1){
    		y = u + ss;
    		dir = 1;
    		
    		if (y == 1){
    			dir = -1;
    		}
    		else if (y > 1){
    			y = 1 - (ss - abs(1-u));
    			dir = -1;
    		}
    	}
        else {
        	y = u - ss;
        	dir = -1;
        	if (y == 0){
        		dir = 1;
        	}
        	else if (y < 0) {
        		y = 0 + ss - abs(u);
        		dir = 1;
        	}
        }
}

yOUT[0] = y;
return yOUT;)JAVA", 1, 1},
    {"npc_modulator", R"JAVA(
)JAVA", R"JAVA(
)JAVA", R"JAVA(double ref = xIN[0];
double carr = xIN[1];
double control_bit = xIN[2];
double flag3 = xIN[3];
double flag2 = xIN[4];

double carr1 = carr;
double carr2 = -carr1;

double u_sw1 = 0;
double u_sw2 = 0;
double u_sw3 = 0;
double u_sw4 = 0;

if (control_bit == 1 || (flag3 == 0 && flag2 == 0)){

	if (ref >= 0){
    
		if (ref < carr1){
			u_sw1 = 0;
			u_sw2 = 1;
			u_sw3 = 1;
			u_sw4 = 0;
		}
		else {
			u_sw1 = 1;
			u_sw2 = 1;
			u_sw3 = 0;
			u_sw4 = 0;
		}
	}
	else {
    
		if (ref < carr2) {
			u_sw1 = 0;
			u_sw2 = 0;
			u_sw3 = 1;
			u_sw4 = 1;
		}
		else {
			u_sw1 = 0;
			u_sw2 = 1;
			u_sw3 = 1;
			u_sw4 = 0;
		}
	}
}
else{
	u_sw1 = 1;
	u_sw2 = 1;
	u_sw3 = 0;
	u_sw4 = 0;
			
}

yOUT[0] = u_sw1;
yOUT[1] = u_sw2;
yOUT[2] = u_sw3;
yOUT[3] = u_sw4;

return yOUT;)JAVA", 5, 4},
    {"npc_junction_maximum", R"JAVA(static double Tjmax;
static double Tj;
)JAVA", R"JAVA(Tjmax = 0;
)JAVA", R"JAVA(Tj = xIN[0];

if (Tj > Tjmax)
	Tjmax = Tj;

yOUT[0] = Tjmax;

return yOUT;)JAVA", 1, 1},
};

// Typical block code: arithmetic of every type, if/else, loops over arrays, static state, Math.
const std::vector<Block> kTypicalBlocks = {
    {"pi_controller", "static double integral; static double kp = 0.5, ki = 200;", "integral = 0;",
     "double e = xIN[0] - xIN[1];\nintegral += ki * e * dt;\nif (integral > 10) integral = 10; else if (integral < -10) integral = -10;\n"
     "yOUT[0] = kp * e + integral;\nreturn yOUT;", 2, 1},
    {"moving_average", "static double[] window = new double[16]; static int next, filled;", "",
     "window[next] = xIN[0]; next = (next + 1) % window.length; if (filled < window.length) filled++;\n"
     "double sum = 0;\nfor (int i = 0; i < filled; i++) { sum += window[i]; }\nyOUT[0] = sum / filled;\nreturn yOUT;", 1, 1},
    {"integer_types", "static long ticks; static int count; static char c = 'a'; static float f = 1.5f;", "",
     "ticks += 3000000000L; count = count * 7 + 3; c++; f *= 1.1f;\n"
     "int shifted = (count << 3) ^ (count >>> 2) | (count >> 1) & 0x55;\nlong big = ticks * 3 / 7 % 1000003;\n"
     "yOUT[0] = ticks; yOUT[1] = count; yOUT[2] = c; yOUT[3] = f; yOUT[4] = shifted; yOUT[5] = big;\n"
     "yOUT[6] = -count; yOUT[7] = ~count; yOUT[8] = (int) (xIN[0] * 1e9); yOUT[9] = (long) xIN[0] << 40; yOUT[10] = count % 256;\n"
     "return yOUT;", 1, 11},
    {"math_library", "", "",
     "double x = xIN[0];\nyOUT[0] = Math.sin(x) + Math.cos(2 * x) - Math.sqrt(Math.abs(x));\nyOUT[1] = Math.max(x, -x) * Math.min(1, x);\n"
     "yOUT[2] = Math.pow(Math.abs(x), 1.5) + Math.exp(-x * x) + Math.log(1 + Math.abs(x)) + Math.atan2(x, 2);\n"
     "yOUT[3] = Math.floor(x * 10) + Math.ceil(x * 10) + Math.round(x * 10) + Math.signum(x) + Math.abs(-3) + Math.hypot(x, 3);\n"
     "yOUT[4] = x % 0.3; yOUT[5] = x / 0.0; yOUT[6] = Math.toDegrees(x) + Math.toRadians(x) + Math.floorMod((int) (x * 100), 7);\nreturn yOUT;",
     1, 7},
    {"tables_and_rows", "static double[][] gains = {{1, 2, 3}, {4, 5, 6}}; static int[] counts = new int[3];", "",
     "int row = xIN[0] > 0 ? 1 : 0;\nint k = (int) (Math.abs(xIN[0]) * 3) % 3;\ncounts[k]++; counts[k] += 2; gains[row][k] *= 1.0001;\n"
     "double[][] local = {{0.5, 0.25}, {0.125, 1}};\nlocal[row][1] = local[1 - row][0] + gains[row][k];\n"
     "yOUT[0] = gains[row][k] + local[row][1]; yOUT[1] = counts[0] + counts[1] * 10 + counts[2] * 100; yOUT[2] = local.length + local[0].length;\n"
     "return yOUT;", 1, 3},
    {"loops_and_jumps", "static int state;", "",
     "double acc = 0; int i = 0;\nwhile (true) { i++; if (i % 3 == 0) continue; if (i > 20) break; acc += i; }\n"
     "do { acc -= 0.5; i--; } while (i > 15);\nfor (int a = 0, b = 10; a < b; a += 2, b--) { if (a == b - 3) continue; acc += a * b; }\n"
     "for (double v : yOUT) acc += v * 0.001;\nstate = (state + 1) % 5;\nboolean flag = acc > 100 && state != 2 || xIN[0] < 0;\n"
     "yOUT[0] = acc; yOUT[1] = flag ? 1 : 0; yOUT[2] = !flag ? state : -state;\nreturn yOUT;", 1, 3},
    {"state_machine", "static int mode; static double timer;", "mode = 1;",
     "timer += dt;\nswitch (mode) {\n  case 0: yOUT[0] = 0; if (xIN[0] > 0.5) { mode = 1; timer = 0; } break;\n"
     "  case 1: yOUT[0] = 1; if (timer > 5e-6) mode = 2;\n  case 2: yOUT[0] += 0.5; if (xIN[0] < -0.5) mode = 3; break;\n"
     "  case 3: case 4: mode = 0; break;\n  default: mode = -1;\n}\nfor (int i = 0; i < 3; i++) { switch (i) { case 1: continue; default: yOUT[1] += i; } }\n"
     "yOUT[2] = mode;\nreturn yOUT;", 1, 3},
};

// Code that mixes the fast path with constructs the bytecode runs through their nodes (methods,
// switch, strings, try/catch, lists) and failures that must surface alike.
const std::vector<Block> kMixedBlocks = {
    {"methods_and_switch", "static int calls; static double twice(double v) { calls++; return 2 * v; }", "",
     "double s = 0;\nfor (int i = 0; i < 4; i++) {\n  switch (i) { case 0: s += twice(xIN[0]); break; case 1: s -= 1; case 2: s *= 1.5; break; default: continue; }\n"
     "  s += i;\n}\nyOUT[0] = s + calls;\nreturn yOUT;", 1, 1},
    {"strings_and_lists", "static java.util.List<Double> seen = new java.util.ArrayList<>(); static String text = \"\";", "",
     "seen.add(xIN[0]); if (seen.size() > 4) seen.remove(0);\ndouble m = 0; for (double v : seen) m = Math.max(m, v);\n"
     "text = text.length() > 20 ? \"\" : text + (int) m;\nyOUT[0] = m; yOUT[1] = text.length();\nreturn yOUT;", 1, 2},
    {"try_catch_in_loop", "static int[] small = new int[2];", "",
     "int caught = 0;\nfor (int i = 0; i < 4; i++) {\n  try { small[i] = i; } catch (ArrayIndexOutOfBoundsException e) { caught++; if (i == 3) break; }\n}\n"
     "int z = 0; try { z = 10 / (int) xIN[0]; } catch (ArithmeticException e) { z = -1; }\nyOUT[0] = caught * 100 + z;\nreturn yOUT;", 1, 1},
    {"compound_and_increments", "static double[] acc = new double[3]; static int n;", "",
     "int k = n++ % 3;\nacc[k] += xIN[0]; acc[(k + 1) % 3] -= 0.5 * acc[k]; acc[k]++; ++acc[2];\n"
     "double a = 1; a += a++ + ++a; int j = 5; j -= j-- - --j; j *= 3; j /= 2; j %= 5; j <<= 2; j >>= 1; j |= 8; j &= 13; j ^= 6;\n"
     "yOUT[0] = acc[0]; yOUT[1] = acc[1]; yOUT[2] = acc[2]; yOUT[3] = a + j; yOUT[4] = n;\nreturn yOUT;", 1, 5},
    {"compound_with_side_effects", "static double s; static String t = \"\"; static double bump() { s = 5; t = \"x\"; return 1; }", "",
     "s = xIN[0]; s += bump(); double local = xIN[0]; local *= (local = 3) + bump();\nt += bump();\n"
     "yOUT[0] = s; yOUT[1] = local; yOUT[2] = t.length();\nreturn yOUT;", 1, 3},
    {"nan_and_infinity", "", "",
     "double x = xIN[0] > 0.5 ? Double.NaN : xIN[0] < -0.5 ? Double.POSITIVE_INFINITY : xIN[0];\n"
     "int c = 0; if (x < 1) c += 1; if (!(x >= 1)) c += 2; if (x == x) c += 4; if (x != x) c += 8; if (x > 1 || x <= 1) c += 16;\n"
     "yOUT[0] = c; yOUT[1] = (int) x; yOUT[2] = (long) x; yOUT[3] = x > 0 ? 1 : 0;\nreturn yOUT;", 1, 4},
};

// A double's bits, so that -0.0 and NaN payloads count.
std::uint64_t bits(double v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

// What one step gives: the outputs' bits, or the failure's line and message.
std::string outcome(Program& p, const std::vector<double>& inputs, double t, double dt) {
  try {
    std::copy(inputs.begin(), inputs.end(), p.inputs());
    std::string out;
    for (double v : p.calculate(t, dt).numbers) out += std::to_string(bits(v)) + " ";
    return out;
  } catch (const CodeFailure& f) {
    return "failure at line " + std::to_string(f.line) + ": " + f.message;
  }
}

// Runs the block both ways for `steps` steps with inputs sweeping through signs, zero and
// non-integers; true when every step gives the same outcome.
bool sameBothWays(const Block& b, int steps) {
  Program fast(BlockCode{b.code, b.init, b.variables}, b.inputs, b.outputs, Program::Execution::Bytecode);
  Program nodes(BlockCode{b.code, b.init, b.variables}, b.inputs, b.outputs, Program::Execution::Nodes);
  fast.start(7);
  nodes.start(7);
  for (int n = 0; n < steps; ++n) {
    std::vector<double> inputs;
    for (std::size_t i = 0; i < b.inputs; ++i) inputs.push_back(std::sin(0.37 * n + static_cast<double>(i)) * (n % 7 == 0 ? 0.0 : 1.3));
    if (b.inputs == 1 && std::string(b.name).rfind("npc_carrier", 0) == 0) inputs[0] = 20000 + n % 5;
    const std::string a = outcome(fast, inputs, n * 1e-6, 1e-6), c = outcome(nodes, inputs, n * 1e-6, 1e-6);
    if (a != c) {
      std::fprintf(stderr, "%s, step %d: bytecode %s, nodes %s\n", b.name, n, a.c_str(), c.c_str());
      return false;
    }
  }
  return true;
}

// One step without inputs: the first output.
double step(Program& p, int n) { return p.calculate(n * 1e-6, 1e-6).numbers[0]; }

std::size_t fallbacks(const Program& p) {
  const auto& c = p.compiled();
  return pesim::java::fallbacks(*c.calculate->code) + pesim::java::fallbacks(*c.init->code) + pesim::java::fallbacks(*c.fieldInit->code);
}

std::string failureOf(const std::string& code, Program::Execution how) {
  Program p(BlockCode{code, "", "static double[] none; static double[][] grid = new double[2][];"}, 1, 1, how);
  p.start(1);
  return outcome(p, {0.0}, 0.0, 1e-6);
}

}  // namespace

TEST(java_bytecode_runs_the_corpus_and_typical_blocks_entirely) {
  for (const auto* set : {&kCorpusBlocks, &kTypicalBlocks}) {
    for (const Block& b : *set) {
      Program p(BlockCode{b.code, b.init, b.variables}, b.inputs, b.outputs);
      if (fallbacks(p) != 0) {
        std::fprintf(stderr, "%s runs %zu node(s):\n%s", b.name, fallbacks(p), pesim::java::listing(*p.compiled().calculate->code).c_str());
      }
      CHECK(fallbacks(p) == 0);
    }
  }
}

TEST(java_bytecode_runs_other_constructs_through_their_nodes) {
  const Block& b = kMixedBlocks[0];
  Program p(BlockCode{b.code, b.init, b.variables}, b.inputs, b.outputs);
  CHECK(fallbacks(p) > 0);
}

TEST(java_bytecode_and_nodes_give_the_same_results) {
  for (const auto* set : {&kCorpusBlocks, &kTypicalBlocks, &kMixedBlocks}) {
    for (const Block& b : *set) CHECK(sameBothWays(b, 400));
  }
}

TEST(java_bytecode_and_nodes_fail_alike) {
  const char* const programs[] = {
      "yOUT[0] = none[0]; return yOUT;",
      "none[1] = xIN[0]; return yOUT;",
      "none[(int) xIN[0]] = 1; return yOUT;",
      "yOUT[0] = grid[1][0]; return yOUT;",
      "yOUT[0] = grid[2][0]; return yOUT;",
      "grid[0][yOUT.length + 3] = 1; return yOUT;",
      "yOUT[0] = none[grid[5].length]; return yOUT;",
      "yOUT[1] = 1; return yOUT;",
      "yOUT[-1] = 1; return yOUT;",
      "yOUT[0] = xIN[3]; return yOUT;",
      "int z = (int) xIN[0]; yOUT[0] = 5 / z; return yOUT;",
      "int z = 0; yOUT[0] = 5 / z; return yOUT;",
      "int z = 3; long w = 0; yOUT[0] = z % w; return yOUT;",
      "long z = (long) xIN[0]; yOUT[0] = 5 % z; return yOUT;",
      "double s = 0; while (true) { s += 1; } ",
      "for (int i = 0; ; i++) { yOUT[0] = i; }",
      "yOUT = null; return yOUT;",
      "yOUT[0] += none[0]++; return yOUT;",
  };
  for (const char* code : programs) {
    const std::string fast = failureOf(code, Program::Execution::Bytecode), nodes = failureOf(code, Program::Execution::Nodes);
    if (fast != nodes) std::fprintf(stderr, "%s\n  bytecode: %s\n  nodes:    %s\n", code, fast.c_str(), nodes.c_str());
    CHECK(fast == nodes);
    CHECK(fast.rfind("failure", 0) == 0);
  }
}

std::string listingOf(const char* code) {
  Program p(BlockCode{code, "", "static double kept;"}, 1, 1);
  return pesim::java::listing(*p.compiled().calculate->code);
}

std::size_t count(const std::string& text, const std::string& word) {
  std::size_t n = 0;
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) ++n;
  return n;
}

// A local assigned one constant folds into the arithmetic that reads it, and a store that every
// path overwrites before reading is not run (bytecode_optimize.cpp); the results stay those of the
// nodes (java_bytecode_and_nodes_give_the_same_results runs the same blocks).
TEST(java_bytecode_folds_constant_locals_and_drops_dead_stores) {
  const std::string folded = listingOf("int n = 1000; yOUT[0] = xIN[0] < n * 1 / 6 - 0.5 * kept ? 1 : 0; return yOUT;");
  CHECK(count(folded, "MulInt") == 0 && count(folded, "DivInt") == 0);
  const std::string dead = listingOf("double x = xIN[0]; double y = 0; if (x > 0) { y = 1; } else { y = 2; } yOUT[0] = y; return yOUT;");
  CHECK(count(dead, "MoveK") == 2);
  // Unless an instruction that may fail comes first: a failed call ends with what it stored.
  CHECK(count(listingOf("double y = 0; if (xIN[0] > 0) { y = 1; } else { y = 2; } yOUT[0] = y; return yOUT;"), "MoveK") == 3);
  // A variable changed on one path only is not a constant after the paths meet.
  const char* joined = "int n = 2; if (xIN[0] > 0) { n = 3; } yOUT[0] = n * 7; return yOUT;";
  CHECK(count(listingOf(joined), "MulInt") == 1);
  for (double x : {-1.0, 1.0}) {
    Program p(BlockCode{joined, "", ""}, 1, 1);
    p.start(1);
    p.inputs()[0] = x;
    CHECK(p.calculate(0.0, 1e-6).numbers[0] == (x > 0 ? 21.0 : 14.0));
  }
  // A node run from the bytecode (a method call) writes its number over a temporary that held a
  // constant in an earlier statement: that temporary is not a constant any more.
  const Block call{"temporary_after_call", "static double helper() { return 10; }", "",
                   "int n = 600; double w = n * 1 / 6 - xIN[0]; double z = helper() + 1; yOUT[0] = z + w; return yOUT;", 1, 1};
  CHECK(sameBothWays(call, 20));
  Program p(BlockCode{call.code, call.init, call.variables}, 1, 1);
  p.start(1);
  p.inputs()[0] = 4.0;
  CHECK(p.calculate(0.0, 1e-6).numbers[0] == 107.0);
  // A local's last value is kept for the next call (the frame of the block's method is kept).
  Program kept(BlockCode{"double y = 5; yOUT[0] = y; return yOUT;", "", ""}, 1, 1);
  CHECK(count(pesim::java::listing(*kept.compiled().calculate->code), "MoveK") == 1);
}

// A table built every step (an array literal of constant rows) is a fresh table each step, also
// when the code writes into it, through another variable, or through a method.
TEST(java_tables_written_by_the_code_are_made_fresh_each_step) {
  const char* const programs[] = {
      "double[][] t = {{1, 2}, {3, 4}}; yOUT[0] = t[1][0]; t[1][0] += 10; return yOUT;",
      "double[][] t = {{1, 2}, {3, 4}}; yOUT[0] = t[1][0]; double[] r = t[1]; r[0] = 7; return yOUT;",
      "double[][] t = {{1, 2}, {3, 4}}; yOUT[0] = t[1][0]; spoil(t); return yOUT;",
      "double[][] t = {{1, 2}, {3, 4}}; yOUT[0] = t[1][0]; t[1] = new double[] {5, 6}; return yOUT;",
      "double[][] t = {{1, 2}, {3, 4}}; yOUT[0] = t[1][0]; kept = t; kept[1][0] = -1; return yOUT;",
      "double[][] t = {{1, 2}, {3, 4}}; yOUT[0] = t[1][0]; for (double[] r : t) r[0]++; return yOUT;",
      "double[][] t = {{1, 2}, {3, 4}}; yOUT[0] = t[1][0] + t[0][1] - 2; return yOUT;",
  };
  for (const char* code : programs) {
    for (auto how : {Program::Execution::Bytecode, Program::Execution::Nodes}) {
      Program p(BlockCode{code, "", "static double[][] kept; static void spoil(double[][] t) { t[1][0] = 99; }"}, 1, 1, how);
      p.start(1);
      for (int n = 0; n < 3; ++n) {
        const double y = step(p, n);
        if (y != 3.0) std::fprintf(stderr, "%s: step %d gives %g\n", code, n, y);
        CHECK(y == 3.0);
      }
    }
  }
}
