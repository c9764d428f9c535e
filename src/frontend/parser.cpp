// Parser: recursive descent for statements, one Pratt table (kInfix) for binary operator precedence.
// A syntax error is reported, then thrown as ParseFailure to the innermost statement loop, which skips to the
// next logical line and goes on; errors the parse can step over (bad assignment targets, unsupported but
// well-formed constructs) are reported without throwing. Nesting is capped so that adversarial input can
// neither overflow the stack here nor in the passes that walk the AST recursively.
#include "frontend/parser.h"

#include <algorithm>
#include <utility>

#include "frontend/lexer.h"

namespace tz {

namespace {

using ast::Expr;
using ast::ExprKind;
using ast::Op;
using ast::Stmt;
using ast::StmtKind;

// Brackets, unary operators, lambdas and blocks nested deeper than this are an error (CPython's limits are
// of the same order: 200 parentheses, 100 indentation levels).
constexpr int kMaxNesting = 200;
// No expression tree may be taller than this (a 10 000-term `a+a+...` is flat to parse but deep as a tree).
constexpr int kMaxExprHeight = 500;
// After this many errors the rest of the file is not worth reading.
constexpr size_t kMaxErrors = 50;

// Binding powers, loosest first. `not` and unary +,-,~ are prefix operators at kBpNot and kBpUnary; `**`
// binds tighter than a unary operator on its left (-x**2 == -(x**2)) and takes a unary operand on its right.
enum Bp : int {
  kBpLowest = 0,
  kBpOr,
  kBpAnd,
  kBpNot,
  kBpCompare,
  kBpBitOr,
  kBpBitXor,
  kBpBitAnd,
  kBpShift,
  kBpArith,
  kBpTerm,
  kBpUnary,
  kBpPower,
};

enum class Form { Binary, Bool, Compare };

struct InfixRule {
  TokKind tok;
  int bp;
  Op op;
  Form form;
};

// The one precedence table. `not in` and `is not` are recognised from their first token.
constexpr InfixRule kInfix[] = {
    {TokKind::KwOr, kBpOr, Op::Or, Form::Bool},
    {TokKind::KwAnd, kBpAnd, Op::And, Form::Bool},
    {TokKind::Eq, kBpCompare, Op::Eq, Form::Compare},
    {TokKind::NotEq, kBpCompare, Op::NotEq, Form::Compare},
    {TokKind::Lt, kBpCompare, Op::Lt, Form::Compare},
    {TokKind::LtE, kBpCompare, Op::LtE, Form::Compare},
    {TokKind::Gt, kBpCompare, Op::Gt, Form::Compare},
    {TokKind::GtE, kBpCompare, Op::GtE, Form::Compare},
    {TokKind::KwIn, kBpCompare, Op::In, Form::Compare},
    {TokKind::KwNot, kBpCompare, Op::NotIn, Form::Compare},
    {TokKind::KwIs, kBpCompare, Op::Is, Form::Compare},
    {TokKind::Pipe, kBpBitOr, Op::BitOr, Form::Binary},
    {TokKind::Caret, kBpBitXor, Op::BitXor, Form::Binary},
    {TokKind::Amp, kBpBitAnd, Op::BitAnd, Form::Binary},
    {TokKind::LShift, kBpShift, Op::LShift, Form::Binary},
    {TokKind::RShift, kBpShift, Op::RShift, Form::Binary},
    {TokKind::Plus, kBpArith, Op::Add, Form::Binary},
    {TokKind::Minus, kBpArith, Op::Sub, Form::Binary},
    {TokKind::Star, kBpTerm, Op::Mul, Form::Binary},
    {TokKind::Slash, kBpTerm, Op::Div, Form::Binary},
    {TokKind::DoubleSlash, kBpTerm, Op::FloorDiv, Form::Binary},
    {TokKind::Percent, kBpTerm, Op::Mod, Form::Binary},
    {TokKind::At, kBpTerm, Op::MatMul, Form::Binary},
    {TokKind::DoubleStar, kBpPower, Op::Pow, Form::Binary},
};

const InfixRule* infix_rule(TokKind kind) {
  for (const InfixRule& r : kInfix) {
    if (r.tok == kind) return &r;
  }
  return nullptr;
}

struct AugOp {
  TokKind tok;
  Op op;
};

constexpr AugOp kAugOps[] = {
    {TokKind::PlusEq, Op::Add},         {TokKind::MinusEq, Op::Sub},       {TokKind::StarEq, Op::Mul},
    {TokKind::SlashEq, Op::Div},        {TokKind::DoubleSlashEq, Op::FloorDiv}, {TokKind::PercentEq, Op::Mod},
    {TokKind::DoubleStarEq, Op::Pow},   {TokKind::AtEq, Op::MatMul},       {TokKind::AmpEq, Op::BitAnd},
    {TokKind::PipeEq, Op::BitOr},       {TokKind::CaretEq, Op::BitXor},    {TokKind::LShiftEq, Op::LShift},
    {TokKind::RShiftEq, Op::RShift},
};

// Thrown after a syntax error has been reported; caught by the statement loop, which resynchronises.
// `skip_block`: the statement's indented block is skipped unparsed (its syntax is not Python we know, as in
// a `match` statement's `case` clauses).
struct ParseFailure {
  bool skip_block = false;
};

std::string loc_text(SourceLoc loc) { return std::to_string(loc.line) + ":" + std::to_string(loc.col); }

// Calls f on every direct child expression of e.
template <typename F>
void for_each_child(const Expr* e, F&& f) {
  auto visit = [&](const Expr* c) {
    if (c) f(c);
  };
  visit(e->lhs);
  visit(e->rhs);
  visit(e->test);
  visit(e->step);
  for (const Expr* c : e->elts) visit(c);
  for (const Expr* c : e->keys) visit(c);
  for (const Expr* c : e->values) visit(c);
  for (const ast::Arg& a : e->args) visit(a.value);
  for (const ast::Param& p : e->params) {
    visit(p.default_value);
    visit(p.annotation);
  }
  for (const ast::Comprehension& c : e->comps) {
    visit(c.target);
    visit(c.iter);
    for (const Expr* i : c.ifs) visit(i);
  }
}

// Height of an expression tree, computed without recursion; stops counting past `limit`.
int expr_height(const Expr* root, int limit) {
  if (!root) return 0;
  int best = 0;
  std::vector<std::pair<const Expr*, int>> stack{{root, 1}};
  while (!stack.empty()) {
    auto [e, depth] = stack.back();
    stack.pop_back();
    best = std::max(best, depth);
    if (best > limit) return best;
    for_each_child(e, [&, d = depth](const Expr* c) { stack.push_back({c, d + 1}); });
  }
  return best;
}

class Parser {
 public:
  Parser(const SourceFile& file, ast::AstArena& arena, Diagnostics& diags)
      : file_(file), arena_(arena), diags_(diags), toks_(lex(file)) {}

  ast::Module parse_module() {
    ast::Module module;
    module.file = &file_;
    while (!at(TokKind::EndOfFile) && !too_many_errors()) {
      if (at(TokKind::Dedent)) {  // cannot happen with balanced INDENT/DEDENT; step over it regardless
        advance();
        continue;
      }
      statement_with_recovery(module.body);
    }
    limit_height(module.body);
    return module;
  }

 private:
  // ---- tokens ----

  const Token& cur() const { return toks_[pos_]; }
  const Token& peek(size_t ahead) const { return toks_[std::min(pos_ + ahead, toks_.size() - 1)]; }
  bool at(TokKind kind) const { return cur().kind == kind; }
  const Token& advance() {
    const Token& t = toks_[pos_];
    if (pos_ + 1 < toks_.size()) ++pos_;
    return t;
  }
  bool accept(TokKind kind) {
    if (!at(kind)) return false;
    advance();
    return true;
  }
  bool at_line_start() const {
    if (pos_ == 0) return true;
    TokKind prev = toks_[pos_ - 1].kind;
    return prev == TokKind::Newline || prev == TokKind::Indent || prev == TokKind::Dedent;
  }
  bool too_many_errors() const { return diags_.errors().size() >= kMaxErrors; }

  // ---- errors ----

  void report(SourceLoc loc, std::string message) {
    if (too_many_errors()) return;
    diags_.error(loc, std::move(message));
    if (too_many_errors()) diags_.error(loc, "too many errors; stopping here");
  }

  // Reports an Error token's message once, whether the parse fails at it or skips over it.
  void report_lex_error(size_t index) {
    if (toks_[index].kind != TokKind::Error || index < lex_errors_done_) return;
    lex_errors_done_ = index + 1;
    report(toks_[index].loc, toks_[index].value);
  }

  // Reports `message` at the current token (or the lexer's error, if the current token is one) and fails.
  [[noreturn]] void fail(const std::string& message) { fail_at(pos_, message); }

  [[noreturn]] void fail_at(size_t index, const std::string& message) {
    if (toks_[index].kind == TokKind::Error) {
      report_lex_error(index);
    } else {
      report(toks_[index].loc, message);
    }
    throw ParseFailure{};
  }

  [[noreturn]] void fail_unexpected() {
    if (at(TokKind::Newline) || at(TokKind::EndOfFile)) {
      if (const Token* open = unclosed_bracket()) {
        TokKind close = open->kind == TokKind::LParen ? TokKind::RParen
                        : open->kind == TokKind::LBracket ? TokKind::RBracket
                                                          : TokKind::RBrace;
        fail(std::string("expected '") + token_kind_spelling(close) + "' to close '" + std::string(open->text) +
             "' opened at " + loc_text(open->loc));
      }
    }
    switch (cur().kind) {
      case TokKind::Indent: fail("unexpected indent");
      case TokKind::Dedent: fail("unexpected unindent");
      case TokKind::Newline: fail("unexpected end of line");
      case TokKind::EndOfFile: fail("unexpected end of file");
      case TokKind::Str:
      case TokKind::FStringStart:
        fail("unexpected string literal");
      default: fail("unexpected token " + describe_token(cur()));
    }
  }

  // The innermost bracket left open on the current logical line. The lexer emits no NEWLINE inside brackets,
  // so a NEWLINE met with one open means the file ended before it was closed.
  const Token* unclosed_bracket() const {
    int depth = 0;
    for (size_t i = pos_; i-- > 0;) {
      TokKind k = toks_[i].kind;
      if (k == TokKind::Newline || k == TokKind::Indent || k == TokKind::Dedent) break;
      if (k == TokKind::RParen || k == TokKind::RBracket || k == TokKind::RBrace) ++depth;
      if (k == TokKind::LParen || k == TokKind::LBracket || k == TokKind::LBrace) {
        if (depth == 0) return &toks_[i];
        --depth;
      }
    }
    return nullptr;
  }

  // A construct that is Python but outside the subset: named in the message.
  [[noreturn]] void fail_unsupported(const std::string& what, bool skip_block = false) {
    report(cur().loc, what + " is not supported");
    throw ParseFailure{skip_block};
  }

  const Token& expect(TokKind kind, const char* context = nullptr) {
    if (!at(kind)) {
      std::string message = std::string("expected '") + token_kind_spelling(kind) + "'";
      if (context) message += std::string(" ") + context;
      fail(message);
    }
    return advance();
  }

  std::string expect_name(const char* what) {
    if (!at(TokKind::Name)) fail(std::string("expected ") + what + ", found " + describe_token(cur()));
    return std::string(advance().text);
  }

  void expect_close(const Token& open, TokKind close) {
    if (accept(close)) return;
    fail(std::string("expected '") + token_kind_spelling(close) + "' to close '" + std::string(open.text) +
         "' opened at " + loc_text(open.loc));
  }

  // Counts one level of nesting for as long as it lives.
  class Nest {
   public:
    explicit Nest(Parser& p) : p_(p) {
      if (p_.depth_ >= kMaxNesting) {
        p_.fail("too deeply nested (more than " + std::to_string(kMaxNesting) + " levels)");
      }
      ++p_.depth_;
    }
    ~Nest() { --p_.depth_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;

   private:
    Parser& p_;
  };

  // ---- statements ----

  void statement_with_recovery(std::vector<Stmt*>& out) {
    size_t start = pos_;
    try {
      statement(out);
    } catch (const ParseFailure& failure) {
      synchronize(start, failure.skip_block);
    }
  }

  // Skips to the start of the next logical line (unless the failed statement already got there), then past
  // the failed statement's indented block if it has one, parsing that block for its own errors when it can.
  // The lexer ends a logical line at a line that can only start a statement even inside unclosed brackets,
  // so an unclosed bracket costs one statement, not the rest of the file.
  void synchronize(size_t stmt_start, bool skip_block) {
    if (pos_ == stmt_start && at(TokKind::Indent)) {  // an unexpected indent that nested too deeply
      skip_block_unparsed();
      return;
    }
    if (pos_ == stmt_start || !at_line_start()) {
      // Lexical errors further along a line that already failed would only repeat the news.
      while (!at(TokKind::Newline) && !at(TokKind::EndOfFile)) advance();
      accept(TokKind::Newline);
    }
    if (!at(TokKind::Indent)) return;
    // An indented block after a simple statement is an "unexpected indent" for the statement loop to report.
    bool header = skip_block || (pos_ >= 2 && toks_[pos_ - 2].kind == TokKind::Colon);
    switch (toks_[stmt_start].kind) {
      case TokKind::KwIf: case TokKind::KwElif: case TokKind::KwElse: case TokKind::KwWhile: case TokKind::KwFor:
      case TokKind::KwTry: case TokKind::KwExcept: case TokKind::KwFinally: case TokKind::KwWith:
      case TokKind::KwDef: case TokKind::KwClass: case TokKind::At: case TokKind::KwAsync:
        header = true;
        break;
      default: break;
    }
    if (!header) return;
    skip_or_discard_block(skip_block);
    // The failed statement's own clauses go with it rather than each fail as a stray `else`.
    switch (toks_[stmt_start].kind) {
      case TokKind::KwIf: case TokKind::KwElif: case TokKind::KwElse: case TokKind::KwWhile: case TokKind::KwFor:
      case TokKind::KwTry: case TokKind::KwExcept: case TokKind::KwFinally:
        while (at(TokKind::KwElif) || at(TokKind::KwElse) || at(TokKind::KwExcept) || at(TokKind::KwFinally)) {
          while (!at(TokKind::Newline) && !at(TokKind::EndOfFile)) advance();
          accept(TokKind::Newline);
          if (at(TokKind::Indent)) skip_or_discard_block(skip_block);
        }
        break;
      default: break;
    }
  }

  // Steps over an indented block, parsing it for its own errors unless told not to (or too deep to).
  void skip_or_discard_block(bool skip_block) {
    if (skip_block || depth_ + 1 >= kMaxNesting) {
      skip_block_unparsed();
    } else {
      std::vector<Stmt*> discarded;
      indented_block(discarded);
    }
  }

  void skip_block_unparsed() {
    int level = 0;
    do {
      report_lex_error(pos_);
      if (at(TokKind::Indent)) ++level;
      if (at(TokKind::Dedent)) --level;
      advance();
    } while (level > 0 && !at(TokKind::EndOfFile));
  }

  // INDENT statement+ DEDENT
  void indented_block(std::vector<Stmt*>& body) {
    Nest nest(*this);
    expect(TokKind::Indent);
    while (!at(TokKind::Dedent) && !at(TokKind::EndOfFile) && !too_many_errors()) {
      statement_with_recovery(body);
    }
    accept(TokKind::Dedent);
  }

  // ':' then an indented block or simple statements on the same line. `what` names the header for the
  // "expected an indented block" message.
  std::vector<Stmt*> suite(const char* what, const Token& header) {
    expect(TokKind::Colon);
    std::vector<Stmt*> body;
    if (accept(TokKind::Newline)) {
      if (!at(TokKind::Indent)) {
        // Keep the statement with an empty body: the next line is a statement of its own, not debris.
        report(cur().loc, std::string("expected an indented block after '") + what + "' statement on line " +
                              std::to_string(header.loc.line));
        return body;
      }
      indented_block(body);
    } else {
      simple_line(body);
    }
    return body;
  }

  void statement(std::vector<Stmt*>& out) {
    switch (cur().kind) {
      case TokKind::KwIf: out.push_back(if_stmt()); return;
      case TokKind::KwWhile: out.push_back(while_stmt()); return;
      case TokKind::KwFor: out.push_back(for_stmt()); return;
      case TokKind::KwTry: out.push_back(try_stmt()); return;
      case TokKind::KwWith: out.push_back(with_stmt()); return;
      case TokKind::KwDef: out.push_back(def_stmt({})); return;
      case TokKind::KwClass: out.push_back(class_stmt({})); return;
      case TokKind::At: out.push_back(decorated()); return;
      case TokKind::KwAsync: fail_unsupported("'async'", /*skip_block=*/true);
      case TokKind::Indent: {
        report(cur().loc, "unexpected indent");
        std::vector<Stmt*> discarded;
        indented_block(discarded);
        return;
      }
      default: simple_line(out); return;
    }
  }

  // small_stmt (';' small_stmt)* [';'] NEWLINE
  void simple_line(std::vector<Stmt*>& out) {
    for (;;) {
      out.push_back(small_stmt());
      if (!accept(TokKind::Semicolon)) break;
      if (at(TokKind::Newline)) break;
    }
    if (!accept(TokKind::Newline)) {
      if (at(TokKind::EndOfFile)) return;
      fail_unexpected();
    }
  }

  Stmt* small_stmt() {
    const Token& t = cur();
    switch (t.kind) {
      case TokKind::KwPass: advance(); return arena_.stmt(StmtKind::Pass, t.loc);
      case TokKind::KwBreak: advance(); return arena_.stmt(StmtKind::Break, t.loc);
      case TokKind::KwContinue: advance(); return arena_.stmt(StmtKind::Continue, t.loc);
      case TokKind::KwReturn: {
        advance();
        Stmt* s = arena_.stmt(StmtKind::Return, t.loc);
        if (!at_statement_end()) s->value = testlist_star_expr();
        return s;
      }
      case TokKind::KwRaise: {
        advance();
        Stmt* s = arena_.stmt(StmtKind::Raise, t.loc);
        if (!at_statement_end()) {
          s->value = test();
          if (accept(TokKind::KwFrom)) s->test = test();
        }
        return s;
      }
      case TokKind::KwGlobal:
      case TokKind::KwNonlocal: {
        advance();
        Stmt* s = arena_.stmt(t.kind == TokKind::KwGlobal ? StmtKind::Global : StmtKind::Nonlocal, t.loc);
        do {
          s->names.push_back(expect_name("a name"));
        } while (accept(TokKind::Comma));
        return s;
      }
      case TokKind::KwDel: {
        advance();
        Stmt* s = arena_.stmt(StmtKind::Delete, t.loc);
        do {
          if (at_statement_end()) break;  // trailing comma
          Expr* target = expr_or_star();
          check_target(target, "delete");
          s->targets.push_back(target);
        } while (accept(TokKind::Comma));
        if (s->targets.empty()) fail("expected a target after 'del'");
        return s;
      }
      case TokKind::KwAssert: {
        advance();
        Stmt* s = arena_.stmt(StmtKind::Assert, t.loc);
        s->test = test();
        if (accept(TokKind::Comma)) s->value = test();
        return s;
      }
      case TokKind::KwImport: return import_stmt();
      case TokKind::KwFrom: return from_import_stmt();
      default: return expr_stmt();
    }
  }

  bool at_statement_end() const {
    return at(TokKind::Newline) || at(TokKind::Semicolon) || at(TokKind::EndOfFile);
  }

  // `match` is a soft keyword: `match x:` opens a match statement, while `match = 1` or `match(x)` use a name.
  bool looks_like_match_stmt() const {
    if (!at(TokKind::Name) || cur().text != "match") return false;
    switch (peek(1).kind) {
      case TokKind::Name: case TokKind::Int: case TokKind::Float: case TokKind::Str: case TokKind::LBrace:
      case TokKind::KwTrue: case TokKind::KwFalse: case TokKind::KwNone: case TokKind::KwNot:
        return true;
      default:
        return false;
    }
  }

  Stmt* expr_stmt() {
    if (looks_like_match_stmt()) fail_unsupported("'match' statement", /*skip_block=*/true);
    const Token& first_tok = cur();
    Expr* first = testlist_star_expr();
    if (first_tok.kind == TokKind::Name && first_tok.text == "match" && at(TokKind::Colon) &&
        peek(1).kind == TokKind::Newline) {
      pos_ = static_cast<size_t>(&first_tok - toks_.data());
      fail_unsupported("'match' statement", /*skip_block=*/true);
    }
    if (at(TokKind::Assign)) {
      Stmt* s = arena_.stmt(StmtKind::Assign, first->loc);
      s->targets.push_back(first);
      while (accept(TokKind::Assign)) {
        s->targets.push_back(testlist_star_expr());
      }
      s->value = s->targets.back();
      s->targets.pop_back();
      for (Expr* target : s->targets) check_target(target, "assign to");
      return s;
    }
    for (const AugOp& aug : kAugOps) {
      if (!at(aug.tok)) continue;
      advance();
      Stmt* s = arena_.stmt(StmtKind::AugAssign, first->loc);
      s->op = aug.op;
      if (first->kind != ExprKind::Name && first->kind != ExprKind::Attribute &&
          first->kind != ExprKind::Subscript) {
        report(first->loc,
               "'" + std::string(describe_expr(first)) + "' is an illegal expression for augmented assignment");
      }
      s->targets.push_back(first);
      s->value = testlist_star_expr();
      return s;
    }
    if (at(TokKind::Colon)) {
      advance();
      Stmt* s = arena_.stmt(StmtKind::AnnAssign, first->loc);
      if (first->kind == ExprKind::Tuple) {
        report(first->loc, "only a single target (not a tuple) can be annotated");
      } else if (first->kind == ExprKind::List) {
        report(first->loc, "only a single target (not a list) can be annotated");
      } else if (first->kind != ExprKind::Name && first->kind != ExprKind::Attribute &&
                 first->kind != ExprKind::Subscript) {
        report(first->loc, "illegal target for annotation");
      }
      s->targets.push_back(first);
      s->annotation = test();
      if (accept(TokKind::Assign)) s->value = testlist_star_expr();
      return s;
    }
    Stmt* s = arena_.stmt(StmtKind::Expr, first->loc);
    s->value = first;
    return s;
  }

  // What an expression is, for "cannot assign to ..." messages.
  static const char* describe_expr(const Expr* e) {
    switch (e->kind) {
      case ExprKind::Int: case ExprKind::Float: case ExprKind::Str: case ExprKind::Bool: case ExprKind::None:
      case ExprKind::Ellipsis:
        return "literal";
      case ExprKind::Call: return "function call";
      case ExprKind::BinOp: case ExprKind::UnaryOp: return "expression";
      case ExprKind::BoolOp: return "boolean operation";
      case ExprKind::Compare: return "comparison";
      case ExprKind::IfExp: return "conditional expression";
      case ExprKind::Lambda: return "lambda";
      case ExprKind::Dict: return "dict literal";
      case ExprKind::Set: return "set display";
      case ExprKind::ListComp: return "list comprehension";
      case ExprKind::SetComp: return "set comprehension";
      case ExprKind::DictComp: return "dict comprehension";
      case ExprKind::GeneratorExp: return "generator expression";
      case ExprKind::Slice: return "slice";
      case ExprKind::FString: case ExprKind::FormattedValue: return "f-string expression";
      default: return "expression";
    }
  }

  // Reports (without failing) a target that cannot be assigned/deleted: `verb` is "assign to" or "delete".
  void check_target(const Expr* e, const char* verb) {
    switch (e->kind) {
      case ExprKind::Name: case ExprKind::Attribute: case ExprKind::Subscript: return;
      case ExprKind::Tuple: case ExprKind::List:
        for (const Expr* elt : e->elts) check_target(elt, verb);
        return;
      case ExprKind::Starred:
        if (std::string(verb) == "delete") break;
        check_target(e->lhs, verb);
        return;
      default: break;
    }
    report(e->loc, std::string("cannot ") + verb + " " + describe_expr(e));
  }

  std::string dotted_name() {
    std::string name = expect_name("a module name");
    while (accept(TokKind::Dot)) name += "." + expect_name("a name after '.'");
    return name;
  }

  Stmt* import_stmt() {
    Stmt* s = arena_.stmt(StmtKind::Import, advance().loc);
    do {
      ast::Alias alias;
      alias.loc = cur().loc;
      alias.name = dotted_name();
      if (accept(TokKind::KwAs)) alias.asname = expect_name("a name after 'as'");
      s->aliases.push_back(std::move(alias));
    } while (accept(TokKind::Comma));
    return s;
  }

  Stmt* from_import_stmt() {
    Stmt* s = arena_.stmt(StmtKind::ImportFrom, advance().loc);
    for (;;) {
      if (accept(TokKind::Dot)) {
        s->module += ".";
      } else if (accept(TokKind::Ellipsis)) {
        s->module += "...";
      } else {
        break;
      }
    }
    if (!at(TokKind::KwImport)) s->module += dotted_name();
    expect(TokKind::KwImport, "in 'from ... import'");
    if (at(TokKind::Star)) {
      s->aliases.push_back({"*", "", advance().loc});
      return s;
    }
    const Token* open = at(TokKind::LParen) ? &advance() : nullptr;
    do {
      if (open && at(TokKind::RParen)) break;  // trailing comma inside parentheses
      ast::Alias alias;
      alias.loc = cur().loc;
      alias.name = expect_name("a name to import");
      if (accept(TokKind::KwAs)) alias.asname = expect_name("a name after 'as'");
      s->aliases.push_back(std::move(alias));
    } while (accept(TokKind::Comma));
    if (open) expect_close(*open, TokKind::RParen);
    if (s->aliases.empty()) fail("expected a name to import");
    return s;
  }

  Stmt* if_stmt() {
    const Token& header = advance();
    Stmt* root = arena_.stmt(StmtKind::If, header.loc);
    root->test = named_test();
    root->body = suite("if", header);
    // An elif chain nests in the AST (orelse = [If]), so each clause counts as a level of nesting (restored
    // when the statement is done). The chain stops a few levels short of the limit, leaving room for the
    // clause's own condition and body, and the rest of it is stepped over with one error.
    struct Restore {
      int& depth;
      int saved;
      ~Restore() { depth = saved; }
    } restore{depth_, depth_};
    Stmt* tail = root;
    while (at(TokKind::KwElif)) {
      if (depth_ + 4 >= kMaxNesting) {
        report(cur().loc, "too deeply nested (more than " + std::to_string(kMaxNesting) +
                              " levels; each 'elif' counts as one)");
        while (at(TokKind::KwElif) || at(TokKind::KwElse)) {
          while (!at(TokKind::Newline) && !at(TokKind::EndOfFile)) advance();
          accept(TokKind::Newline);
          if (at(TokKind::Indent)) skip_block_unparsed();
        }
        return root;
      }
      ++depth_;
      const Token& elif = advance();
      Stmt* s = arena_.stmt(StmtKind::If, elif.loc);
      s->test = named_test();
      s->body = suite("elif", elif);
      tail->orelse.push_back(s);
      tail = s;
    }
    if (at(TokKind::KwElse)) {
      const Token& e = advance();
      tail->orelse = suite("else", e);
    }
    return root;
  }

  Stmt* while_stmt() {
    const Token& header = advance();
    Stmt* s = arena_.stmt(StmtKind::While, header.loc);
    s->test = named_test();
    s->body = suite("while", header);
    if (at(TokKind::KwElse)) {
      const Token& e = advance();
      s->orelse = suite("else", e);
    }
    return s;
  }

  Stmt* for_stmt() {
    const Token& header = advance();
    Stmt* s = arena_.stmt(StmtKind::For, header.loc);
    Expr* target = target_list();
    check_target(target, "assign to");
    s->targets.push_back(target);
    expect(TokKind::KwIn, "after 'for' target");
    s->value = testlist_star_expr();
    s->body = suite("for", header);
    if (at(TokKind::KwElse)) {
      const Token& e = advance();
      s->orelse = suite("else", e);
    }
    return s;
  }

  Stmt* try_stmt() {
    const Token& header = advance();
    Stmt* s = arena_.stmt(StmtKind::Try, header.loc);
    s->body = suite("try", header);
    while (at(TokKind::KwExcept)) {
      const Token& except = advance();
      Stmt* h = arena_.stmt(StmtKind::ExceptHandler, except.loc);
      if (at(TokKind::Star)) {
        report(cur().loc, "'except*' is not supported");
        advance();
      }
      if (!at(TokKind::Colon)) {
        h->value = test();
        if (at(TokKind::Comma)) fail("multiple exception types must be parenthesized");
        if (accept(TokKind::KwAs)) h->name = expect_name("a name after 'as'");
      }
      h->body = suite("except", except);
      s->handlers.push_back(h);
    }
    if (at(TokKind::KwElse)) {
      const Token& e = advance();
      if (s->handlers.empty()) report(e.loc, "'else' after 'try' needs an 'except' clause");
      s->orelse = suite("else", e);
    }
    if (at(TokKind::KwFinally)) {
      const Token& f = advance();
      s->finalbody = suite("finally", f);
    }
    if (s->handlers.empty() && s->finalbody.empty()) fail("expected 'except' or 'finally' block");
    return s;
  }

  // with item (',' item)* ':' suite, where item is `expr ['as' target]`; the items may be parenthesized.
  Stmt* with_stmt() {
    const Token& header = advance();
    Stmt* s = arena_.stmt(StmtKind::With, header.loc);
    const Token* open = nullptr;
    if (at(TokKind::LParen) && parenthesized_with_items()) open = &advance();
    do {
      if (open && at(TokKind::RParen)) break;
      s->items.push_back(test());
      Expr* target = nullptr;
      if (accept(TokKind::KwAs)) {
        target = expr_bp(kBpBitOr);
        check_target(target, "assign to");
      }
      s->targets.push_back(target);
    } while (accept(TokKind::Comma));
    if (open) expect_close(*open, TokKind::RParen);
    s->body = suite("with", header);
    return s;
  }

  // At '(' after 'with': true when the parentheses hold `as` items (`with (a as b, c):`), false when they
  // are part of the first context expression (`with (a):`, `with (yield_lock()) as l:`).
  bool parenthesized_with_items() const {
    int depth = 0;
    bool has_as = false;
    for (size_t i = pos_; i < toks_.size(); ++i) {
      TokKind k = toks_[i].kind;
      if (k == TokKind::LParen || k == TokKind::LBracket || k == TokKind::LBrace) ++depth;
      if (k == TokKind::RParen || k == TokKind::RBracket || k == TokKind::RBrace) {
        if (--depth == 0) return has_as && i + 1 < toks_.size() && toks_[i + 1].kind == TokKind::Colon;
      }
      if (k == TokKind::KwAs && depth == 1) has_as = true;
      if (k == TokKind::Newline || k == TokKind::EndOfFile) return false;
    }
    return false;
  }

  Stmt* decorated() {
    std::vector<Expr*> decorators;
    while (at(TokKind::At)) {
      advance();
      decorators.push_back(named_test());
      expect(TokKind::Newline, "after decorator");
    }
    if (at(TokKind::KwDef)) return def_stmt(std::move(decorators));
    if (at(TokKind::KwClass)) return class_stmt(std::move(decorators));
    if (at(TokKind::KwAsync)) fail_unsupported("'async'", /*skip_block=*/true);
    fail("expected 'def' or 'class' after decorator");
  }

  Stmt* def_stmt(std::vector<Expr*> decorators) {
    const Token& header = advance();
    Stmt* s = arena_.stmt(StmtKind::FunctionDef, header.loc);
    s->decorators = std::move(decorators);
    s->name = expect_name("a function name after 'def'");
    const Token& open = expect(TokKind::LParen, "after function name");
    s->params = parameters(TokKind::RParen, /*annotations=*/true);
    expect_close(open, TokKind::RParen);
    if (accept(TokKind::Arrow)) s->annotation = test();
    s->body = suite("def", header);
    return s;
  }

  Stmt* class_stmt(std::vector<Expr*> decorators) {
    const Token& header = advance();
    Stmt* s = arena_.stmt(StmtKind::ClassDef, header.loc);
    s->decorators = std::move(decorators);
    s->name = expect_name("a class name after 'class'");
    if (at(TokKind::LParen)) s->bases = call_args(advance());
    s->body = suite("class", header);
    return s;
  }

  // Parameters of a def (with annotations) or a lambda, up to `end` (not consumed).
  std::vector<ast::Param> parameters(TokKind end, bool annotations) {
    using Kind = ast::Param::Kind;
    std::vector<ast::Param> params;
    bool seen_star = false, seen_default = false, seen_kwargs = false;
    auto one = [&](Kind kind) {
      ast::Param p;
      p.loc = cur().loc;
      p.kind = kind;
      p.name = expect_name("a parameter name");
      for (const ast::Param& q : params) {
        if (q.name == p.name) report(p.loc, "duplicate argument '" + p.name + "' in function definition");
      }
      if (annotations && accept(TokKind::Colon)) p.annotation = test();
      return p;
    };
    while (!at(end)) {
      if (seen_kwargs) fail("arguments cannot follow var-keyword argument");
      if (at(TokKind::Slash)) {
        // Positional-only marker: the AST does not distinguish these parameters (a call that passes one by
        // keyword is rejected by Python, and such calls do not occur in working module files).
        if (params.empty() || seen_star) fail("'/' must follow at least one positional parameter");
        advance();
      } else if (accept(TokKind::DoubleStar)) {
        params.push_back(one(Kind::KwArgs));
        if (at(TokKind::Assign)) fail("var-keyword argument cannot have a default value");
        seen_kwargs = true;
      } else if (at(TokKind::Star)) {
        const Token& star = advance();
        if (seen_star) fail_at(pos_ - 1, "* argument may appear only once");
        seen_star = true;
        if (at(TokKind::Comma) || at(end)) {
          if (at(end) || peek(1).kind == TokKind::DoubleStar) {
            report(star.loc, "named arguments must follow bare *");
          }
        } else {
          params.push_back(one(Kind::VarArgs));
          if (at(TokKind::Assign)) fail("var-positional argument cannot have a default value");
        }
      } else {
        ast::Param p = one(seen_star ? Kind::KwOnly : Kind::Normal);
        if (accept(TokKind::Assign)) {
          p.default_value = test();
          if (!seen_star) seen_default = true;
        } else if (seen_default && !seen_star) {
          report(p.loc, "non-default argument follows default argument");
        }
        params.push_back(std::move(p));
      }
      if (!accept(TokKind::Comma)) break;
    }
    return params;
  }

  // ---- expressions ----

  // test: lambda | or_test ['if' or_test 'else' test]
  Expr* test() {
    if (at(TokKind::KwLambda)) return lambda();
    Expr* body = expr_bp(kBpOr);
    if (!at(TokKind::KwIf)) return body;
    Nest nest(*this);
    advance();
    Expr* e = arena_.expr(ExprKind::IfExp, body->loc);
    e->lhs = body;
    e->test = expr_bp(kBpOr);
    expect(TokKind::KwElse, "in conditional expression");
    e->rhs = test();
    return e;
  }

  // A test where Python would also allow `name := value`: the walrus is rejected by expr_bp.
  Expr* named_test() { return test(); }

  Expr* lambda() {
    Nest nest(*this);
    const Token& t = advance();
    Expr* e = arena_.expr(ExprKind::Lambda, t.loc);
    e->params = parameters(TokKind::Colon, /*annotations=*/false);
    expect(TokKind::Colon, "after lambda parameters");
    e->lhs = test();
    return e;
  }

  Expr* star_or_test() {
    if (!at(TokKind::Star)) return test();
    const Token& star = advance();
    Expr* e = arena_.expr(ExprKind::Starred, star.loc);
    e->lhs = expr_bp(kBpBitOr);
    return e;
  }

  // An expression at the level of `|` or a starred one: the element of a target list.
  Expr* expr_or_star() {
    if (!at(TokKind::Star)) return expr_bp(kBpBitOr);
    const Token& star = advance();
    Expr* e = arena_.expr(ExprKind::Starred, star.loc);
    e->lhs = expr_bp(kBpBitOr);
    return e;
  }

  // Targets of `for` and comprehensions: `a`, `a, b`, `(a, b), *c`. Stops before `in`.
  Expr* target_list() {
    Expr* first = expr_or_star();
    if (!at(TokKind::Comma)) return first;
    Expr* tuple = arena_.expr(ExprKind::Tuple, first->loc);
    tuple->elts.push_back(first);
    while (accept(TokKind::Comma)) {
      if (at(TokKind::KwIn) || at(TokKind::Assign)) break;
      tuple->elts.push_back(expr_or_star());
    }
    return tuple;
  }

  // Comma-separated tests with stars allowed; a comma makes a Tuple (`a, b`, `x,`).
  Expr* testlist_star_expr() {
    Expr* first = star_or_test();
    if (!at(TokKind::Comma)) return first;
    Expr* tuple = arena_.expr(ExprKind::Tuple, first->loc);
    tuple->elts.push_back(first);
    while (accept(TokKind::Comma)) {
      if (!starts_expression(cur().kind)) break;
      tuple->elts.push_back(star_or_test());
    }
    return tuple;
  }

  static bool starts_expression(TokKind k) {
    switch (k) {
      case TokKind::Name: case TokKind::Int: case TokKind::Float: case TokKind::Str: case TokKind::FStringStart:
      case TokKind::LParen:
      case TokKind::LBracket: case TokKind::LBrace: case TokKind::Minus: case TokKind::Plus: case TokKind::Tilde:
      case TokKind::Star: case TokKind::Ellipsis: case TokKind::KwNot: case TokKind::KwLambda:
      case TokKind::KwTrue: case TokKind::KwFalse: case TokKind::KwNone: case TokKind::KwAwait:
      case TokKind::KwYield: case TokKind::Error:
        return true;
      default:
        return false;
    }
  }

  // The Pratt loop: a prefix, then infix operators binding at least as tightly as min_bp.
  Expr* expr_bp(int min_bp) {
    Nest nest(*this);
    Expr* lhs = prefix(min_bp);
    for (;;) {
      TokKind k = cur().kind;
      if (k == TokKind::Walrus) {
        // Reported, then parsed on (keeping the value) so that the rest of the statement is checked too.
        report(cur().loc, "the walrus operator ':=' is not supported");
        advance();
        lhs = test();
        continue;
      }
      if (k == TokKind::KwNot && peek(1).kind != TokKind::KwIn) break;
      const InfixRule* rule = infix_rule(k);
      if (!rule || rule->bp < min_bp) break;
      switch (rule->form) {
        case Form::Bool: {
          Expr* e = arena_.expr(ExprKind::BoolOp, lhs->loc);
          e->op = rule->op;
          e->elts.push_back(lhs);
          while (accept(rule->tok)) e->elts.push_back(expr_bp(rule->bp + 1));
          lhs = e;
          break;
        }
        case Form::Compare: {
          Expr* e = arena_.expr(ExprKind::Compare, lhs->loc);
          e->lhs = lhs;
          while (const InfixRule* r = comparison_at()) {
            Op op = r->op;
            if (accept(TokKind::KwNot)) {
              advance();  // `in`
              op = Op::NotIn;
            } else if (accept(TokKind::KwIs)) {
              if (accept(TokKind::KwNot)) op = Op::IsNot;
            } else {
              advance();
            }
            e->cmp_ops.push_back(op);
            e->elts.push_back(expr_bp(kBpBitOr));
          }
          lhs = e;
          break;
        }
        case Form::Binary: {
          advance();
          Expr* e = arena_.expr(ExprKind::BinOp, lhs->loc);
          e->op = rule->op;
          e->lhs = lhs;
          // `**` is right-associative and its right operand may carry a unary sign: 2 ** -1.
          e->rhs = expr_bp(rule->op == Op::Pow ? kBpUnary : rule->bp + 1);
          lhs = e;
          break;
        }
      }
    }
    return lhs;
  }

  const InfixRule* comparison_at() const {
    TokKind k = cur().kind;
    if (k == TokKind::KwNot && peek(1).kind != TokKind::KwIn) return nullptr;
    const InfixRule* r = infix_rule(k);
    return r && r->form == Form::Compare ? r : nullptr;
  }

  Expr* prefix(int min_bp) {
    const Token& t = cur();
    switch (t.kind) {
      case TokKind::KwNot: {
        if (min_bp > kBpNot) fail("invalid syntax: 'not' must be parenthesized here");
        advance();
        Expr* e = arena_.expr(ExprKind::UnaryOp, t.loc);
        e->op = Op::Not;
        e->lhs = expr_bp(kBpNot);
        return e;
      }
      case TokKind::Minus:
      case TokKind::Plus:
      case TokKind::Tilde: {
        advance();
        Expr* e = arena_.expr(ExprKind::UnaryOp, t.loc);
        e->op = t.kind == TokKind::Minus ? Op::Neg : t.kind == TokKind::Plus ? Op::Pos : Op::Invert;
        e->lhs = expr_bp(kBpUnary);
        return e;
      }
      case TokKind::KwAwait:
        report(t.loc, "'await' is not supported");  // reported, then parsed on as its operand
        advance();
        return primary();
      case TokKind::KwLambda:
        if (min_bp > kBpLowest) fail("invalid syntax: 'lambda' must be parenthesized here");
        return lambda();
      default: return primary();
    }
  }

  // atom trailer*
  Expr* primary() {
    Expr* e = atom();
    for (;;) {
      if (at(TokKind::Dot)) {
        advance();
        Expr* a = arena_.expr(ExprKind::Attribute, e->loc);
        a->lhs = e;
        a->name = expect_name("an attribute name after '.'");
        e = a;
      } else if (at(TokKind::LParen)) {
        Expr* c = arena_.expr(ExprKind::Call, e->loc);
        c->lhs = e;
        c->args = call_args(advance());
        e = c;
      } else if (at(TokKind::LBracket)) {
        const Token& open = advance();
        Expr* s = arena_.expr(ExprKind::Subscript, e->loc);
        s->lhs = e;
        s->rhs = subscript_list(open);
        e = s;
      } else {
        return e;
      }
    }
  }

  Expr* atom() {
    const Token& t = cur();
    switch (t.kind) {
      case TokKind::Name: {
        advance();
        Expr* e = arena_.expr(ExprKind::Name, t.loc);
        e->name = std::string(t.text);
        return e;
      }
      case TokKind::Int: {
        advance();
        Expr* e = arena_.expr(ExprKind::Int, t.loc);
        e->int_value = t.int_value;
        return e;
      }
      case TokKind::Float: {
        advance();
        Expr* e = arena_.expr(ExprKind::Float, t.loc);
        e->float_value = t.float_value;
        return e;
      }
      case TokKind::Str:
      case TokKind::FStringStart:
        return strings();
      case TokKind::KwTrue:
      case TokKind::KwFalse: {
        advance();
        Expr* e = arena_.expr(ExprKind::Bool, t.loc);
        e->bool_value = t.kind == TokKind::KwTrue;
        return e;
      }
      case TokKind::KwNone: advance(); return arena_.expr(ExprKind::None, t.loc);
      case TokKind::Ellipsis: advance(); return arena_.expr(ExprKind::Ellipsis, t.loc);
      case TokKind::LParen: return paren();
      case TokKind::LBracket: return list_display();
      case TokKind::LBrace: return brace_display();
      case TokKind::KwYield: {
        report(t.loc, "'yield' is not supported");  // reported, then parsed on as its value
        advance();
        accept(TokKind::KwFrom);
        if (starts_expression(cur().kind) && !at(TokKind::KwYield)) return testlist_star_expr();
        return arena_.expr(ExprKind::None, t.loc);
      }
      default: fail_unexpected();
    }
  }

  // Adjacent literals are one: "a" 'b' == "ab"; with an f-string among them the whole is an FString.
  // Mixing bytes and str is an error, as in Python.
  Expr* strings() {
    const Token& first = cur();
    bool bytes = first.kind == TokKind::Str && first.bytes;
    bool any_fstring = false;
    std::vector<Expr*> pieces;
    while (at(TokKind::Str) || at(TokKind::FStringStart)) {
      if ((at(TokKind::Str) && cur().bytes) != bytes) fail("cannot mix bytes and nonbytes literals");
      if (at(TokKind::Str)) {
        add_text(pieces, cur().value, cur().loc);
        advance();
        continue;
      }
      any_fstring = true;
      advance();
      fstring_pieces(pieces, TokKind::FStringEnd);
      advance();
    }
    if (any_fstring) {
      Expr* e = arena_.expr(ExprKind::FString, first.loc);
      e->elts = std::move(pieces);
      return e;
    }
    if (pieces.empty()) {  // cannot happen: strings() starts at a literal; keep the invariant local
      return arena_.expr(ExprKind::Str, first.loc);
    }
    pieces[0]->bytes = bytes;
    return pieces[0];
  }

  // Appends literal text to an f-string's pieces, joining it to a preceding literal piece.
  void add_text(std::vector<Expr*>& pieces, const std::string& text, SourceLoc loc) {
    if (!pieces.empty() && pieces.back()->kind == ExprKind::Str) {
      pieces.back()->str_value += text;
      return;
    }
    Expr* e = arena_.expr(ExprKind::Str, loc);
    e->str_value = text;
    pieces.push_back(e);
  }

  // The pieces of an f-string (or of a format spec) up to `end`, which is left unconsumed.
  void fstring_pieces(std::vector<Expr*>& pieces, TokKind end) {
    while (!at(end)) {
      if (at(TokKind::FStringMiddle)) {
        add_text(pieces, cur().value, cur().loc);
        advance();
      } else if (at(TokKind::LBrace)) {
        replacement_field(pieces);
      } else {
        fail_unexpected();
      }
    }
  }

  // '{' testlist ['='] ['!' conversion] [':' spec] '}'
  void replacement_field(std::vector<Expr*>& pieces) {
    Nest nest(*this);
    const Token& open = advance();
    if (at(TokKind::RBrace)) fail("f-string: valid expression required before '}'");
    Expr* fv = arena_.expr(ExprKind::FormattedValue, open.loc);
    fv->lhs = testlist_star_expr();
    bool self_documenting = false;
    if (at(TokKind::Assign)) {
      // f"{x = }" prints the expression's text as written, then its repr.
      advance();
      const char* from = open.text.data() + 1;
      add_text(pieces, std::string(from, static_cast<size_t>(cur().text.data() - from)), open.loc);
      self_documenting = true;
    }
    if (accept(TokKind::Bang)) {
      fv->name = expect_name("a conversion character after '!'");
      if (fv->name != "r" && fv->name != "s" && fv->name != "a") {
        fail_at(pos_ - 1, "f-string: invalid conversion character '" + fv->name + "': expected 's', 'r', or 'a'");
      }
    }
    if (at(TokKind::Colon)) {
      Expr* spec = arena_.expr(ExprKind::FString, advance().loc);
      fstring_pieces(spec->elts, TokKind::RBrace);
      fv->rhs = spec;
    }
    if (self_documenting && fv->name.empty() && !fv->rhs) fv->name = "r";
    expect_close(open, TokKind::RBrace);
    pieces.push_back(fv);
  }

  Expr* paren() {
    const Token& open = advance();
    if (accept(TokKind::RParen)) return arena_.expr(ExprKind::Tuple, open.loc);
    Expr* first = star_or_test();
    if (at(TokKind::KwFor) || at(TokKind::KwAsync)) {
      Expr* g = comprehension(ExprKind::GeneratorExp, open.loc, first);
      expect_close(open, TokKind::RParen);
      return g;
    }
    if (!at(TokKind::Comma)) {
      expect_close(open, TokKind::RParen);
      if (first->kind == ExprKind::Starred) report(first->loc, "cannot use starred expression here");
      return first;
    }
    Expr* tuple = arena_.expr(ExprKind::Tuple, open.loc);
    tuple->elts.push_back(first);
    while (accept(TokKind::Comma)) {
      if (at(TokKind::RParen)) break;
      tuple->elts.push_back(star_or_test());
    }
    expect_close(open, TokKind::RParen);
    return tuple;
  }

  Expr* list_display() {
    const Token& open = advance();
    Expr* list = arena_.expr(ExprKind::List, open.loc);
    if (accept(TokKind::RBracket)) return list;
    Expr* first = star_or_test();
    if (at(TokKind::KwFor) || at(TokKind::KwAsync)) {
      Expr* c = comprehension(ExprKind::ListComp, open.loc, first);
      expect_close(open, TokKind::RBracket);
      return c;
    }
    list->elts.push_back(first);
    while (accept(TokKind::Comma)) {
      if (at(TokKind::RBracket)) break;
      list->elts.push_back(star_or_test());
    }
    expect_close(open, TokKind::RBracket);
    return list;
  }

  // {} dict, {k: v, **d} dict, {k: v for ...}, {a, *b} set, {a for ...}
  Expr* brace_display() {
    const Token& open = advance();
    Expr* dict = arena_.expr(ExprKind::Dict, open.loc);
    if (accept(TokKind::RBrace)) return dict;
    if (at(TokKind::DoubleStar) || !at(TokKind::Star)) {
      Expr* key = nullptr;
      Expr* value = nullptr;
      if (accept(TokKind::DoubleStar)) {
        value = expr_bp(kBpBitOr);
      } else {
        key = test();
        if (at(TokKind::Colon)) {
          advance();
          value = test();
          if (at(TokKind::KwFor) || at(TokKind::KwAsync)) {
            Expr* c = comprehension(ExprKind::DictComp, open.loc, key);
            c->rhs = value;
            expect_close(open, TokKind::RBrace);
            return c;
          }
        }
      }
      if (value) {  // a dict
        dict->keys.push_back(key);
        dict->values.push_back(value);
        while (accept(TokKind::Comma)) {
          if (at(TokKind::RBrace)) break;
          if (accept(TokKind::DoubleStar)) {
            dict->keys.push_back(nullptr);
            dict->values.push_back(expr_bp(kBpBitOr));
          } else {
            dict->keys.push_back(test());
            expect(TokKind::Colon, "after dict key");
            dict->values.push_back(test());
          }
        }
        expect_close(open, TokKind::RBrace);
        return dict;
      }
      return set_rest(open, key);
    }
    return set_rest(open, star_or_test());
  }

  Expr* set_rest(const Token& open, Expr* first) {
    if (at(TokKind::KwFor) || at(TokKind::KwAsync)) {
      Expr* c = comprehension(ExprKind::SetComp, open.loc, first);
      expect_close(open, TokKind::RBrace);
      return c;
    }
    Expr* set = arena_.expr(ExprKind::Set, open.loc);
    set->elts.push_back(first);
    while (accept(TokKind::Comma)) {
      if (at(TokKind::RBrace)) break;
      set->elts.push_back(star_or_test());
    }
    expect_close(open, TokKind::RBrace);
    return set;
  }

  // (for target in or_test (if or_test)*)+ after the element.
  Expr* comprehension(ExprKind kind, SourceLoc loc, Expr* elt) {
    if (elt->kind == ExprKind::Starred) report(elt->loc, "iterable unpacking cannot be used in comprehension");
    Expr* e = arena_.expr(kind, loc);
    e->lhs = elt;
    while (at(TokKind::KwFor) || at(TokKind::KwAsync)) {
      if (at(TokKind::KwAsync)) fail_unsupported("'async'");
      advance();
      ast::Comprehension c;
      c.target = target_list();
      check_target(c.target, "assign to");
      expect(TokKind::KwIn, "after comprehension target");
      c.iter = expr_bp(kBpOr);
      while (accept(TokKind::KwIf)) c.ifs.push_back(expr_bp(kBpOr));
      e->comps.push_back(std::move(c));
    }
    return e;
  }

  // After '(' of a call (or of a class's bases): positional, keyword, *args and **kwargs arguments.
  std::vector<ast::Arg> call_args(const Token& open) {
    std::vector<ast::Arg> args;
    bool seen_keyword = false, seen_double_star = false;
    while (!at(TokKind::RParen)) {
      ast::Arg arg;
      arg.loc = cur().loc;
      if (accept(TokKind::Star)) {
        if (seen_double_star) report(arg.loc, "iterable argument unpacking follows keyword argument unpacking");
        arg.star = true;
        arg.value = test();
      } else if (accept(TokKind::DoubleStar)) {
        arg.double_star = true;
        arg.value = test();
        seen_double_star = true;
      } else if (at(TokKind::Name) && peek(1).kind == TokKind::Assign) {
        arg.keyword = std::string(advance().text);
        advance();
        arg.value = test();
        seen_keyword = true;
      } else {
        arg.value = test();
        if (at(TokKind::KwFor) || at(TokKind::KwAsync)) {
          arg.value = comprehension(ExprKind::GeneratorExp, arg.value->loc, arg.value);
          if (!args.empty() || !at(TokKind::RParen)) {
            report(arg.loc, "generator expression must be parenthesized");
          }
        } else if (at(TokKind::Assign)) {
          fail("expected a parameter name before '=' (an expression cannot be a keyword)");
        }
        if (seen_double_star) {
          report(arg.loc, "positional argument follows keyword argument unpacking");
        } else if (seen_keyword) {
          report(arg.loc, "positional argument follows keyword argument");
        }
      }
      args.push_back(std::move(arg));
      if (!accept(TokKind::Comma)) break;
    }
    expect_close(open, TokKind::RParen);
    return args;
  }

  // After '[': one index or slice, or several (a Tuple, also for a single one with a trailing comma).
  Expr* subscript_list(const Token& open) {
    Expr* first = subscript_item();
    if (!at(TokKind::Comma)) {
      expect_close(open, TokKind::RBracket);
      return first;
    }
    Expr* tuple = arena_.expr(ExprKind::Tuple, first->loc);
    tuple->elts.push_back(first);
    while (accept(TokKind::Comma)) {
      if (at(TokKind::RBracket)) break;
      tuple->elts.push_back(subscript_item());
    }
    expect_close(open, TokKind::RBracket);
    return tuple;
  }

  // test | [test] ':' [test] [':' [test]]
  Expr* subscript_item() {
    SourceLoc loc = cur().loc;
    Expr* lower = nullptr;
    if (!at(TokKind::Colon)) {
      lower = star_or_test();
      if (!at(TokKind::Colon)) return lower;
    }
    advance();  // ':'
    auto bound = [&]() -> Expr* {
      if (at(TokKind::Colon) || at(TokKind::Comma) || at(TokKind::RBracket)) return nullptr;
      return test();
    };
    Expr* slice = arena_.expr(ExprKind::Slice, loc);
    slice->lhs = lower;
    slice->rhs = bound();
    if (accept(TokKind::Colon)) slice->step = bound();
    return slice;
  }

  // ---- the height limit ----

  // Drops (with an error) each statement whose own expressions are taller than kMaxExprHeight. Statement
  // nesting is already bounded by kMaxNesting, so recursing over statements is safe.
  void limit_height(std::vector<Stmt*>& body) {
    std::vector<Stmt*> kept;
    for (Stmt* s : body) {
      if (statement_height(s) > kMaxExprHeight) {
        report(s->loc, "expression too complex (nested more than " + std::to_string(kMaxExprHeight) +
                           " levels deep)");
        continue;
      }
      limit_height(s->body);
      limit_height(s->orelse);
      limit_height(s->finalbody);
      limit_height(s->handlers);
      kept.push_back(s);
    }
    body = std::move(kept);
  }

  static int statement_height(const Stmt* s) {
    int h = 0;
    auto visit = [&](const Expr* e) { h = std::max(h, expr_height(e, kMaxExprHeight)); };
    for (const Expr* e : s->targets) visit(e);
    visit(s->value);
    visit(s->test);
    visit(s->annotation);
    for (const Expr* e : s->decorators) visit(e);
    for (const Expr* e : s->items) visit(e);
    for (const ast::Param& p : s->params) {
      visit(p.default_value);
      visit(p.annotation);
    }
    for (const ast::Arg& a : s->bases) visit(a.value);
    return h;
  }

  const SourceFile& file_;
  ast::AstArena& arena_;
  Diagnostics& diags_;
  std::vector<Token> toks_;
  size_t pos_ = 0;
  int depth_ = 0;
  size_t lex_errors_done_ = 0;  // Error tokens before this index have been reported
};

}  // namespace

ast::Module parse(const SourceFile& file, ast::AstArena& arena, Diagnostics& diags) {
  return Parser(file, arena, diags).parse_module();
}

}  // namespace tz
