// Lexer implementation: one pass over the bytes, an indentation stack for INDENT/DEDENT, a bracket depth that
// suppresses NEWLINE inside (), [] and {}. Errors become Error tokens (see lexer.h) and lexing goes on.
#include "frontend/lexer.h"

#include <cerrno>
#include <algorithm>
#include <cstdlib>
#include <limits>

namespace tz {

namespace {

struct Spelled {
  TokKind kind;
  std::string_view text;
};

constexpr Spelled kPunct[] = {
#define TZ_X(name, spelling) {TokKind::name, spelling},
    TZ_PUNCT_KINDS(TZ_X)
#undef TZ_X
};

constexpr Spelled kKeywords[] = {
#define TZ_X(name, spelling) {TokKind::name, spelling},
    TZ_KEYWORD_KINDS(TZ_X)
#undef TZ_X
};

// Nesting limits that keep the lexer's recursion (f-string -> field -> spec or nested f-string) shallow.
constexpr int kMaxFStringDepth = 16;
constexpr int kMaxFieldDepth = 32;

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
// Bytes >= 0x80 are parts of UTF-8 sequences: Python allows non-ASCII identifiers, and we keep them whole.
bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

class Lexer {
 public:
  explicit Lexer(const SourceFile& file) : file_(file), src_(file.text) {}

  std::vector<Token> run() {
    if (src_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // a UTF-8 byte order mark, as some editors write
    for (;;) {
      if (at_line_start_ && !start_logical_line()) break;
      skip_whitespace();
      if (pos_ >= src_.size()) break;
      char c = src_[pos_];
      if (c == '#') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
      } else if (c == '\n' || (c == '\r' && peek(1) == '\n')) {
        newline_char();
      } else if (c == '\\') {
        continuation();
      } else {
        token();
      }
    }
    finish();
    return std::move(out_);
  }

 private:
  // An indentation level; `emitted` is false for a level pushed while recovering from an inconsistent
  // dedent, which therefore closes without a DEDENT.
  struct Level {
    int width;
    bool emitted;
  };

  char peek(size_t ahead) const { return pos_ + ahead < src_.size() ? src_[pos_ + ahead] : '\0'; }
  SourceLoc loc_here() const { return {&file_, line_, static_cast<int>(pos_ - line_begin_) + 1}; }

  // Consumes the newline at pos_ ("\n" or "\r\n") and moves to the next line.
  void take_newline() {
    if (src_[pos_] == '\r') ++pos_;
    ++pos_;
    ++line_;
    line_begin_ = pos_;
    line_offsets_.push_back(pos_);
  }

  size_t offset_of(SourceLoc loc) const {
    return line_offsets_[static_cast<size_t>(loc.line - 1)] + static_cast<size_t>(loc.col - 1);
  }

  // Whether the physical line at pos_ starts with a keyword that cannot continue an expression.
  bool starts_statement_only_line() const {
    size_t p = pos_;
    while (p < src_.size() && (src_[p] == ' ' || src_[p] == '\t' || src_[p] == '\f')) ++p;
    size_t start = p;
    while (p < src_.size() && is_ident_char(src_[p])) ++p;
    std::string_view word = src_.substr(start, p - start);
    static constexpr std::string_view kStatementOnly[] = {
        "def", "class", "return", "import", "pass", "break", "continue", "global", "nonlocal",
        "assert", "del", "raise", "while", "try", "except", "finally", "with", "elif"};
    for (std::string_view k : kStatementOnly) {
      if (word == k) return true;
    }
    return false;
  }

  Token& emit(TokKind kind, size_t start, SourceLoc loc) {
    Token t;
    t.kind = kind;
    t.loc = loc;
    t.text = src_.substr(start, pos_ - start);
    out_.push_back(std::move(t));
    if (kind != TokKind::Newline && kind != TokKind::Indent && kind != TokKind::Dedent) line_has_tokens_ = true;
    return out_.back();
  }

  void error(SourceLoc loc, size_t start, std::string message) {
    Token& t = emit(TokKind::Error, start, loc);
    t.value = std::move(message);
  }

  // At the start of a logical line: skips blank and comment-only lines, then compares the indentation with
  // the stack and emits INDENT/DEDENT. Returns false at end of file.
  bool start_logical_line() {
    for (;;) {
      int width = 0;
      // A backslash continuation inside the indentation: as in CPython, the column of the first backslash
      // (unless it is 0) is the line's indentation, and a line that ends up blank is skipped.
      int continued_width = 0;
      while (pos_ < src_.size()) {
        char c = src_[pos_];
        if (c == ' ') {
          ++width;
        } else if (c == '\t') {
          width = (width / 8 + 1) * 8;  // a tab advances to the next multiple of 8, as in CPython
        } else if (c == '\f') {
          width = 0;  // form feed resets the column (CPython does the same)
        } else if (c == '\r' && peek(1) != '\n') {
          // A lone carriage return is treated as a space: lines are split at '\n' only, like SourceFile.
        } else if (c == '\\' && (peek(1) == '\n' || (peek(1) == '\r' && peek(2) == '\n'))) {
          if (continued_width == 0) continued_width = width;
          ++pos_;
          take_newline();
          continue;
        } else {
          break;
        }
        ++pos_;
      }
      if (pos_ >= src_.size()) return false;
      char c = src_[pos_];
      if (c == '#') {
        while (pos_ < src_.size() && src_[pos_] != '\n') ++pos_;
        if (pos_ >= src_.size()) return false;
      }
      if (src_[pos_] == '\n' || (src_[pos_] == '\r' && peek(1) == '\n')) {
        take_newline();
        continue;
      }
      at_line_start_ = false;
      indent_to(continued_width != 0 ? continued_width : width);
      return true;
    }
  }

  void indent_to(int width) {
    SourceLoc loc = loc_here();
    if (width > indents_.back().width) {
      indents_.push_back({width, true});
      emit(TokKind::Indent, pos_, loc);
      return;
    }
    while (width < indents_.back().width) {
      bool emitted = indents_.back().emitted;
      indents_.pop_back();
      if (emitted) emit(TokKind::Dedent, pos_, loc);
    }
    if (width != indents_.back().width) {
      // Recover by making this width a level of its own, so the following lines at it lex consistently.
      indents_.push_back({width, false});
      error(loc, pos_, "unindent does not match any outer indentation level");
    }
  }

  // One name, keyword, number, string (or whole f-string) or operator at pos_.
  void token() {
    char c = src_[pos_];
    if (is_ident_start(c)) {
      name_or_string();
    } else if (is_digit(c) || (c == '.' && is_digit(peek(1)))) {
      number();
    } else if (c == '"' || c == '\'') {
      string(pos_, loc_here(), /*raw=*/false, /*bytes=*/false);
    } else {
      punct();
    }
  }

  void skip_whitespace() {
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\f' || (c == '\r' && peek(1) != '\n')) {
        ++pos_;
      } else {
        break;
      }
    }
  }

  void newline_char() {
    SourceLoc loc = loc_here();
    size_t start = pos_;
    take_newline();
    if (!brackets_.empty()) {
      if (!starts_statement_only_line()) return;
      // A line that can only begin a statement: the bracket before it was never closed. Reporting that
      // here, and ending the logical line, keeps the rest of the file from being one broken line.
      SourceLoc open = brackets_.back();
      brackets_.clear();
      error(open, pos_, std::string("'") + file_.text[static_cast<size_t>(offset_of(open))] + "' was never closed");
    }
    if (line_has_tokens_) {
      out_.push_back({TokKind::Newline, loc, src_.substr(start, 0), {}, 0, 0.0, false});
      line_has_tokens_ = false;
    }
    at_line_start_ = true;
  }

  void continuation() {
    SourceLoc loc = loc_here();
    size_t start = pos_;
    ++pos_;
    if (pos_ < src_.size() && (src_[pos_] == '\n' || (src_[pos_] == '\r' && peek(1) == '\n'))) {
      take_newline();
      return;
    }
    if (pos_ >= src_.size()) {
      error(loc, start, "unexpected end of file after line continuation character");
    } else {
      error(loc, start, "unexpected character after line continuation character");
    }
  }

  void name_or_string() {
    SourceLoc loc = loc_here();
    size_t start = pos_;
    while (pos_ < src_.size() && is_ident_char(src_[pos_])) ++pos_;
    std::string_view word = src_.substr(start, pos_ - start);
    char q = peek(0);
    if ((q == '"' || q == '\'') && word.size() <= 2) {
      bool raw = false, bytes = false, formatted = false, unicode = false, ok = true;
      for (char ch : word) {
        switch (ch) {
          case 'r': case 'R': ok = ok && !raw; raw = true; break;
          case 'b': case 'B': ok = ok && !bytes; bytes = true; break;
          case 'f': case 'F': ok = ok && !formatted; formatted = true; break;
          case 'u': case 'U': ok = ok && !unicode; unicode = true; break;
          default: ok = false;
        }
      }
      // Valid prefixes: r u b f br rb fr rf (any case); u combines with nothing.
      ok = ok && !(bytes && formatted) && !(unicode && word.size() > 1);
      if (ok && formatted) {
        fstring(start, loc, raw);
        return;
      }
      if (ok) {
        string(start, loc, raw, bytes);
        return;
      }
    }
    TokKind kind = TokKind::Name;
    for (const Spelled& k : kKeywords) {
      if (k.text == word) {
        kind = k.kind;
        break;
      }
    }
    emit(kind, start, loc);
  }

  // Scans digits accepted by `is_ok`, with single underscores between digits. Returns false when an
  // underscore is misplaced.
  template <typename Pred>
  bool digits(Pred is_ok, std::string& clean) {
    bool prev_digit = false;
    while (pos_ < src_.size()) {
      char c = src_[pos_];
      if (is_ok(c)) {
        clean += c;
        prev_digit = true;
      } else if (c == '_') {
        if (!prev_digit || !is_ok(peek(1))) return false;
        prev_digit = false;
      } else {
        break;
      }
      ++pos_;
    }
    return true;
  }

  void number() {
    SourceLoc loc = loc_here();
    size_t start = pos_;
    auto bad = [&](const char* what) {
      while (pos_ < src_.size() && (is_ident_char(src_[pos_]) || src_[pos_] == '.')) ++pos_;
      error(loc, start, what);
    };
    std::string clean;
    char c0 = src_[pos_];
    char c1 = peek(1);
    if (c0 == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'o' || c1 == 'O' || c1 == 'b' || c1 == 'B')) {
      int base = (c1 == 'x' || c1 == 'X') ? 16 : (c1 == 'o' || c1 == 'O') ? 8 : 2;
      const char* what = base == 16 ? "invalid hexadecimal literal"
                         : base == 8 ? "invalid octal literal"
                                     : "invalid binary literal";
      pos_ += 2;
      if (peek(0) == '_') ++pos_;  // 0x_ff is allowed
      bool ok = digits([base](char c) { return base == 16 ? is_hex_digit(c) : c >= '0' && c < '0' + base; },
                       clean);
      if (!ok || clean.empty() || (pos_ < src_.size() && (is_ident_char(src_[pos_]) || is_digit(src_[pos_])))) {
        return bad(what);
      }
      uint64_t v = 0;
      for (char c : clean) {
        uint64_t d = static_cast<uint64_t>(hex_value(c));
        if (v > (static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) - d) / static_cast<uint64_t>(base)) {
          return bad("integer literal is too large (more than 64 bits)");
        }
        v = v * static_cast<uint64_t>(base) + d;
      }
      emit(TokKind::Int, start, loc).int_value = static_cast<int64_t>(v);
      return;
    }
    bool is_float = false;
    if (!digits(is_digit, clean)) return bad("invalid decimal literal");
    if (peek(0) == '.' && !(peek(1) == '.' && peek(2) == '.')) {
      is_float = true;
      clean += '.';
      ++pos_;
      if (peek(0) == '_') return bad("invalid decimal literal");
      if (!digits(is_digit, clean)) return bad("invalid decimal literal");
    }
    if (peek(0) == 'e' || peek(0) == 'E') {
      size_t save = pos_;
      std::string exp = "e";
      ++pos_;
      if (peek(0) == '+' || peek(0) == '-') exp += src_[pos_++];
      size_t before = exp.size();
      if (!digits(is_digit, exp) || exp.size() == before) {
        // `1else` or `1e` alone: Python rejects both; `1 if x else y` is still fine with the space.
        pos_ = save;
        return bad("invalid decimal literal");
      }
      is_float = true;
      clean += exp;
    }
    if (peek(0) == 'j' || peek(0) == 'J') {
      ++pos_;
      return bad("complex literals are not supported");
    }
    if (peek(0) == '_') return bad("invalid decimal literal");
    if (is_float) {
      errno = 0;
      // strtod is locale-dependent, but tritonize never calls setlocale, so the decimal point is '.'.
      double v = std::strtod(clean.c_str(), nullptr);
      emit(TokKind::Float, start, loc).float_value = v;  // overflow gives inf and underflow 0, as in Python
      return;
    }
    if (clean.size() > 1 && clean[0] == '0' && clean.find_first_not_of('0') != std::string::npos) {
      return bad("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal");
    }
    int64_t v = 0;
    for (char c : clean) {
      int d = c - '0';
      if (v > (std::numeric_limits<int64_t>::max() - d) / 10) {
        return bad("integer literal is too large (more than 64 bits)");
      }
      v = v * 10 + d;
    }
    emit(TokKind::Int, start, loc).int_value = v;
  }

  // Decodes one backslash escape of a non-raw literal (pos_ at the backslash) into `out`. Returns an error
  // message, or "" when fine.
  std::string escape(std::string& out, bool bytes) {
    ++pos_;  // the backslash
    char c = src_[pos_];
    if (c == '\n' || (c == '\r' && peek(1) == '\n')) {
      take_newline();  // backslash-newline inside a literal joins the lines
      return {};
    }
    ++pos_;
    switch (c) {
      case '\\': out += '\\'; return {};
      case '\'': out += '\''; return {};
      case '"': out += '"'; return {};
      case 'a': out += '\a'; return {};
      case 'b': out += '\b'; return {};
      case 'f': out += '\f'; return {};
      case 'n': out += '\n'; return {};
      case 'r': out += '\r'; return {};
      case 't': out += '\t'; return {};
      case 'v': out += '\v'; return {};
      default: break;
    }
    if (c >= '0' && c <= '7') {
      uint32_t v = static_cast<uint32_t>(c - '0');
      for (int i = 0; i < 2 && peek(0) >= '0' && peek(0) <= '7'; ++i) {
        v = v * 8 + static_cast<uint32_t>(src_[pos_++] - '0');
      }
      if (bytes) {
        out += static_cast<char>(v & 0xFF);
      } else {
        append_utf8(out, v);
      }
      return {};
    }
    int hex_len = c == 'x' ? 2 : (!bytes && c == 'u') ? 4 : (!bytes && c == 'U') ? 8 : 0;
    if (hex_len > 0) {
      uint32_t v = 0;
      for (int i = 0; i < hex_len; ++i) {
        if (!is_hex_digit(peek(0))) return std::string("truncated \\") + c + " escape";
        v = v * 16 + static_cast<uint32_t>(hex_value(src_[pos_++]));
      }
      if (v > 0x10FFFF) return "invalid \\U escape: code point out of range";
      if (bytes) {
        out += static_cast<char>(v);
      } else {
        append_utf8(out, v);
      }
      return {};
    }
    if (!bytes && c == 'N') return "'\\N{...}' escapes are not supported";
    // Unknown escapes keep the backslash, as Python does (with a warning).
    out += '\\';
    out += c;
    return {};
  }

  // A string literal whose prefix starts at `start`; pos_ is at the opening quote.
  void string(size_t start, SourceLoc loc, bool raw, bool bytes) {
    char quote = src_[pos_];
    bool triple = peek(1) == quote && peek(2) == quote;
    pos_ += triple ? 3 : 1;
    std::string value;
    std::string problem;
    for (;;) {
      if (pos_ >= src_.size()) {
        error(loc, start, triple ? "unterminated triple-quoted string literal" : "unterminated string literal");
        return;
      }
      char c = src_[pos_];
      if (c == quote && (!triple || (peek(1) == quote && peek(2) == quote))) {
        pos_ += triple ? 3 : 1;
        break;
      }
      bool newline = c == '\n' || (c == '\r' && peek(1) == '\n');
      if (newline && !triple) {
        error(loc, start, "unterminated string literal");
        return;
      }
      if (newline) {
        take_newline();
        value += '\n';
      } else if (c == '\\' && pos_ + 1 < src_.size()) {
        if (raw) {
          // In a raw literal the backslash stays and protects the next character (even a quote).
          value += c;
          ++pos_;
          if (src_[pos_] == '\n' || (src_[pos_] == '\r' && peek(1) == '\n')) {
            take_newline();
            value += '\n';
          } else {
            value += src_[pos_++];
          }
        } else {
          std::string p = escape(value, bytes);
          if (problem.empty()) problem = std::move(p);
        }
      } else {
        if (bytes && static_cast<unsigned char>(c) >= 0x80 && problem.empty()) {
          problem = "bytes can only contain ASCII literal characters";
        }
        value += c;
        ++pos_;
      }
    }
    if (!problem.empty()) return error(loc, start, problem);
    Token& t = emit(TokKind::Str, start, loc);
    t.value = std::move(value);
    t.bytes = bytes;
  }

  // ---- f-strings (see lexer.h for the token sequence) ----

  struct FQuote {
    char quote;
    bool triple;
    bool raw;
    SourceLoc loc;  // of the f-string, for "unterminated" messages
  };

  bool at_quote_end(const FQuote& q) const {
    return peek(0) == q.quote && (!q.triple || (peek(1) == q.quote && peek(2) == q.quote));
  }
  bool at_newline() const { return peek(0) == '\n' || (peek(0) == '\r' && peek(1) == '\n'); }

  // An f-string whose prefix starts at `start`; pos_ is at the opening quote.
  void fstring(size_t start, SourceLoc loc, bool raw) {
    FQuote q{src_[pos_], peek(1) == src_[pos_] && peek(2) == src_[pos_], raw, loc};
    pos_ += q.triple ? 3 : 1;
    emit(TokKind::FStringStart, start, loc);
    if (fstring_depth_ >= kMaxFStringDepth) {
      fstring_failed(loc, "f-strings nested too deeply");
      return;
    }
    ++fstring_depth_;
    size_t saved_brackets = brackets_.size();
    bool ok = fstring_body(q, /*in_spec=*/false);
    brackets_.resize(std::min(saved_brackets, brackets_.size()));
    --fstring_depth_;
    if (!ok) {
      if (fstring_depth_ == 0) {
        fstring_resync(q);
        fstring_error_ = false;
      }
      return;
    }
    SourceLoc end_loc = loc_here();
    size_t end_start = pos_;
    pos_ += q.triple ? 3 : 1;
    emit(TokKind::FStringEnd, end_start, end_loc);
  }

  // Reports an error inside an f-string (once: the enclosing f-strings fail with it). The outermost
  // f-string then resynchronises (fstring_resync).
  void fstring_failed(SourceLoc loc, std::string message) {
    if (!fstring_error_) error(loc, pos_, std::move(message));
    fstring_error_ = true;
  }

  // Skips to the closing quote of a failed f-string (or the end of the line, for a single-quoted one).
  void fstring_resync(const FQuote& q) {
    while (pos_ < src_.size() && !at_quote_end(q)) {
      if (at_newline()) {
        if (!q.triple) return;
        take_newline();
      } else if (src_[pos_] == '\\' && pos_ + 1 < src_.size() && src_[pos_ + 1] != '\n' && src_[pos_ + 1] != '\r') {
        pos_ += 2;  // an escaped quote does not close the literal
      } else {
        ++pos_;
      }
    }
    if (pos_ < src_.size()) pos_ += q.triple ? 3 : 1;
  }

  // Literal text and fields up to the closing quote (left unconsumed), or for a format spec up to the '}'
  // that closes its field (also unconsumed). Returns false after an error.
  bool fstring_body(const FQuote& q, bool in_spec) {
    std::string text;
    size_t text_start = pos_;
    SourceLoc text_loc = loc_here();
    auto flush = [&] {
      if (!text.empty()) {
        Token& t = emit(TokKind::FStringMiddle, text_start, text_loc);
        t.value = std::move(text);
        text.clear();
      }
    };
    for (;;) {
      if (pos_ >= src_.size()) {
        fstring_failed(q.loc, q.triple ? "unterminated triple-quoted f-string" : "unterminated f-string");
        return false;
      }
      char c = src_[pos_];
      if (at_quote_end(q)) {
        if (in_spec) {
          fstring_failed(loc_here(), "f-string: expecting '}'");
          return false;
        }
        flush();
        return true;
      }
      if (at_newline()) {
        if (!q.triple) {
          fstring_failed(q.loc, "unterminated f-string");
          return false;
        }
        take_newline();
        text += '\n';
      } else if (c == '{' && peek(1) == '{' && !in_spec) {
        text += '{';
        pos_ += 2;
      } else if (c == '}' && peek(1) == '}' && !in_spec) {
        text += '}';
        pos_ += 2;
      } else if (c == '{') {
        flush();
        if (!fstring_field(q)) return false;
        text_start = pos_;
        text_loc = loc_here();
      } else if (c == '}') {
        if (in_spec) {
          flush();
          return true;
        }
        fstring_failed(loc_here(), "f-string: single '}' is not allowed");
        return false;
      } else if (c == '\\' && (q.raw || peek(1) == '{' || peek(1) == '}')) {
        text += c;  // a raw backslash, or one before a brace (which stays a brace)
        ++pos_;
      } else if (c == '\\' && pos_ + 1 < src_.size()) {
        SourceLoc loc = loc_here();
        std::string problem = escape(text, /*bytes=*/false);
        if (!problem.empty()) {
          fstring_failed(loc, problem);
          return false;
        }
      } else {
        text += c;
        ++pos_;
      }
    }
  }

  // One replacement field; pos_ is at its '{'. Emits '{' expression-tokens ['!' name] [':' spec] '}'.
  bool fstring_field(const FQuote& q) {
    SourceLoc open_loc = loc_here();
    if (field_depth_ >= kMaxFieldDepth) {
      fstring_failed(open_loc, "f-string: expressions nested too deeply");
      return false;
    }
    ++field_depth_;
    bool ok = fstring_field_body(q, open_loc);
    --field_depth_;
    return ok;
  }

  bool fstring_field_body(const FQuote& q, SourceLoc open_loc) {
    size_t open_start = pos_++;
    emit(TokKind::LBrace, open_start, open_loc);
    int depth = 0;
    for (;;) {
      skip_whitespace();
      if (at_newline() && q.triple) {
        take_newline();
        continue;
      }
      if (pos_ >= src_.size() || at_newline() || at_quote_end(q)) {
        fstring_failed(loc_here(), "f-string: expecting '}'");
        return false;
      }
      char c = src_[pos_];
      SourceLoc loc = loc_here();
      size_t start = pos_;
      if (depth == 0 && c == '}') {
        ++pos_;
        emit(TokKind::RBrace, start, loc);
        return true;
      }
      if (depth == 0 && c == '!' && peek(1) != '=') {
        ++pos_;
        emit(TokKind::Bang, start, loc);
        continue;
      }
      if (depth == 0 && c == ':') {
        ++pos_;
        emit(TokKind::Colon, start, loc);
        if (!fstring_body(q, /*in_spec=*/true)) return false;
        SourceLoc close_loc = loc_here();
        size_t close_start = pos_++;
        emit(TokKind::RBrace, close_start, close_loc);
        return true;
      }
      if (c == '\\') {
        fstring_failed(loc, "f-string expression part cannot include a backslash");
        return false;
      }
      if (c == '#') {
        fstring_failed(loc, "f-string expression part cannot include '#'");
        return false;
      }
      size_t before = out_.size();
      token();
      if (out_.size() > before) {
        TokKind k = out_.back().kind;
        if (k == TokKind::LParen || k == TokKind::LBracket || k == TokKind::LBrace) ++depth;
        if ((k == TokKind::RParen || k == TokKind::RBracket || k == TokKind::RBrace) && depth > 0) --depth;
        if (k == TokKind::Error) {
          // A bad token inside the field (e.g. an unterminated nested string): already reported.
          fstring_error_ = true;
          return false;
        }
      }
      if (fstring_error_) return false;  // a nested f-string failed
    }
  }

  void punct() {
    SourceLoc loc = loc_here();
    size_t start = pos_;
    const Spelled* best = nullptr;
    for (const Spelled& p : kPunct) {
      if (src_.substr(pos_, p.text.size()) == p.text && (!best || p.text.size() > best->text.size())) best = &p;
    }
    if (!best) {
      unsigned char c = static_cast<unsigned char>(src_[pos_++]);
      std::string shown;
      if (c >= 0x20 && c < 0x7F) {
        shown = std::string("'") + static_cast<char>(c) + "'";
      } else {
        static const char* hex = "0123456789abcdef";
        shown = std::string("'\\x") + hex[c >> 4] + hex[c & 15] + "'";
      }
      return error(loc, start, "invalid character " + shown);
    }
    pos_ += best->text.size();
    switch (best->kind) {
      case TokKind::LParen: case TokKind::LBracket: case TokKind::LBrace: brackets_.push_back(loc); break;
      case TokKind::RParen: case TokKind::RBracket: case TokKind::RBrace:
        // A stray closer is the parser's to report; the depth just must not go negative.
        if (!brackets_.empty()) brackets_.pop_back();
        break;
      default: break;
    }
    emit(best->kind, start, loc);
  }

  void finish() {
    SourceLoc loc = loc_here();
    if (pos_ == line_begin_ && line_ > 1) {
      // Place end-of-file tokens at the end of the last line rather than on a line that does not exist, so
      // that a diagnostic there can quote a source line.
      size_t nl = line_begin_ - 1;
      size_t prev = src_.rfind('\n', nl == 0 ? 0 : nl - 1);
      size_t begin = (prev == std::string_view::npos || nl == 0) ? 0 : prev + 1;
      size_t end = (nl > begin && src_[nl - 1] == '\r') ? nl - 1 : nl;
      loc = {&file_, line_ - 1, static_cast<int>(end - begin) + 1};
    }
    if (line_has_tokens_) out_.push_back({TokKind::Newline, loc, src_.substr(pos_, 0), {}, 0, 0.0, false});
    for (size_t i = indents_.size(); i-- > 1;) {
      if (indents_[i].emitted) out_.push_back({TokKind::Dedent, loc, src_.substr(pos_, 0), {}, 0, 0.0, false});
    }
    out_.push_back({TokKind::EndOfFile, loc, src_.substr(pos_, 0), {}, 0, 0.0, false});
  }

  const SourceFile& file_;
  std::string_view src_;
  size_t pos_ = 0;
  int line_ = 1;
  size_t line_begin_ = 0;
  bool at_line_start_ = true;
  bool line_has_tokens_ = false;
  std::vector<SourceLoc> brackets_;  // the open brackets; NEWLINE is not emitted while there are any
  std::vector<size_t> line_offsets_{0};  // the offset at which each line begins, for offset_of
  int fstring_depth_ = 0;
  int field_depth_ = 0;  // replacement fields nested in format specs or in nested f-strings
  bool fstring_error_ = false;  // an error inside the current outermost f-string was reported
  std::vector<Level> indents_{{0, true}};
  std::vector<Token> out_;
};

}  // namespace

std::vector<Token> lex(const SourceFile& file) { return Lexer(file).run(); }

const char* token_kind_spelling(TokKind kind) {
  switch (kind) {
#define TZ_X(name, spelling) \
  case TokKind::name:        \
    return spelling;
    TZ_TOKEN_KINDS(TZ_X)
#undef TZ_X
  }
  return "?";
}

std::string describe_token(const Token& token) {
  switch (token.kind) {
    case TokKind::EndOfFile:
    case TokKind::Newline:
    case TokKind::Indent:
    case TokKind::Dedent:
      return token_kind_spelling(token.kind);
    case TokKind::Str:
    case TokKind::FStringStart:
      return "string literal";
    default: break;
  }
  std::string text(token.text.substr(0, 40));
  if (token.text.size() > 40) text += "...";
  // Keep messages on one line when the token is a multi-line string.
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return "'" + text + "'";
}

}  // namespace tz
