// Tokens of the Java subset of GeckoCIRCUITS Java blocks (JLS §3): identifiers and keywords,
// int/long/float/double literals, string and char literals, operators; comments are skipped.
#pragma once

#include <string>
#include <vector>

namespace pesim::java {

enum class Tok { Identifier, Int, Long, Float, Double, String, Char, Op, End };

struct Token {
  Tok kind = Tok::End;
  std::string text;   // identifier, operator, or the literal's text (strings: decoded)
  double value = 0;   // numeric literals and chars
  int line = 1;
  int column = 1;
};

// Where a piece of code comes from, for messages: "code", "static code" or "static variables".
struct SourceText {
  std::string section;
  std::string text;
};

// Splits `source` into tokens, ending with one Tok::End. Throws CodeError on a malformed token.
std::vector<Token> tokenize(const SourceText& source);

// A compile error at a position of a section; the block turns it into a pesim::Error.
struct CodeError {
  std::string section;
  int line;
  int column;
  std::string message;
};

}  // namespace pesim::java
