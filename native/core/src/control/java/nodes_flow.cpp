// Statement nodes for switch on strings, try/catch/finally and throw (JLS §14.11, §14.18, §14.20),
// and for-each loops over strings (see nodes.hpp).
#include <utility>

#include "control/java/nodes.hpp"

namespace pesim::java {

namespace {

Flow runFrom(const std::vector<StmtPtr>& body, Exec& ex, std::size_t from) {
  for (std::size_t i = from; i < body.size(); ++i) {
    Flow f = body[i]->run(ex);
    if (f != Flow::Normal) return f;
  }
  return Flow::Normal;
}

class StringSwitch : public Stmt {
 public:
  StringSwitch(ExprPtr selector, std::vector<std::pair<std::string, std::size_t>> labels, long defaultStart, std::vector<StmtPtr> body, int line)
      : Stmt(line), selector_(std::move(selector)), labels_(std::move(labels)), default_(defaultStart), body_(std::move(body)) {}
  Flow run(Exec& ex) const override {
    const std::string v = selector_->text(ex);
    if (isNullText(v)) fail("NullPointerException: the switch value is null", line());
    long start = default_;
    for (const auto& [label, at] : labels_) {
      if (label == v) {
        start = static_cast<long>(at);
        break;
      }
    }
    if (start < 0) return Flow::Normal;
    Flow f = runFrom(body_, ex, static_cast<std::size_t>(start));
    return f == Flow::Break ? Flow::Normal : f;
  }

 private:
  ExprPtr selector_;
  std::vector<std::pair<std::string, std::size_t>> labels_;
  long default_;
  std::vector<StmtPtr> body_;
};

// The exception object of a failure: its class and the detail after "Class: ".
ArrayRef caught(const CodeFailure& f) {
  const std::string& m = f.message;
  const bool hasText = m.size() > f.className.size();
  return exceptionObject(f.className, hasText ? m.substr(f.className.size() + 2) : std::string(), hasText);
}

class Try : public Stmt {
 public:
  Try(StmtPtr body, std::vector<CatchClause> catches, StmtPtr finally, int line)
      : Stmt(line), body_(std::move(body)), catches_(std::move(catches)), finally_(std::move(finally)) {}
  Flow run(Exec& ex) const override {
    Flow f = Flow::Normal;
    try {
      f = guarded(ex);
    } catch (const CodeFailure&) {
      // An exception no catch took (or one thrown in a catch): finally runs, then it goes on,
      // unless finally itself completes abruptly (JLS §14.20.2).
      if (finally_) {
        Flow g = finally_->run(ex);
        if (g != Flow::Normal) return g;
      }
      throw;
    }
    if (finally_) {
      // A returned field is the value it had at the return: finally may assign it another array.
      if (const ArrayRef* held = std::exchange(ex.returnHeld, nullptr)) ex.returnArray = *held;
      Flow g = finally_->run(ex);
      if (g != Flow::Normal) return g;
    }
    return f;
  }

 private:
  Flow guarded(Exec& ex) const {
    Frame* frame = ex.frame;
    const int depth = ex.depth;
    try {
      return body_->run(ex);
    } catch (const CodeFailure& failure) {
      if (failure.className.empty()) throw;
      for (const auto& c : catches_) {
        for (const auto& cls : c.classes) {
          if (!catches(cls, failure.className)) continue;
          ex.frame = frame;
          ex.depth = depth;
          ex.frame->arrays[static_cast<std::size_t>(c.slot)] = caught(failure);
          return c.body->run(ex);
        }
      }
      throw;
    }
  }

  StmtPtr body_;
  std::vector<CatchClause> catches_;
  StmtPtr finally_;
};

class Throw : public Stmt {
 public:
  Throw(ExprPtr e, int line) : Stmt(line), e_(std::move(e)) {}
  Flow run(Exec& ex) const override {
    ArrayRef e = e_->array(ex);
    if (!e) fail("NullPointerException: the thrown exception is null", line());
    throw CodeFailure(e->state->className + (e->state->hasText ? ": " + e->state->text : ""), line());
  }

 private:
  ExprPtr e_;
};

class ForEachText : public Stmt {
 public:
  ForEachText(std::unique_ptr<StringTarget> variable, ExprPtr source, StmtPtr body, int line)
      : Stmt(line), variable_(std::move(variable)), source_(std::move(source)), body_(std::move(body)) {}
  Flow run(Exec& ex) const override {
    ArrayRef a = source_->array(ex);
    if (!a) fail("NullPointerException: the " + std::string(source_->type().isList() ? "list" : "array") + " is null", line());
    const bool list = source_->type().isList();
    const std::uint64_t expected = a->modCount;
    for (std::size_t i = 0; i != a->texts.size(); ++i) {
      if (list && a->modCount != expected) fail("ConcurrentModificationException", line());
      spend(ex, line());
      *variable_->place(ex) = a->texts[i];
      Flow f = body_->run(ex);
      if (f == Flow::Break) break;
      if (f == Flow::Return) return f;
    }
    return Flow::Normal;
  }

 private:
  std::unique_ptr<StringTarget> variable_;
  ExprPtr source_;
  StmtPtr body_;
};

}  // namespace

StmtPtr stringSwitchStatement(ExprPtr selector, std::vector<std::pair<std::string, std::size_t>> labels, long defaultStart,
                              std::vector<StmtPtr> body, int line) {
  return std::make_unique<StringSwitch>(std::move(selector), std::move(labels), defaultStart, std::move(body), line);
}
StmtPtr tryStatement(StmtPtr body, std::vector<CatchClause> catches, StmtPtr finally, int line) {
  return std::make_unique<Try>(std::move(body), std::move(catches), std::move(finally), line);
}
StmtPtr throwStatement(ExprPtr exception, int line) { return std::make_unique<Throw>(std::move(exception), line); }
StmtPtr forEachTextStatement(std::unique_ptr<StringTarget> variable, ExprPtr source, StmtPtr body, int line) {
  return std::make_unique<ForEachText>(std::move(variable), std::move(source), std::move(body), line);
}

}  // namespace pesim::java
