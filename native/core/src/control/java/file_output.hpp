// Files a script writes through PrintWriter, FileWriter and BufferedWriter (script.hpp): each
// confined to one folder, the script's own or one the user names; a path that resolves outside it
// (through `..`, an absolute path or a symbolic link) is refused before anything is opened.
#pragma once

#include <cstdio>
#include <string>

#include "control/java/nodes.hpp"

namespace pesim::java {

struct OutputFile {
  std::FILE* handle = nullptr;
  std::string path;
  OutputFile() = default;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();
  void close();
};

// A writer object on `path` (relative paths: in `folder`), emptied first unless `append`. Fails
// (CodeFailure) when the path resolves outside `folder` or the file cannot be opened.
ArrayRef openWriter(const std::string& folder, const std::string& path, bool append, int line);
// Writes text through the writer; after close() Java's PrintWriter drops it, and so does this.
void writeText(const Array& writer, const std::string& text);
void flushWriter(const Array& writer);
void closeWriter(const Array& writer);

}  // namespace pesim::java
