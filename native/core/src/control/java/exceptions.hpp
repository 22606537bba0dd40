// The exceptions of the Java subset: the JDK classes its operations throw and code may throw or
// catch, with their packages and superclasses (java.lang.Throwable and its subclasses, JDK 17).
#pragma once

#include <string>

namespace pesim::java {

// Whether `name` (a simple class name such as "ArithmeticException") is an exception class of the subset.
bool knownException(const std::string& name);
// "java.lang.ArithmeticException" for "ArithmeticException".
std::string qualifiedException(const std::string& name);
// Whether an exception of class `thrown` is caught by `catch (caught e)`.
bool catches(const std::string& caught, const std::string& thrown);
// The class a failure message starts with ("ArithmeticException: / by zero" → "ArithmeticException"),
// "" when the message is none of the subset's exceptions (the engine's own limits: not catchable).
std::string exceptionClassOf(const std::string& message);

}  // namespace pesim::java
