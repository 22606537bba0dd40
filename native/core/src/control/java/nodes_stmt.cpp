// Statement nodes of compiled Java blocks (see nodes.hpp): blocks, if, loops, switch with
// fall-through, break/continue/return, and System.out printing into the block's message list.
#include <vector>

#include "control/java/bytecode.hpp"
#include "control/java/nodes.hpp"

namespace pesim::java {

void spend(Exec& ex, int line) {
  if (--ex.budget < 0) {
    fail("the code ran more than its limit of loop iterations and calls in one step (an endless loop?)", line);
  }
}

void evaluateForEffect(const Expr& e, Exec& ex) {
  if (e.type().isReference()) e.array(ex);
  else if (e.type().isString()) e.text(ex);
  else e.number(ex);
}

void invoke(Exec& ex, const Method& method, Frame& frame) {
  // The caller's frame comes back also when an exception leaves the method (a catch may go on).
  struct Restore {
    Exec& ex;
    Frame* caller;
    ~Restore() { ex.frame = caller; }
  } restore{ex, ex.frame};
  ex.frame = &frame;
  ex.returnArray.reset();
  ex.returnHeld = nullptr;
  ex.returnNumber = 0.0;
  if (method.code) {
    execute(*method.code, ex, frame);
    return;
  }
  for (const auto& s : method.body) {
    if (s->run(ex) == Flow::Return) break;
  }
}

namespace {

class ExpressionStatement : public Stmt {
 public:
  ExpressionStatement(ExprPtr e, int line) : Stmt(line), e_(std::move(e)), number_(!e_->type().isReference() && !e_->type().isString()) {}
  Flow run(Exec& ex) const override {
    if (number_) e_->number(ex);  // evaluateForEffect's commonest case (assignments of numbers), decided once
    else evaluateForEffect(*e_, ex);
    return Flow::Normal;
  }
  void lower(Lowering& lw) const override { lw.effect(*e_); }
  // The expression when the statement only evaluates a number (Block runs it without this node).
  const Expr* numberExpression() const { return number_ ? e_.get() : nullptr; }

 private:
  ExprPtr e_;
  bool number_;
};

Flow runAll(const std::vector<StmtPtr>& body, Exec& ex, std::size_t from = 0) {
  for (std::size_t i = from; i < body.size(); ++i) {
    Flow f = body[i]->run(ex);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

// A statement block. Its statements that only evaluate a number (assignments, increments, calls
// of number methods: most of a block's code) are evaluated directly, one virtual call fewer each
// than through their ExpressionStatement; the others run as statements, in the same order.
class Block : public Stmt {
 public:
  Block(std::vector<StmtPtr> body, int line) : Stmt(line), body_(std::move(body)) {
    plan_.reserve(body_.size());
    for (const auto& s : body_) {
      const auto* expression = dynamic_cast<const ExpressionStatement*>(s.get());
      const Expr* number = expression != nullptr ? expression->numberExpression() : nullptr;
      plan_.push_back({number != nullptr ? nullptr : s.get(), number});
    }
  }
  Flow run(Exec& ex) const override {
    for (const Step& step : plan_) {
      if (step.number != nullptr) {
        step.number->number(ex);
        continue;
      }
      Flow f = step.statement->run(ex);
      if (f != Flow::Normal) return f;
    }
    return Flow::Normal;
  }
  void lower(Lowering& lw) const override {
    for (const auto& s : body_) lw.statement(*s);
  }

 private:
  struct Step {
    const Stmt* statement;  // null when `number` is evaluated instead
    const Expr* number;
  };
  std::vector<StmtPtr> body_;
  std::vector<Step> plan_;
};

class If : public Stmt {
 public:
  If(ExprPtr c, StmtPtr then, StmtPtr otherwise, int line)
      : Stmt(line), c_(std::move(c)), then_(std::move(then)), otherwise_(std::move(otherwise)) {}
  Flow run(Exec& ex) const override {
    if (c_->number(ex) != 0.0) return then_->run(ex);
    return otherwise_ ? otherwise_->run(ex) : Flow::Normal;
  }
  void lower(Lowering& lw) const override {
    const int otherwise = lw.label();
    lw.branch(*c_, false, otherwise);
    lw.statement(*then_);
    if (!otherwise_) {
      lw.place(otherwise);
      return;
    }
    const int end = lw.label();
    lw.jump(Code::Jump, end);
    lw.place(otherwise);
    lw.statement(*otherwise_);
    lw.place(end);
  }

 private:
  ExprPtr c_;
  StmtPtr then_, otherwise_;
};

class While : public Stmt {
 public:
  While(ExprPtr c, StmtPtr body, bool testFirst, int line) : Stmt(line), c_(std::move(c)), body_(std::move(body)), testFirst_(testFirst) {}
  Flow run(Exec& ex) const override {
    if (testFirst_ && c_->number(ex) == 0.0) return Flow::Normal;
    do {
      spend(ex, line());
      Flow f = body_->run(ex);
      if (f == Flow::Break) break;
      if (f == Flow::Return) return f;
    } while (c_->number(ex) != 0.0);
    return Flow::Normal;
  }
  void lower(Lowering& lw) const override {
    const int top = lw.label(), next = lw.label(), end = lw.label();
    if (testFirst_) lw.branch(*c_, false, end);
    lw.place(top);
    lw.spend(line());
    lw.enterBreakable(end, next);
    lw.statement(*body_);
    lw.leaveBreakable();
    lw.place(next);
    lw.branch(*c_, true, top);
    lw.place(end);
  }

 private:
  ExprPtr c_;
  StmtPtr body_;
  bool testFirst_;
};

class For : public Stmt {
 public:
  For(std::vector<StmtPtr> init, ExprPtr c, std::vector<ExprPtr> update, StmtPtr body, int line)
      : Stmt(line), init_(std::move(init)), c_(std::move(c)), update_(std::move(update)), body_(std::move(body)) {}
  Flow run(Exec& ex) const override {
    runAll(init_, ex);
    while (!c_ || c_->number(ex) != 0.0) {
      spend(ex, line());
      Flow f = body_->run(ex);
      if (f == Flow::Break) break;
      if (f == Flow::Return) return f;
      for (const auto& u : update_) evaluateForEffect(*u, ex);
    }
    return Flow::Normal;
  }
  void lower(Lowering& lw) const override {
    for (const auto& s : init_) lw.statement(*s);
    const int top = lw.label(), next = lw.label(), end = lw.label();
    lw.place(top);
    if (c_) lw.branch(*c_, false, end);
    lw.spend(line());
    lw.enterBreakable(end, next);
    lw.statement(*body_);
    lw.leaveBreakable();
    lw.place(next);
    for (const auto& u : update_) lw.effect(*u);
    lw.jump(Code::Jump, top);
    lw.place(end);
  }

 private:
  std::vector<StmtPtr> init_;
  ExprPtr c_;
  std::vector<ExprPtr> update_;
  StmtPtr body_;
};

class ForEach : public Stmt {
 public:
  ForEach(std::unique_ptr<NumberTarget> n, std::unique_ptr<ArrayTarget> a, ExprPtr array, StmtPtr body, int line)
      : Stmt(line), number_(std::move(n)), row_(std::move(a)), array_(std::move(array)), body_(std::move(body)) {}
  Flow run(Exec& ex) const override {
    ArrayRef a = array_->array(ex);
    if (!a) fail("NullPointerException: the array is null", line());
    for (std::size_t i = 0; i < a->length(); ++i) {
      spend(ex, line());
      if (number_) *number_->place(ex).at = castTo(number_->type().base, a->numbers[i]);
      else *row_->place(ex) = a->rows[i];
      Flow f = body_->run(ex);
      if (f == Flow::Break) break;
      if (f == Flow::Return) return f;
    }
    return Flow::Normal;
  }
  // Over an array of numbers into a variable: the array held in a hidden slot of the frame, as
  // run() holds it, for the length of the loop.
  void lower(Lowering& lw) const override {
    const Reg variable = number_ ? number_->lowerVariable() : kNoReg;
    if (variable == kNoReg) return lw.fallback(*this);
    const auto* held = dynamic_cast<const ArrayTarget*>(array_.get());
    const Reg source = held != nullptr ? held->lowerArrayVariable() : kNoReg;
    Instr hold;
    hold.code = Code::HoldArray;
    hold.line = line();
    hold.d = lw.arrayTemp();
    hold.a = source;
    hold.node = source == kNoReg ? array_.get() : nullptr;
    lw.emit(hold);
    const Reg index = lw.temp();
    const std::uint32_t kept = lw.keepTemporaries();
    Instr start;
    start.code = Code::Move;
    start.d = index;
    start.a = lw.constant(0.0);
    lw.emit(start);
    const int top = lw.label(), end = lw.label();
    lw.place(top);
    Instr next;
    next.code = Code::ForEachNext;
    next.line = line();
    next.a = hold.d;
    next.b = index;
    next.d = variable;
    next.kind = number_->type().base;
    next.target = static_cast<std::uint32_t>(end);
    lw.emit(next);
    lw.enterBreakable(end, top);
    lw.statement(*body_);
    lw.leaveBreakable();
    lw.jump(Code::Jump, top);
    lw.place(end);
    lw.restoreTemporaries(kept);
    Instr release;
    release.code = Code::ReleaseArray;
    release.d = hold.d;
    lw.emit(release);
  }

 private:
  std::unique_ptr<NumberTarget> number_;
  std::unique_ptr<ArrayTarget> row_;
  ExprPtr array_;
  StmtPtr body_;
};

class Switch : public Stmt {
 public:
  Switch(ExprPtr selector, std::vector<std::pair<double, std::size_t>> labels, long defaultStart, std::vector<StmtPtr> body, int line)
      : Stmt(line), selector_(std::move(selector)), labels_(std::move(labels)), default_(defaultStart), body_(std::move(body)) {}
  Flow run(Exec& ex) const override {
    double v = selector_->number(ex);
    long start = default_;
    for (const auto& [label, at] : labels_) {
      if (label == v) {
        start = static_cast<long>(at);
        break;
      }
    }
    if (start < 0) return Flow::Normal;
    Flow f = runAll(body_, ex, static_cast<std::size_t>(start));
    return f == Flow::Break ? Flow::Normal : f;
  }
  // The selector compared with each label in order (the first equal one wins), then the body with
  // each case's label before its first statement; break leaves it, continue goes to the loop.
  void lower(Lowering& lw) const override {
    const Reg selector = lw.number(*selector_);
    const int end = lw.label();
    std::vector<int> starts(body_.size() + 1, -1);
    auto startOf = [&](std::size_t at) {
      if (starts[at] < 0) starts[at] = lw.label();
      return starts[at];
    };
    for (const auto& [label, at] : labels_) lw.jump(Code::JumpEq, startOf(at), selector, lw.constant(label));
    lw.jump(Code::Jump, default_ >= 0 ? startOf(static_cast<std::size_t>(default_)) : end);
    lw.enterBreakable(end, -1);
    for (std::size_t i = 0; i < body_.size(); ++i) {
      if (starts[i] >= 0) lw.place(starts[i]);
      lw.statement(*body_[i]);
    }
    lw.leaveBreakable();
    if (starts[body_.size()] >= 0) lw.place(starts[body_.size()]);
    lw.place(end);
  }

 private:
  ExprPtr selector_;
  std::vector<std::pair<double, std::size_t>> labels_;
  long default_;
  std::vector<StmtPtr> body_;
};

class Jump : public Stmt {
 public:
  Jump(Flow f, int line) : Stmt(line), f_(f) {}
  Flow run(Exec&) const override { return f_; }
  void lower(Lowering& lw) const override {
    const int target = f_ == Flow::Break ? lw.breakLabel() : f_ == Flow::Continue ? lw.continueLabel() : -1;
    if (target < 0) return lw.fallback(*this);
    lw.jump(Code::Jump, target);
  }

 private:
  Flow f_;
};

class Return : public Stmt {
 public:
  Return(ExprPtr value, int line)
      : Stmt(line), value_(std::move(value)), field_(value_ && value_->type().isReference() ? fieldArraySlot(*value_) : -1) {}
  Flow run(Exec& ex) const override {
    if (field_ >= 0) {
      // `return yOUT;` (every step of most blocks): the field, without a reference count change.
      ex.returnHeld = &ex.fieldArrays[static_cast<std::size_t>(field_)];
      return Flow::Return;
    }
    if (value_) {
      if (value_->type().isReference()) {
        ex.returnHeld = nullptr;
        ex.returnArray = value_->array(ex);
      }
      else if (value_->type().isString()) ex.returnString = value_->text(ex);
      else ex.returnNumber = value_->number(ex);
    }
    return Flow::Return;
  }
  void lower(Lowering& lw) const override {
    Instr i;
    i.line = line();
    if (field_ >= 0) {
      i.code = Code::ReturnHeld;
      i.a = makeReg(Space::Field, static_cast<std::uint32_t>(field_));
    } else if (!value_) {
      i.code = Code::Return;
    } else if (!value_->type().isReference() && !value_->type().isString()) {
      i.code = Code::ReturnNumber;
      i.a = lw.number(*value_);
    } else {
      return lw.fallback(*this);
    }
    lw.emit(i);
  }

 private:
  ExprPtr value_;
  int field_;  // the slot of a returned array field, else -1
};

void emitLine(Exec& ex, std::string line) {
  if (ex.printed.size() < kMaxPrinted) ex.printed.push_back(std::move(line));
  else ++ex.printedDropped;
}

}  // namespace

void printText(Exec& ex, const std::string& text, bool newline) {
  if (ex.write) {
    ex.write(newline ? text + "\n" : text);
    return;
  }
  std::size_t from = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
    emitLine(ex, ex.pendingLine + text.substr(from, nl - from));
    ex.pendingLine.clear();
    from = nl + 1;
  }
  ex.pendingLine += text.substr(from);
  if (newline) {
    emitLine(ex, ex.pendingLine);
    ex.pendingLine.clear();
  }
}

namespace {

class Print : public Stmt {
 public:
  Print(ExprPtr value, bool newline, int line) : Stmt(line), value_(std::move(value)), newline_(newline) {}
  Flow run(Exec& ex) const override {
    printText(ex, value_ ? shownText(value_->text(ex)) : std::string(), newline_);
    return Flow::Normal;
  }

 private:
  ExprPtr value_;
  bool newline_;
};

// `gecko.GeckoSim._testSuccessful = true;`: GeckoCIRCUITS' own example circuits report that their
// checks passed this way; the block remembers it (and when) for the run's messages.
class TestPassed : public Stmt {
 public:
  TestPassed(ExprPtr value, int line) : Stmt(line), value_(std::move(value)) {}
  Flow run(Exec& ex) const override {
    bool passed = value_->number(ex) != 0.0;
    if (passed && !ex.testPassed) ex.testPassedAt = ex.time;
    ex.testPassed = passed;
    return Flow::Normal;
  }

 private:
  ExprPtr value_;
};

}  // namespace

StmtPtr expressionStatement(ExprPtr e, int line) { return std::make_unique<ExpressionStatement>(std::move(e), line); }
StmtPtr blockStatement(std::vector<StmtPtr> body, int line) {
  // A block of one statement runs as that statement (its scope mattered only to the compiler).
  if (body.size() == 1) return std::move(body.front());
  return std::make_unique<Block>(std::move(body), line);
}
StmtPtr ifStatement(ExprPtr condition, StmtPtr then, StmtPtr otherwise, int line) {
  return std::make_unique<If>(std::move(condition), std::move(then), std::move(otherwise), line);
}
StmtPtr whileStatement(ExprPtr condition, StmtPtr body, bool testFirst, int line) {
  return std::make_unique<While>(std::move(condition), std::move(body), testFirst, line);
}
StmtPtr forStatement(std::vector<StmtPtr> init, ExprPtr condition, std::vector<ExprPtr> update, StmtPtr body, int line) {
  return std::make_unique<For>(std::move(init), std::move(condition), std::move(update), std::move(body), line);
}
StmtPtr forEachStatement(std::unique_ptr<NumberTarget> numberVariable, std::unique_ptr<ArrayTarget> arrayVariable, ExprPtr array, StmtPtr body, int line) {
  return std::make_unique<ForEach>(std::move(numberVariable), std::move(arrayVariable), std::move(array), std::move(body), line);
}
StmtPtr switchStatement(ExprPtr selector, std::vector<std::pair<double, std::size_t>> labels, long defaultStart,
                        std::vector<StmtPtr> body, int line) {
  return std::make_unique<Switch>(std::move(selector), std::move(labels), defaultStart, std::move(body), line);
}
StmtPtr jumpStatement(Flow flow, int line) { return std::make_unique<Jump>(flow, line); }
StmtPtr returnStatement(ExprPtr value, int line) { return std::make_unique<Return>(std::move(value), line); }
StmtPtr printStatement(ExprPtr value, bool newline, int line) { return std::make_unique<Print>(std::move(value), newline, line); }
StmtPtr testPassedStatement(ExprPtr value, int line) { return std::make_unique<TestPassed>(std::move(value), line); }

}  // namespace pesim::java
