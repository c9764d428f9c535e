// libFuzzer target for the frontend: lexes and parses arbitrary bytes, dumps the AST and renders the
// diagnostics. Any crash, sanitizer report, leak or hang is a bug; syntax errors are expected.
#include <cstddef>
#include <cstdint>
#include <string>

#include "frontend/ast.h"
#include "frontend/lexer.h"
#include "frontend/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  tz::SourceFile file{"fuzz.py", std::string(reinterpret_cast<const char*>(data), size)};
  std::vector<tz::Token> tokens = tz::lex(file);
  for (const tz::Token& t : tokens) {
    // Every token is located inside the file.
    if (t.loc.line < 1 || t.loc.col < 1) __builtin_trap();
    (void)tz::describe_token(t);
  }
  tz::ast::AstArena arena;
  tz::Diagnostics diags;
  tz::ast::Module module = tz::parse(file, arena, diags);
  std::string dump = tz::ast::dump(module);
  std::string rendered = diags.render();
  (void)dump;
  (void)rendered;
  return 0;
}
