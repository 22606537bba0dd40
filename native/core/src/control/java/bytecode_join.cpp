// Passes over bound code (bytecode_bind.cpp) that join instructions: a store to a fixed element
// without its address taken first (storeFixedDirectly), and runs of number copies as one
// instruction (joinCopies). Each keeps what runs, in its order: only the dispatches change.
#include <cstdint>
#include <vector>

#include "control/java/bytecode.hpp"

namespace pesim::java {

namespace {


// Whether instruction `i` reads, or writes, pointer register p (as bytecode_run.cpp runs it).
bool readsPointer(const Instr& i, Reg p) {
  switch (i.code) {
    case Code::CheckNull: case Code::Row: case Code::LoadAt: case Code::ElementAddress: case Code::LoadPointer:
    case Code::Length: case Code::IncrementAt:
      return i.a == p;
    case Code::StorePointer: return i.d == p;
    default: return false;
  }
}
bool writesPointer(const Instr& i, Reg p) {
  switch (i.code) {
    case Code::ElementAddressK: case Code::ArrayPointer: case Code::RowOf: case Code::Row: case Code::ElementAddress:
    case Code::FixedAddress:
      return i.d == p;
    default: return false;
  }
}


}  // namespace

// An assignment to a fixed element of a value that is not a plain variable (yOUT[0] = t[s][0])
// takes the element's address before it computes the value (FixedAddress p, ..., StorePointer
// *p = value), as the generic access must check the array first. A fixed element's address cannot
// fail: the store becomes StoreFixed and the FixedAddress goes, when the code between them is
// straight, nothing there uses p and nothing after the store reads it (an assignment whose value
// is used reads it back through p: LoadPointer). Each statement's code sets a pointer before it
// reads it, so p is not read further on.
void storeFixedDirectly(std::vector<Instr>& code) {
  std::vector<bool> target(code.size() + 1, false);
  for (const Instr& i : code) {
    if (isJump(i.code)) target[i.target] = true;
  }
  std::vector<bool> keep(code.size(), true);
  bool any = false;
  for (std::size_t at = 0; at < code.size(); ++at) {
    if (code[at].code != Code::FixedAddress) continue;
    const Reg p = code[at].d;
    std::size_t store = at + 1;
    for (; store < code.size(); ++store) {
      const Instr& i = code[store];
      if (target[store] || isJump(i.code) || isReturn(i.code) || i.code == Code::Statement) break;
      if ((i.code == Code::StorePointer && i.d == p) || readsPointer(i, p) || writesPointer(i, p)) break;
    }
    if (store >= code.size() || target[store] || code[store].code != Code::StorePointer || code[store].d != p) continue;
    if (store + 1 < code.size() && readsPointer(code[store + 1], p)) continue;
    Instr& i = code[store];
    i.code = Code::StoreFixed;
    i.b = i.a;  // the value
    i.a = code[at].a;
    i.d = kNoReg;
    i.node = code[at].node;
    keep[at] = false;
    any = true;
  }
  if (any) compactCode(code, keep);
}

namespace {

// The copy of a number that instruction `i` of direct code makes (its source and destination), if
// it makes nothing else: Move, MoveK (from its own k), LoadFixed, and StoreFixed of a double.
bool copyOf(const Instr& i, char* base, Bytecode::Copy& copy) {
  auto slot = [&](Reg r) { return reinterpret_cast<double*>(base + static_cast<std::int32_t>(r)); };
  switch (i.code) {
    case Code::Move: copy = {slot(i.a), slot(i.d)}; return true;
    case Code::MoveK: copy = {&i.k, slot(i.d)}; return true;
    case Code::LoadFixed: copy = {static_cast<const double*>(i.node), slot(i.d)}; return true;
    case Code::StoreFixed:
      if (i.kind != Base::Double) return false;
      copy = {slot(i.b), static_cast<double*>(const_cast<void*>(i.node))};
      return true;
    default: return false;
  }
}

}  // namespace

// Runs of two or more copies in a row become one Copies instruction in place of the first (a block's
// step reads its inputs into locals, sets its outputs' locals in each branch and stores them into
// yOUT: one dispatch a run instead of one a value). A jump that lands inside a run finds there a
// Copies of the rest of the run; the other instructions of the run stay as they were, unused.
void joinCopies(Bytecode& code) {
  if (code.directBase == nullptr) return;
  char* base = reinterpret_cast<char*>(const_cast<double*>(code.directBase));
  std::vector<bool> target(code.code.size() + 1, false);
  for (const Instr& i : code.code) {
    if (isJump(i.code)) target[i.target] = true;
  }
  // Each Copies to make: its instruction and where its copies start; all copies are listed from the
  // code as it is before any instruction becomes a Copies.
  struct Run {
    std::size_t at, first, count, next;  // next: the instruction to go on with
  };
  std::vector<Run> runs;
  std::vector<Bytecode::Copy> copies;
  for (std::size_t at = 0; at < code.code.size();) {
    std::size_t end = at;
    Bytecode::Copy copy{};
    while (end < code.code.size() && copyOf(code.code[end], base, copy)) ++end;
    // A run that ends in a jump to another run (the branches of an if/else that set the outputs'
    // locals, then the stores into yOUT) takes that run's copies too and goes on after it.
    std::size_t to = end, toEnd = end;
    if (end < code.code.size() && code.code[end].code == Code::Jump) {
      to = toEnd = code.code[end].target;
      while (toEnd < code.code.size() && copyOf(code.code[toEnd], base, copy)) ++toEnd;
    }
    for (std::size_t start = at; start < end; ++start) {
      if (start != at && !target[start]) continue;
      const std::size_t count = (end - start) + (toEnd - to);
      if (count < 2) continue;
      runs.push_back({start, copies.size(), count, toEnd > to ? toEnd : end});
      for (std::size_t n = start; n < end; ++n) copies.push_back((copyOf(code.code[n], base, copy), copy));
      for (std::size_t n = to; n < toEnd; ++n) copies.push_back((copyOf(code.code[n], base, copy), copy));
    }
    at = end == at ? at + 1 : end;
  }
  code.copies = std::move(copies);  // final: the runs point into it
  for (const Run& r : runs) {
    Instr& i = code.code[r.at];
    i.code = Code::Copies;
    i.node = &code.copies[r.first];
    i.target = static_cast<std::uint32_t>(r.count);
    i.b = static_cast<std::uint32_t>(r.next);
  }
}

}  // namespace pesim::java
