// Parser: tokens -> AST, recursive descent for statements and one Pratt precedence table for expressions.
// Keeps going after a syntax error (skips to the next statement) so that several errors are reported at once.
#pragma once

#include "frontend/ast.h"
#include "support/diagnostics.h"

namespace tz {

// Parses a whole file. On errors, they are added to `diags` and the returned module holds what parsed.
// The tree's depth is bounded whatever the input (at most 200 nested blocks, brackets or elif clauses, and
// 500 levels within one statement's expressions), so recursive walks over it cannot overflow the stack.
ast::Module parse(const SourceFile& file, ast::AstArena& arena, Diagnostics& diags);

}  // namespace tz
