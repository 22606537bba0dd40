// Script file output (see file_output.hpp).
#include "control/java/file_output.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace pesim::java {

namespace fs = std::filesystem;

OutputFile::~OutputFile() { close(); }

void OutputFile::close() {
  if (handle) std::fclose(handle);
  handle = nullptr;
}

namespace {

// The file's absolute path with every symbolic link resolved, if it lies inside `folder`.
fs::path confined(const std::string& folder, const std::string& path, int line) {
  std::error_code error;
  const fs::path base = fs::canonical(folder, error);
  if (error) fail("FileNotFoundException: the output folder " + folder + " does not exist", line);
  const fs::path given(path);
  const fs::path target = fs::weakly_canonical(given.is_absolute() ? given : base / given, error);
  if (error) fail("FileNotFoundException: " + path + " (" + error.message() + ")", line);
  const fs::path inside = target.lexically_relative(base);
  if (inside.empty() || *inside.begin() == ".." || inside == ".") {
    fail("SecurityException: " + path + " is outside the folder scripts may write to (" + base.string() +
             "); pesim script --output-dir names another",
         line);
  }
  return target;
}

}  // namespace

ArrayRef openWriter(const std::string& folder, const std::string& path, bool append, int line) {
  if (isNullText(path)) fail("NullPointerException: the file name is null", line);
  const fs::path target = confined(folder, path, line);
  auto file = std::make_shared<OutputFile>();
  file->path = target.string();
  file->handle = std::fopen(file->path.c_str(), append ? "ab" : "wb");
  if (!file->handle) fail("FileNotFoundException: " + path + " (" + std::strerror(errno) + ")", line);
  auto writer = std::make_shared<Array>();
  writer->state = std::make_shared<ObjectState>();
  writer->state->file = std::move(file);
  return writer;
}

void writeText(const Array& writer, const std::string& text) {
  const auto& file = writer.state->file;
  if (file->handle) std::fwrite(text.data(), 1, text.size(), file->handle);
}

void flushWriter(const Array& writer) {
  if (writer.state->file->handle) std::fflush(writer.state->file->handle);
}

void closeWriter(const Array& writer) { writer.state->file->close(); }

}  // namespace pesim::java
