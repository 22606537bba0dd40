// Executable form of a compiled Java block: typed expression and statement nodes evaluated over
// slots of doubles and array references. Built by the compiler (compiler.hpp), run by Program.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "control/java/exceptions.hpp"
#include "control/java/types.hpp"

namespace pesim::java {

struct Method;
struct Bytecode;
class Lowering;  // bytecode.hpp
using Reg = std::uint32_t;

// A run-time exception of the code (JLS §11: ArithmeticException, ArrayIndexOutOfBounds, ...):
// "Class: detail" or "Class". `className` is the exception's class, "" for the engine's own limits
// (too many iterations, too large arrays), which code cannot catch.
struct CodeFailure {
  CodeFailure(std::string text, int at) : message(std::move(text)), line(at), className(exceptionClassOf(message)) {}
  std::string message;
  int line;
  std::string className;
};

// Local variables of one method invocation.
struct Frame {
  std::vector<double> numbers;
  std::vector<ArrayRef> arrays;
  std::vector<std::string> strings;
};

// State shared by all invocations: fields, the call's arguments, printed lines, budgets.
struct Exec {
  std::vector<double> fieldNumbers;
  std::vector<ArrayRef> fieldArrays;
  std::vector<std::string> fieldStrings;
  Frame* frame = nullptr;
  double time = 0.0;
  double dt = 0.0;
  double tEnd = 0.0;
  std::uint64_t random = 0;       // xorshift state of Math.random()
  long long budget = 0;           // loop iterations and calls left in this invocation
  int depth = 0;                  // method call depth
  double returnNumber = 0.0;      // value of the last `return expr;`
  ArrayRef returnArray;
  // `return field;` of an array field: the field itself, read by the caller without taking a
  // reference (returnArray is then null). Cleared by whoever reads it.
  const ArrayRef* returnHeld = nullptr;
  std::string returnString;
  std::vector<std::string> printed;  // System.out lines (the first kMaxPrinted)
  std::string pendingLine;           // System.out.print text not yet ended by a newline
  long long printedDropped = 0;
  bool testPassed = false;           // gecko.GeckoSim._testSuccessful
  double testPassedAt = 0.0;
  std::function<void(const std::string&)> write;  // scripts: where printed text goes (else `printed`)
};

constexpr std::size_t kMaxPrinted = 200;

class Expr {
 public:
  Expr(Type type, int line) : type_(type), line_(line) {}
  virtual ~Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;
  const Type& type() const { return type_; }
  int line() const { return line_; }
  virtual double number(Exec&) const { return 0.0; }          // numeric and boolean types
  virtual ArrayRef array(Exec&) const { return nullptr; }      // array types
  virtual std::string text(Exec& ex) const;                    // String (and any type, for printing)
  virtual bool constant() const { return false; }
  // True when evaluating the expression assigns nothing, allocates nothing and calls nothing (it
  // may still throw): every array a variable held before it is held after it. Evaluation then
  // reads arrays through their variables without taking a reference of its own.
  virtual bool sideEffectFree() const { return false; }
  // Lowering into bytecode (bytecode.hpp): the number's slot (`want` a preferred destination),
  // a jump on its truth, its evaluation for effect. By default the bytecode runs the node itself.
  virtual Reg lowerNumber(Lowering& lw, Reg want) const;
  virtual void lowerBranch(Lowering& lw, bool when, int label) const;
  virtual void lowerEffect(Lowering& lw) const;

 private:
  Type type_;
  int line_;
};
using ExprPtr = std::unique_ptr<Expr>;

// Where an assignment stores: a number slot (variable or array element) or an array slot.
struct NumberPlace {
  double* at;
  ArrayRef keep;  // keeps the array holding `at` alive during the assignment
};

class NumberTarget : public Expr {
 public:
  using Expr::Expr;
  virtual NumberPlace place(Exec&) const = 0;
  // True when slot() may be used: a variable, or an element reached through variables with
  // side-effect-free indices.
  virtual bool hasSlot() const = 0;
  // The variable or element without a reference to its array: valid while only side-effect-free
  // expressions are evaluated.
  virtual double* slot(Exec&) const = 0;
  double number(Exec& ex) const override { return *place(ex).at; }
  // Lowering: the variable's slot (a local or field variable), else ~0; for an element with a
  // slot, a pointer register holding its address once the emitted code has run (NotLowered else).
  virtual Reg lowerVariable() const { return ~Reg{0}; }
  virtual std::uint32_t lowerAddress(Lowering& lw) const;
};

class ArrayTarget : public Expr {
 public:
  using Expr::Expr;
  virtual ArrayRef* place(Exec&) const = 0;
  ArrayRef array(Exec& ex) const override { return *place(ex); }
  // Lowering (side-effect-free targets): a pointer register holding the array (possibly null) once
  // the emitted code has run; NotLowered when the target has no such form. By default the array
  // variable's reference (lowerArrayVariable), if the target is one.
  virtual std::uint32_t lowerPointer(Lowering& lw) const;
  // The slot of a local or field array variable, else ~0.
  virtual Reg lowerArrayVariable() const { return ~Reg{0}; }
};

class StringTarget : public Expr {
 public:
  using Expr::Expr;
  virtual std::string* place(Exec&) const = 0;
  std::string text(Exec& ex) const override { return *place(ex); }
};

// A value of any type (library calls, nodes_library.cpp): its number, text or reference, by its type.
struct Value {
  double number = 0.0;
  std::string text;
  ArrayRef ref;
};
Value evaluate(const Expr& e, Exec& ex);
// A call into the library: `fn` gets the evaluated arguments (left to right) and the call's line.
using NativeFn = std::function<Value(Exec&, std::vector<Value>&, int)>;
ExprPtr nativeCall(Type result, std::vector<ExprPtr> arguments, NativeFn fn, int line);
// A boxed value that is null (a map's get of a missing key): a NaN no arithmetic produces.
double nullBoxed();
bool isNullBoxed(double v);
// Unboxing: the boxed value's number, NullPointerException when it is null.
ExprPtr unbox(ExprPtr boxed, int line);
// An exception object of class `className` with message `text` (none when !hasText).
ArrayRef exceptionObject(const std::string& className, std::string text, bool hasText);
// The positions (in insertion order) of a map's entries in its iteration order (nodes_maps.cpp).
std::vector<std::size_t> mapOrder(const Array& map, Base key);
// The text of element i of a list (or key/value list of a map) holding `item` values.
std::string elementText(const Array& list, Base item, std::size_t i);
// Java's toString of objects of the subset (lists, maps, builders, exceptions).
std::string objectText(const Type& type, const ArrayRef& object);

// Evaluates an expression statement, a for-loop update or a discarded value by its type.
void evaluateForEffect(const Expr& e, Exec& ex);

enum class Flow { Normal, Break, Continue, Return };

class Stmt {
 public:
  explicit Stmt(int line) : line_(line) {}
  virtual ~Stmt() = default;
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  virtual Flow run(Exec&) const = 0;
  // Lowering into bytecode (bytecode.hpp); by default the bytecode runs the node itself.
  virtual void lower(Lowering& lw) const;
  int line() const { return line_; }

 private:
  int line_;
};
using StmtPtr = std::unique_ptr<Stmt>;

// A method of the block's class (or the generated init / calculateYOUT).
struct Method {
  std::string name;
  Type result;
  std::vector<Type> parameters;
  std::vector<int> parameterSlots;  // slot of each parameter (numbers or arrays, by its type)
  int numberSlots = 0;
  int arraySlots = 0;
  int stringSlots = 0;
  std::vector<StmtPtr> body;
  int line = 0;
  std::shared_ptr<const Bytecode> code;  // the body lowered (bytecode.hpp): what invoke runs
  std::vector<int> arrayMentions;        // per local array slot: the variable's nodes the compiler made
};

// A zeroed frame with the method's slots.
inline Frame frameFor(const Method& m) {
  Frame f;
  f.numbers.assign(static_cast<std::size_t>(m.numberSlots), 0.0);
  f.arrays.resize(static_cast<std::size_t>(m.arraySlots));
  f.strings.resize(static_cast<std::size_t>(m.stringSlots));
  return f;
}

[[noreturn]] void fail(const std::string& message, int line);
// Counts one unit of work against the invocation's budget (loop iteration or call).
void spend(Exec& ex, int line);
// Runs `method` with arguments already evaluated into a fresh frame.
void invoke(Exec& ex, const Method& method, Frame& frame);

// Node factories used by the compiler (nodes_*.cpp).
ExprPtr numberConstant(Type type, double value, int line);
ExprPtr stringConstant(std::string value, int line);
ExprPtr nullArray(Type type, int line);
std::unique_ptr<NumberTarget> localNumber(Type type, int slot, int line);
std::unique_ptr<NumberTarget> fieldNumber(Type type, int slot, int line);
std::unique_ptr<ArrayTarget> localArray(Type type, int slot, int line);
std::unique_ptr<ArrayTarget> fieldArray(Type type, int slot, int line);
std::unique_ptr<StringTarget> localString(int slot, int line);
std::unique_ptr<StringTarget> fieldString(int slot, int line);
// `target = value` or, `append`, `target += value` (any value type, as Java's string +=).
ExprPtr assignString(std::unique_ptr<StringTarget> target, ExprPtr value, bool append, int line);
ExprPtr timeValue(int line);
ExprPtr stepValue(int line);
std::unique_ptr<NumberTarget> numberElement(ExprPtr array, ExprPtr index, int line);
std::unique_ptr<ArrayTarget> rowElement(ExprPtr array, ExprPtr index, int line);
std::unique_ptr<StringTarget> textElement(ExprPtr array, ExprPtr index, int line);
ExprPtr arrayLength(ExprPtr array, int line);
ExprPtr unary(const std::string& op, ExprPtr operand, Type type, int line);
ExprPtr binary(const std::string& op, ExprPtr left, ExprPtr right, Type type, int line);
ExprPtr logical(bool isAnd, ExprPtr left, ExprPtr right, int line);
ExprPtr conditional(ExprPtr condition, ExprPtr whenTrue, ExprPtr whenFalse, Type type, int line);
ExprPtr cast(Base to, ExprPtr operand, int line);
ExprPtr assignNumber(std::unique_ptr<NumberTarget> target, const std::string& op, ExprPtr value, Base operation, int line);
ExprPtr assignArray(std::unique_ptr<ArrayTarget> target, ExprPtr value, int line);
ExprPtr increment(std::unique_ptr<NumberTarget> target, double delta, bool prefix, int line);
ExprPtr concat(std::vector<ExprPtr> parts, int line);
ExprPtr newArray(Type type, std::vector<ExprPtr> lengths, int line);
ExprPtr arrayLiteral(Type type, std::vector<ExprPtr> items, int line);
// Tells a table literal (an array literal of rows of constants) that no code can write its rows
// or reach them but to read elements: it is then renewed without comparing its rows.
void markTableUnwritten(const Expr& literal);
bool tableLiteral(const Expr& e);  // an array literal of rows of constants
// An array literal of constants or of rows of constants: evaluating it reads no variable, runs no
// code and cannot fail (it only makes, or renews, its array).
bool constantArrayLiteral(const Expr& e);
ExprPtr callMethod(const Method& method, std::vector<ExprPtr> arguments, int line);
ExprPtr callMath(const std::string& name, std::vector<ExprPtr> arguments, Type type, int line);
// nodes_arrays.cpp: System.arraycopy (5 arguments, checked by the compiler), Arrays.fill,
// Arrays.copyOf / clone() (`length` null for clone).
ExprPtr arrayCopy(std::vector<ExprPtr> arguments, int line);
ExprPtr arrayFill(ExprPtr array, ExprPtr value, int line);
ExprPtr arrayCopyOf(ExprPtr array, ExprPtr length, int line);

// nodes_lists.cpp: java.util lists (ArrayList; `type` of newList is the list type, `source` null, the
// initial capacity or a list to copy) and their methods; `result` is the call's type (the list's
// boxed item for get, set and remove(int)).
enum class ListOp { Size, IsEmpty, Get, Set, Add, Insert, RemoveAt, RemoveValue, Clear, Contains, IndexOf, LastIndexOf };
ExprPtr newList(Type type, ExprPtr source, int line);
ExprPtr listCall(ListOp op, ExprPtr list, std::vector<ExprPtr> arguments, Type result, int line);
StmtPtr forEachListStatement(std::unique_ptr<NumberTarget> variable, ExprPtr list, StmtPtr body, int line);
// The value as its boxed object (Double.valueOf and the like): the same number, typed as boxed.
ExprPtr box(ExprPtr value, int line);
// AbstractCollection.toString: "[1.0, 2.0]".
std::string listText(const Array& list, Base item);

StmtPtr expressionStatement(ExprPtr e, int line);
StmtPtr blockStatement(std::vector<StmtPtr> body, int line);
StmtPtr ifStatement(ExprPtr condition, StmtPtr then, StmtPtr otherwise, int line);
StmtPtr whileStatement(ExprPtr condition, StmtPtr body, bool testFirst, int line);
StmtPtr forStatement(std::vector<StmtPtr> init, ExprPtr condition, std::vector<ExprPtr> update, StmtPtr body, int line);
StmtPtr forEachStatement(std::unique_ptr<NumberTarget> numberVariable, std::unique_ptr<ArrayTarget> arrayVariable, ExprPtr array, StmtPtr body, int line);
// `labels`: case value → index of its first statement in `body`; `defaultStart` −1 when absent.
StmtPtr switchStatement(ExprPtr selector, std::vector<std::pair<double, std::size_t>> labels, long defaultStart,
                        std::vector<StmtPtr> body, int line);
StmtPtr jumpStatement(Flow flow, int line);
StmtPtr returnStatement(ExprPtr value, int line);
// The field slot of an array field read (`yOUT`), else -1.
int fieldArraySlot(const Expr& e);
StmtPtr printStatement(ExprPtr value, bool newline, int line);
// System.out.print(text) (println when `newline`): complete lines go to the printed list.
void printText(Exec& ex, const std::string& text, bool newline);
// The text of a value of type `t` as string concatenation writes it.
std::string valueText(const Type& t, const Value& v);
StmtPtr testPassedStatement(ExprPtr value, int line);
// switch on a String: `labels` as texts (String.equals), the rest as switchStatement.
StmtPtr stringSwitchStatement(ExprPtr selector, std::vector<std::pair<std::string, std::size_t>> labels, long defaultStart,
                              std::vector<StmtPtr> body, int line);
// try { body } catch (A | B e) { ... } ... finally { ... }: `slot` is the local array slot of e.
struct CatchClause {
  std::vector<std::string> classes;
  int slot;
  StmtPtr body;
};
StmtPtr tryStatement(StmtPtr body, std::vector<CatchClause> catches, StmtPtr finally, int line);
StmtPtr throwStatement(ExprPtr exception, int line);
// for (T x : source) over a String[] or a List<String> (`variable` a String target), or over a
// list of references; `checked` lists fail fast as ArrayList's iterator does.
StmtPtr forEachTextStatement(std::unique_ptr<StringTarget> variable, ExprPtr source, StmtPtr body, int line);

}  // namespace pesim::java
