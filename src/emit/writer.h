// An indent-aware text writer for generated Python.
#pragma once

#include <string>

namespace tz {

class Writer {
 public:
  void line(const std::string& text = "") {
    if (text.empty()) {
      out_ += "\n";
      return;
    }
    out_.append(static_cast<size_t>(indent_) * 4, ' ');
    out_ += text;
    out_ += "\n";
  }
  void indent() { ++indent_; }
  void dedent() { --indent_; }
  const std::string& str() const { return out_; }

 private:
  std::string out_;
  int indent_ = 0;
};

}  // namespace tz
