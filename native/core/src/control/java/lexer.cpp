// Java tokenizer (see lexer.hpp).
#include "control/java/lexer.hpp"

#include <cctype>
#include <cstdlib>

#include "control/java/types.hpp"

namespace pesim::java {

namespace {

// Longest operators first, so that ">>=" is not read as ">" ">=".
const char* const kOperators[] = {
    ">>>=", "<<=", ">>=", ">>>", "==", "!=", "<=", ">=", "&&", "||", "++", "--", "+=", "-=", "*=", "/=",
    "%=", "&=", "|=", "^=", "<<", ">>", "->", "::", "+", "-", "*", "/", "%", "=", "<", ">", "!", "~",
    "?", ":", ";", ",", ".", "(", ")", "[", "]", "{", "}", "&", "|", "^", "@"};

class Lexer {
 public:
  explicit Lexer(const SourceText& source) : src_(source), s_(source.text) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    for (;;) {
      skipSpaceAndComments();
      Token t;
      t.line = line_;
      t.column = column();
      if (pos_ >= s_.size()) {
        out.push_back(t);
        return out;
      }
      char c = s_[pos_];
      if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$') {
        identifier(t);
      } else if (std::isdigit(static_cast<unsigned char>(c)) || (c == '.' && pos_ + 1 < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])))) {
        number(t);
      } else if (c == '"') {
        string(t);
      } else if (c == '\'') {
        character(t);
      } else {
        op(t);
      }
      out.push_back(std::move(t));
    }
  }

 private:
  [[noreturn]] void fail(const std::string& message) const { throw CodeError{src_.section, line_, column(), message}; }
  int column() const { return static_cast<int>(pos_ - lineStart_) + 1; }

  void newline() {
    ++line_;
    lineStart_ = pos_ + 1;
  }

  void skipSpaceAndComments() {
    while (pos_ < s_.size()) {
      char c = s_[pos_];
      if (c == '\n') {
        newline();
        ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        ++pos_;
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '*') {
        int line = line_, col = column();
        pos_ += 2;
        while (pos_ + 1 < s_.size() && !(s_[pos_] == '*' && s_[pos_ + 1] == '/')) {
          if (s_[pos_] == '\n') newline();
          ++pos_;
        }
        if (pos_ + 1 >= s_.size()) throw CodeError{src_.section, line, col, "comment '/*' is not closed with '*/'"};
        pos_ += 2;
      } else {
        return;
      }
    }
  }

  void identifier(Token& t) {
    std::size_t start = pos_;
    while (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_' || s_[pos_] == '$')) ++pos_;
    t.kind = Tok::Identifier;
    t.text = s_.substr(start, pos_ - start);
  }

  // JLS §3.10.1–2: decimal, hex, octal and binary integers (suffix L), decimals with '.', exponent,
  // and suffixes f/F/d/D; underscores between digits.
  void number(Token& t) {
    std::size_t start = pos_;
    std::string digits;
    bool floating = false;
    int radix = 10;
    if (s_[pos_] == '0' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == 'x' || s_[pos_ + 1] == 'X')) {
      radix = 16;
      pos_ += 2;
    } else if (s_[pos_] == '0' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == 'b' || s_[pos_ + 1] == 'B')) {
      radix = 2;
      pos_ += 2;
    }
    auto digit = [&](char c) {
      if (radix == 16) return std::isxdigit(static_cast<unsigned char>(c)) != 0;
      if (radix == 2) return c == '0' || c == '1';
      return std::isdigit(static_cast<unsigned char>(c)) != 0;
    };
    while (pos_ < s_.size() && (digit(s_[pos_]) || s_[pos_] == '_')) {
      if (s_[pos_] != '_') digits += s_[pos_];
      ++pos_;
    }
    if (radix == 10) {
      if (pos_ < s_.size() && s_[pos_] == '.') {
        floating = true;
        digits += '.';
        ++pos_;
        while (pos_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
          if (s_[pos_] != '_') digits += s_[pos_];
          ++pos_;
        }
      }
      if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
        floating = true;
        digits += 'e';
        ++pos_;
        if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) digits += s_[pos_++];
        if (pos_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[pos_]))) fail("exponent of a number has no digits");
        while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) digits += s_[pos_++];
      }
    }
    if (digits.empty() || digits == ".") fail("malformed number");
    t.kind = floating ? Tok::Double : Tok::Int;
    if (pos_ < s_.size()) {
      char suffix = s_[pos_];
      if (suffix == 'L' || suffix == 'l') {
        if (floating) fail("a decimal number cannot have the suffix L");
        t.kind = Tok::Long;
        ++pos_;
      } else if (suffix == 'f' || suffix == 'F') {
        t.kind = Tok::Float;
        ++pos_;
      } else if (suffix == 'd' || suffix == 'D') {
        t.kind = Tok::Double;
        ++pos_;
      }
    }
    if (pos_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) fail("malformed number");
    if (t.kind == Tok::Int || t.kind == Tok::Long) {
      if (radix == 10 && digits.size() > 1 && digits[0] == '0') radix = 8;
      char* end = nullptr;
      unsigned long long v = std::strtoull(digits.c_str(), &end, radix);
      if (*end != '\0') fail("malformed number");
      bool fitsInt = radix == 10 ? v <= 2147483648ULL : v <= 0xFFFFFFFFULL;
      if (t.kind == Tok::Int && !fitsInt) fail("integer number too large for an int (add L for a long)");
      // Hex/octal/binary int literals are 32-bit two's complement patterns (0xFFFFFFFF is −1).
      if (t.kind == Tok::Int && radix != 10) t.value = static_cast<double>(static_cast<std::int32_t>(static_cast<std::uint32_t>(v)));
      else if (t.kind == Tok::Long && radix != 10) t.value = static_cast<double>(static_cast<std::int64_t>(v));
      else t.value = static_cast<double>(v);
    } else {
      t.value = std::strtod(digits.c_str(), nullptr);
      if (t.kind == Tok::Float) t.value = static_cast<double>(static_cast<float>(t.value));
    }
    t.text = s_.substr(start, pos_ - start);
  }

  // \uXXXX (JLS §3.3, also \uuXXXX): the code unit's value; pos_ at the backslash.
  bool unicodeEscape(unsigned& unit) {
    if (pos_ + 1 >= s_.size() || s_[pos_ + 1] != 'u') return false;
    std::size_t p = pos_ + 1;
    while (p < s_.size() && s_[p] == 'u') ++p;
    if (p + 4 > s_.size()) fail("malformed \\u escape: it needs four hex digits");
    unit = 0;
    for (std::size_t i = p; i < p + 4; ++i) {
      if (!std::isxdigit(static_cast<unsigned char>(s_[i]))) fail("malformed \\u escape: it needs four hex digits");
      unit = unit * 16 + static_cast<unsigned>(std::isdigit(static_cast<unsigned char>(s_[i])) ? s_[i] - '0' : (std::tolower(s_[i]) - 'a' + 10));
    }
    pos_ = p + 4;
    return true;
  }

  char escape() {
    ++pos_;  // the backslash
    if (pos_ >= s_.size()) fail("unfinished escape sequence");
    char c = s_[pos_++];
    switch (c) {
      case 'n': return '\n';
      case 't': return '\t';
      case 'r': return '\r';
      case 'b': return '\b';
      case 'f': return '\f';
      case '0': return '\0';
      case '\\': case '\'': case '"': return c;
      default: fail(std::string("unknown escape sequence '\\") + c + "'");
    }
  }

  void string(Token& t) {
    ++pos_;
    t.kind = Tok::String;
    // An unclosed string is reported where it opens.
    const auto unclosed = [&](const char* message) { throw CodeError{src_.section, t.line, t.column, message}; };
    while (pos_ < s_.size() && s_[pos_] != '"') {
      if (s_[pos_] == '\n') unclosed("string literal is not closed on its line");
      unsigned unit = 0;
      if (s_[pos_] == '\\' && unicodeEscape(unit)) t.text += charText(unit);
      else t.text += s_[pos_] == '\\' ? escape() : s_[pos_++];
    }
    if (pos_ >= s_.size()) unclosed("string literal is not closed");
    ++pos_;
  }

  void character(Token& t) {
    ++pos_;
    if (pos_ >= s_.size()) fail("character literal is not closed");
    unsigned unit = 0;
    const bool unicode = s_[pos_] == '\\' && unicodeEscape(unit);
    char c = unicode ? '\0' : s_[pos_] == '\\' ? escape() : s_[pos_++];
    if (pos_ >= s_.size() || s_[pos_] != '\'') fail("character literal is not closed");
    ++pos_;
    t.kind = Tok::Char;
    t.value = unicode ? unit : static_cast<unsigned char>(c);
    t.text = std::string(1, c);
  }

  void op(Token& t) {
    for (const char* o : kOperators) {
      std::string text(o);
      if (s_.compare(pos_, text.size(), text) == 0) {
        t.kind = Tok::Op;
        t.text = text;
        pos_ += text.size();
        return;
      }
    }
    fail(std::string("unexpected character '") + s_[pos_] + "'");
  }

  const SourceText& src_;
  const std::string& s_;
  std::size_t pos_ = 0;
  std::size_t lineStart_ = 0;
  int line_ = 1;
};

}  // namespace

std::vector<Token> tokenize(const SourceText& source) { return Lexer(source).run(); }

}  // namespace pesim::java
