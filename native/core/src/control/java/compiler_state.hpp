// The compiler's state, shared by its statement part (compiler.cpp) and expression part
// (compile_expr.cpp): the token cursor of the section being compiled, the scopes of names, and
// the method whose body is being compiled.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "control/java/compiler.hpp"
#include "control/java/script.hpp"

namespace pesim::java {

constexpr int kMaxNesting = 200;

struct Variable {
  Type type;
  bool field = false;
  int slot = 0;
};

struct Section {
  std::string name;
  std::vector<Token> tokens;
};

class Compiler {
 public:
  explicit Compiler(int outputs) : outputs_(outputs) {}
  CompiledClass run(const BlockCode& code);

  // Scripts (compile_script.cpp, script.hpp): one compiler for the life of a script session, so that
  // its fields (the script's outermost variables) and methods stay known from piece to piece.
  Compiler(const ScriptSetup& setup, StatementCount* count) : outputs_(0), script_(&setup), count_(count) {}
  // Compiles script tokens (positions as scriptPosition) into a method; throws CodeError, and then
  // forgets the fields and methods the piece declared. `calls` receives its host calls.
  std::unique_ptr<Method> compileScript(std::vector<Token> tokens, const std::string& name, ScriptPart part,
                                        std::vector<HostCallSite>& calls);
  const CompiledClass& compiled() const { return out_; }

 private:
  // --- tokens (compiler.cpp)
  const Token& peek(std::size_t ahead = 0) const;
  const Token& next();
  bool isOp(const char* op, std::size_t ahead = 0) const;
  bool isWord(const char* word, std::size_t ahead = 0) const;
  bool accept(const char* op);
  void expect(const char* op, const std::string& what);
  std::string identifier(const char* what);
  [[noreturn]] void error(const std::string& message) const;
  [[noreturn]] void errorAt(const Token& t, const std::string& message) const;
  // Counts one level of nesting; deeper code than kMaxNesting is refused (it would exhaust the stack).
  struct Nesting {
    explicit Nesting(Compiler& c);
    ~Nesting() { --c_.depth_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    Compiler& c_;
  };

  // --- declarations and statements (compiler.cpp)
  bool startsType(std::size_t ahead = 0) const;
  // Tokens of a list class name at `ahead` (List, ArrayList, java.util.List, java.util.ArrayList), 0 if none.
  std::size_t listNameLength(std::size_t ahead) const;
  // A type; after `new`, a list type may use the diamond (`ArrayList<>`) and must be a class.
  Type parseType(bool afterNew = false);
  Type parseListType(std::size_t nameLength, bool afterNew);
  // Tokens of a map class name at `ahead` (Map, HashMap, LinkedHashMap, TreeMap, java.util.*), 0 if none.
  std::size_t mapNameLength(std::size_t ahead) const;
  Type parseMapType(std::size_t nameLength, bool afterNew);
  // The element (key, value) type of a generic type argument: a boxed class or String.
  Base typeArgument(const std::string& owner);
  void skipModifiers();
  void collectMembers();
  Method* methodDeclaration(const Type& result, const std::string& name, const Token& at);
  void compileMethodBody(Method& m, std::size_t bodyStart);
  Variable declare(const std::string& name, Type type, const Token& at);
  StmtPtr statement();         // counted when the code is a script
  StmtPtr uncountedStatement();
  StmtPtr ifParse();
  StmtPtr whileParse();
  StmtPtr doParse();
  StmtPtr jumpParse();
  StmtPtr returnParse();
  StmtPtr geckoTestParse();
  StmtPtr loopBody();  // a loop's body: break and continue allowed in it
  StmtPtr block();
  StmtPtr localDeclaration();
  StmtPtr initialise(const Variable& v, const Token& at, bool hasValue);
  // The initial value of a variable of `type` (its default when !hasValue), and its assignment.
  ExprPtr initialValue(Type type, const Token& at, bool hasValue);
  StmtPtr assignInitial(const Variable& v, ExprPtr value, int line);
  StmtPtr forStatementParse();
  StmtPtr switchParse();
  StmtPtr systemCall();
  StmtPtr tryParse();
  StmtPtr throwParse();
  std::vector<StmtPtr> statementsUntilBrace();

  // --- expressions (compile_expr.cpp)
  ExprPtr expression();
  ExprPtr assignment();
  ExprPtr ternary();
  ExprPtr binaryLevel(int level);
  ExprPtr unaryExpr();
  ExprPtr postfix(ExprPtr e);
  // list.method(args) (the '.' and the name read) and boxed.xxxValue() (compile_lists.cpp).
  ExprPtr listMethod(ExprPtr list, const Token& name);
  ExprPtr newListExpr(Type type, const Token& at);
  ExprPtr boxedValue(ExprPtr boxed, const Token& name);
  ExprPtr boxing(const std::string& name, std::vector<ExprPtr>& args, const Token& at);
  // A value stored into a list of `item` (add, set): its type must box to the item's class.
  ExprPtr listElement(ExprPtr value, Base item, const Token& at);
  StmtPtr forEachList(const Type& variable, const Token& at, ExprPtr list);
  // The library beyond numbers (compile_library.cpp).
  using Call = std::function<ExprPtr(Type, NativeFn)>;
  ExprPtr formatCall(std::vector<ExprPtr> args, const Token& at);
  ExprPtr objectMethod(ExprPtr target, const Token& name);
  ExprPtr mapMethod(const Call& call, const Type& t, const std::vector<Type>& a, const Token& name);
  ExprPtr stringListMethod(const Call& call, const Type& t, const std::vector<Type>& a, const Token& name);
  // A static library method (Integer.parseInt, String.format, Arrays.sort, ...); null if `name` is none.
  ExprPtr libraryCall(const std::string& name, std::vector<ExprPtr>& args, const Token& at);
  // `new` of a StringBuilder, an exception or a map (after `new`); null for other classes.
  ExprPtr newObject(const Token& at);
  ExprPtr primary();
  ExprPtr name();
  ExprPtr call(const std::string& name, const Token& at);
  ExprPtr arrayHelper(const std::string& name, std::vector<ExprPtr> args, const Token& at);
  std::vector<ExprPtr> arguments();
  ExprPtr arrayInitializer(Type type);
  ExprPtr convert(ExprPtr value, Type to, const Token& at, const char* what);
  ExprPtr condition(const char* what);
  ExprPtr variableExpr(const Variable& v, int line);

  // --- scripts (compile_script.cpp)
  void scriptStatements(Method& m, ScriptPart part);
  // `name = value` or `var name = value` declaring a new variable (the ';' is the caller's).
  bool implicitDeclarationAhead() const;
  // Whether tokens [from, to) are an expression Java allows as a statement (JLS §14.8: an
  // assignment, ++/--, a method call or `new`); in scripts a bare value is refused (at the prompt it is printed).
  bool statementExpression(std::size_t from, std::size_t to) const;
  StmtPtr implicitDeclaration();
  StmtPtr skipImport();
  // print / writeOutput / writeOutputLn, a host function, or an unsupported GeckoSCRIPT name; null if `name` is none.
  ExprPtr scriptCall(const std::string& name, std::vector<ExprPtr>& args, const Token& at);
  ExprPtr hostCall(std::size_t function, std::vector<ExprPtr>& args, const Token& at);
  // A script's file output (compile_files.cpp).
  static bool writerClass(const std::string& name);
  ExprPtr newWriter(const Token& at);
  ExprPtr writerMethod(ExprPtr writer, const Token& name);
  // The resources' declarations go to `declarations`; returns the body that closes them.
  StmtPtr tryResources(std::vector<StmtPtr>& declarations, int line);

  std::vector<std::unique_ptr<Section>> sections_;
  Section* section_ = nullptr;
  std::size_t pos_ = 0;

  int outputs_;
  CompiledClass out_;
  std::unordered_map<std::string, Variable> fields_;
  std::multimap<std::string, Method*> methods_;
  std::vector<std::unordered_map<std::string, Variable>> scopes_;
  Method* method_ = nullptr;  // being compiled
  Method* fieldInit_ = nullptr;
  bool inCalculate_ = false;
  int depth_ = 0;              // nesting of expressions and statements being compiled
  int loops_ = 0;              // enclosing loops (continue) ...
  int breakables_ = 0;         // ... and loops or switches (break)
  std::string mapSimpleName_;  // the class of the map type parsed last (HashMap, TreeMap, ...)
  const ScriptSetup* script_ = nullptr;        // set when compiling a script
  StatementCount* count_ = nullptr;            // a script's statement count
  std::vector<HostCallSite>* calls_ = nullptr; // the host calls of the piece being compiled
};

}  // namespace pesim::java
