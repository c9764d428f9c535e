// Diagnostics: source locations, user errors (the input's fault, located) and internal errors (our bugs).
// A user error prints `file:line:col: error: message`, the source line and a caret under the column.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tz {

// One input file's text, kept so that diagnostics can quote the offending line.
struct SourceFile {
  std::string path;
  std::string text;
  std::string line(int number) const;  // 1-based; "" when out of range
};

struct SourceLoc {
  const SourceFile* file = nullptr;
  int line = 0;  // 1-based; 0 = unknown
  int col = 0;   // 1-based
};

struct Diagnostic {
  SourceLoc loc;
  std::string message;
  std::string note;  // optional second line ("note: ...")
};

// Format one diagnostic with the quoted source line and a caret.
std::string format_diagnostic(const Diagnostic& d);

// Collects several errors per run (the parser keeps going after an error).
class Diagnostics {
 public:
  void error(SourceLoc loc, std::string message, std::string note = {});
  bool has_errors() const { return !errors_.empty(); }
  const std::vector<Diagnostic>& errors() const { return errors_; }
  std::string render() const;  // all errors, formatted, in order

 private:
  std::vector<Diagnostic> errors_;
};

// Thrown for a problem in the user's input: carries its location. Caught by the driver and printed.
class UserError : public std::runtime_error {
 public:
  UserError(SourceLoc loc, const std::string& message, std::string note = {})
      : std::runtime_error(message), loc_(loc), note_(std::move(note)) {}
  const SourceLoc& loc() const { return loc_; }
  const std::string& note() const { return note_; }
  Diagnostic diagnostic() const { return {loc_, what(), note_}; }

 private:
  SourceLoc loc_;
  std::string note_;
};

// Thrown when an invariant of ours is broken: always a tritonize bug.
class InternalError : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

[[noreturn]] void internal_error(const std::string& message, const char* file, int line);

}  // namespace tz

// internal_assert: our invariant (a bug if false). user errors are thrown with a location instead.
#define TZ_ASSERT(cond, msg)                                          \
  do {                                                                \
    if (!(cond)) ::tz::internal_error((msg), __FILE__, __LINE__);     \
  } while (0)
