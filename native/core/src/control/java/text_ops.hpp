// java.lang.String operations over UTF-8 texts holding ASCII or other text (indices count bytes,
// which are the UTF-16 indices of ASCII text), number parsing as Integer.parseInt and
// Double.parseDouble do, and the regular expressions String.split takes (text_ops.cpp).
#pragma once

#include <string>
#include <vector>

namespace pesim::java {

// String.split(regex) with limit 0 (trailing empty strings removed). The regex may use literal
// characters, escapes (\\s \\d \\w \\. ...), classes [...] and the quantifiers * + ?; throws
// CodeFailure (PatternSyntaxException) for other patterns.
std::vector<std::string> splitText(const std::string& text, const std::string& regex, int line);
// Integer.parseInt / Long.parseLong (radix 10): NumberFormatException as the JDK's.
double parseInteger(const std::string& text, bool isLong, int line);
// Double.parseDouble: NumberFormatException as the JDK's.
double parseDecimal(const std::string& text, int line);
std::string trimText(const std::string& s);
std::string upperText(std::string s);
std::string lowerText(std::string s);

}  // namespace pesim::java
