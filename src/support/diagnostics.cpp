// Diagnostics formatting: `file:line:col: error: msg`, the source line, a caret.
#include "support/diagnostics.h"

#include <sstream>

namespace tz {

std::string SourceFile::line(int number) const {
  if (number < 1) return {};
  int current = 1;
  size_t start = 0;
  while (current < number) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) return {};
    start = nl + 1;
    ++current;
  }
  size_t end = text.find('\n', start);
  std::string out = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
  if (!out.empty() && out.back() == '\r') out.pop_back();
  return out;
}

std::string format_diagnostic(const Diagnostic& d) {
  std::ostringstream os;
  if (d.loc.file) {
    os << d.loc.file->path << ":" << d.loc.line << ":" << d.loc.col << ": ";
  }
  os << "error: " << d.message << "\n";
  if (d.loc.file && d.loc.line > 0) {
    std::string src = d.loc.file->line(d.loc.line);
    os << "  " << src << "\n  ";
    for (int i = 1; i < d.loc.col && i - 1 < static_cast<int>(src.size()); ++i) {
      os << (src[i - 1] == '\t' ? '\t' : ' ');
    }
    os << "^\n";
  }
  if (!d.note.empty()) os << "note: " << d.note << "\n";
  return os.str();
}

void Diagnostics::error(SourceLoc loc, std::string message, std::string note) {
  errors_.push_back({loc, std::move(message), std::move(note)});
}

std::string Diagnostics::render() const {
  std::string out;
  for (const auto& d : errors_) out += format_diagnostic(d);
  return out;
}

void internal_error(const std::string& message, const char* file, int line) {
  std::ostringstream os;
  os << "internal error (a tritonize bug, please report it): " << message << " [" << file << ":" << line
     << "]";
  throw InternalError(os.str());
}

}  // namespace tz
