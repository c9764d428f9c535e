// AST printing: op_name and the S-expression dump behind `--emit=ast` and the parser's golden tests.
// Expressions print on one line; statements one per line, their bodies indented by two spaces, with the
// closing parenthesis of a compound statement at the end of its last line. No locations: a dump changes only
// when the tree does.
#include <charconv>
#include <string>

#include "frontend/ast.h"

namespace tz::ast {

const char* op_name(Op op) {
  switch (op) {
    case Op::Add: return "+";
    case Op::Sub: return "-";
    case Op::Mul: return "*";
    case Op::Div: return "/";
    case Op::FloorDiv: return "//";
    case Op::Mod: return "%";
    case Op::Pow: return "**";
    case Op::MatMul: return "@";
    case Op::LShift: return "<<";
    case Op::RShift: return ">>";
    case Op::BitAnd: return "&";
    case Op::BitOr: return "|";
    case Op::BitXor: return "^";
    case Op::Neg: return "-";
    case Op::Pos: return "+";
    case Op::Invert: return "~";
    case Op::Not: return "not";
    case Op::And: return "and";
    case Op::Or: return "or";
    case Op::Eq: return "==";
    case Op::NotEq: return "!=";
    case Op::Lt: return "<";
    case Op::LtE: return "<=";
    case Op::Gt: return ">";
    case Op::GtE: return ">=";
    case Op::Is: return "is";
    case Op::IsNot: return "is not";
    case Op::In: return "in";
    case Op::NotIn: return "not in";
  }
  return "?";
}

namespace {

void quote(std::string& out, const std::string& s, bool bytes) {
  static const char* hex = "0123456789abcdef";
  if (bytes) out += 'b';
  out += '"';
  for (char ch : s) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        // UTF-8 text stays readable; control bytes (and every non-ASCII byte of a bytes literal) are escaped.
        if (c < 0x20 || c == 0x7F || (bytes && c >= 0x80)) {
          out += "\\x";
          out += hex[c >> 4];
          out += hex[c & 15];
        } else {
          out += ch;
        }
    }
  }
  out += '"';
}

void number(std::string& out, double v) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  std::string text(buf, ec == std::errc() ? end : buf);
  // Keep floats recognisable as floats: 1.0 prints as "1.0", not "1".
  if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
  out += text;
}

class Dumper {
 public:
  std::string out;

  void expr(const Expr* e) {
    if (!e) {
      out += "()";
      return;
    }
    switch (e->kind) {
      case ExprKind::Name: out += e->name; return;
      case ExprKind::Int: out += std::to_string(e->int_value); return;
      case ExprKind::Float: number(out, e->float_value); return;
      case ExprKind::Str: quote(out, e->str_value, e->bytes); return;
      case ExprKind::Bool: out += e->bool_value ? "True" : "False"; return;
      case ExprKind::None: out += "None"; return;
      case ExprKind::Ellipsis: out += "..."; return;
      case ExprKind::Tuple: return list("tuple", e->elts);
      case ExprKind::List: return list("list", e->elts);
      case ExprKind::Set: return list("set", e->elts);
      case ExprKind::Dict: {
        out += "(dict";
        for (size_t i = 0; i < e->values.size(); ++i) {
          const Expr* key = i < e->keys.size() ? e->keys[i] : nullptr;
          out += key ? " (: " : " (** ";
          if (key) {
            expr(key);
            out += ' ';
          }
          expr(e->values[i]);
          out += ')';
        }
        out += ')';
        return;
      }
      case ExprKind::BinOp:
        open(op_name(e->op));
        item(e->lhs);
        item(e->rhs);
        out += ')';
        return;
      case ExprKind::UnaryOp:
        open(op_name(e->op));
        item(e->lhs);
        out += ')';
        return;
      case ExprKind::BoolOp: return list(op_name(e->op), e->elts);
      case ExprKind::Compare:
        if (e->cmp_ops.size() == 1 && e->elts.size() == 1) {
          open(op_name(e->cmp_ops[0]));
          item(e->lhs);
          item(e->elts[0]);
        } else {
          open("compare");
          item(e->lhs);
          for (size_t i = 0; i < e->cmp_ops.size() && i < e->elts.size(); ++i) {
            out += ' ';
            out += op_name(e->cmp_ops[i]);
            item(e->elts[i]);
          }
        }
        out += ')';
        return;
      case ExprKind::IfExp:
        open("ifexp");
        item(e->test);
        item(e->lhs);
        item(e->rhs);
        out += ')';
        return;
      case ExprKind::Attribute:
        // Dotted chains of names print as written (`self.fc`); anything else as (. value attr).
        if (is_dotted(e->lhs)) {
          expr(e->lhs);
          out += '.';
          out += e->name;
        } else {
          open(".");
          item(e->lhs);
          out += ' ';
          out += e->name;
          out += ')';
        }
        return;
      case ExprKind::Subscript:
        open("sub");
        item(e->lhs);
        item(e->rhs);
        out += ')';
        return;
      case ExprKind::Slice:
        open("slice");
        item(e->lhs);
        item(e->rhs);
        item(e->step);
        out += ')';
        return;
      case ExprKind::Call:
        open("call");
        item(e->lhs);
        for (const Arg& a : e->args) {
          out += ' ';
          arg(a);
        }
        out += ')';
        return;
      case ExprKind::Starred:
        open("*");
        item(e->lhs);
        out += ')';
        return;
      case ExprKind::Lambda:
        open("lambda");
        out += ' ';
        params(e->params);
        item(e->lhs);
        out += ')';
        return;
      case ExprKind::ListComp: return comprehension("listcomp", e);
      case ExprKind::SetComp: return comprehension("setcomp", e);
      case ExprKind::GeneratorExp: return comprehension("genexp", e);
      case ExprKind::DictComp: return comprehension("dictcomp", e);
      case ExprKind::FString: return list("fstr", e->elts);
      case ExprKind::FormattedValue:
        open("fmt");
        item(e->lhs);
        if (!e->name.empty()) {
          out += " !";
          out += e->name;
        }
        if (e->rhs) item(e->rhs);
        out += ')';
        return;
    }
  }

  void stmt(const Stmt* s, int indent) {
    out.append(static_cast<size_t>(indent) * 2, ' ');
    switch (s->kind) {
      case StmtKind::Expr:
        open("expr");
        item(s->value);
        break;
      case StmtKind::Assign:
        open("=");
        for (const Expr* t : s->targets) item(t);
        item(s->value);
        break;
      case StmtKind::AugAssign:
        out += '(';
        out += op_name(s->op);
        out += '=';
        for (const Expr* t : s->targets) item(t);
        item(s->value);
        break;
      case StmtKind::AnnAssign:
        open("ann");
        for (const Expr* t : s->targets) item(t);
        item(s->annotation);
        if (s->value) item(s->value);
        break;
      case StmtKind::Return:
        open("return");
        if (s->value) item(s->value);
        break;
      case StmtKind::If:
        open("if");
        item(s->test);
        body(s->body, indent);
        orelse("else", s->orelse, indent);
        break;
      case StmtKind::For:
        open("for");
        for (const Expr* t : s->targets) item(t);
        item(s->value);
        body(s->body, indent);
        orelse("else", s->orelse, indent);
        break;
      case StmtKind::While:
        open("while");
        item(s->test);
        body(s->body, indent);
        orelse("else", s->orelse, indent);
        break;
      case StmtKind::Break: out += "(break"; break;
      case StmtKind::Continue: out += "(continue"; break;
      case StmtKind::Pass: out += "(pass"; break;
      case StmtKind::FunctionDef:
        open("def");
        out += ' ';
        out += s->name;
        out += ' ';
        params(s->params);
        if (s->annotation) {
          out += " (-> ";
          expr(s->annotation);
          out += ')';
        }
        decorators(s->decorators);
        body(s->body, indent);
        break;
      case StmtKind::ClassDef:
        open("class");
        out += ' ';
        out += s->name;
        out += " (bases";
        for (const Arg& a : s->bases) {
          out += ' ';
          arg(a);
        }
        out += ')';
        decorators(s->decorators);
        body(s->body, indent);
        break;
      case StmtKind::Import:
        open("import");
        aliases(s->aliases);
        break;
      case StmtKind::ImportFrom:
        open("from");
        out += ' ';
        out += s->module;
        aliases(s->aliases);
        break;
      case StmtKind::Assert:
        open("assert");
        item(s->test);
        if (s->value) item(s->value);
        break;
      case StmtKind::Raise:
        open("raise");
        if (s->value) item(s->value);
        if (s->test) {
          out += " (from ";
          expr(s->test);
          out += ')';
        }
        break;
      case StmtKind::Delete:
        open("del");
        for (const Expr* t : s->targets) item(t);
        break;
      case StmtKind::Global:
      case StmtKind::Nonlocal:
        open(s->kind == StmtKind::Global ? "global" : "nonlocal");
        for (const std::string& n : s->names) {
          out += ' ';
          out += n;
        }
        break;
      case StmtKind::With:
        open("with");
        for (size_t i = 0; i < s->items.size(); ++i) {
          const Expr* target = i < s->targets.size() ? s->targets[i] : nullptr;
          out += " (item ";
          expr(s->items[i]);
          if (target) item(target);
          out += ')';
        }
        body(s->body, indent);
        break;
      case StmtKind::Try:
        open("try");
        body(s->body, indent);
        for (const Stmt* h : s->handlers) {
          out += '\n';
          stmt(h, indent + 1);
        }
        orelse("else", s->orelse, indent);
        orelse("finally", s->finalbody, indent);
        break;
      case StmtKind::ExceptHandler:
        open("except");
        item(s->value);
        if (!s->name.empty()) {
          out += ' ';
          out += s->name;
        }
        body(s->body, indent);
        break;
    }
    out += ')';
  }

 private:
  void open(const char* head) {
    out += '(';
    out += head;
  }
  void item(const Expr* e) {
    out += ' ';
    expr(e);
  }
  void list(const char* head, const std::vector<Expr*>& elts) {
    open(head);
    for (const Expr* e : elts) item(e);
    out += ')';
  }
  static bool is_dotted(const Expr* e) {
    while (e && e->kind == ExprKind::Attribute) e = e->lhs;
    return e && e->kind == ExprKind::Name;
  }
  void arg(const Arg& a) {
    if (a.star) {
      out += "(* ";
      expr(a.value);
      out += ')';
    } else if (a.double_star) {
      out += "(** ";
      expr(a.value);
      out += ')';
    } else {
      if (!a.keyword.empty()) {
        out += a.keyword;
        out += '=';
      }
      expr(a.value);
    }
  }
  // Python's own spelling: (params self x y=1 *args * z **kw), with a bare `*` before keyword-only
  // parameters when there is no *args.
  void params(const std::vector<Param>& ps) {
    out += "(params";
    bool star_seen = false;
    for (const Param& p : ps) {
      out += ' ';
      switch (p.kind) {
        case Param::Kind::Normal: break;
        case Param::Kind::VarArgs: out += '*'; star_seen = true; break;
        case Param::Kind::KwOnly:
          if (!star_seen) out += "* ";
          star_seen = true;
          break;
        case Param::Kind::KwArgs: out += "**"; break;
      }
      out += p.name;
      if (p.annotation) {
        out += ':';
        expr(p.annotation);
      }
      if (p.default_value) {
        out += '=';
        expr(p.default_value);
      }
    }
    out += ')';
  }
  void decorators(const std::vector<Expr*>& ds) {
    if (ds.empty()) return;
    out += ' ';
    list("decorators", ds);
  }
  void aliases(const std::vector<Alias>& as) {
    for (const Alias& a : as) {
      out += ' ';
      if (a.asname.empty()) {
        out += a.name;
      } else {
        out += "(as " + a.name + " " + a.asname + ")";
      }
    }
  }
  void comprehension(const char* head, const Expr* e) {
    open(head);
    item(e->lhs);
    if (e->kind == ExprKind::DictComp) item(e->rhs);
    for (const Comprehension& c : e->comps) {
      out += " (for";
      item(c.target);
      item(c.iter);
      for (const Expr* cond : c.ifs) {
        out += " (if";
        item(cond);
        out += ')';
      }
      out += ')';
    }
    out += ')';
  }
  void body(const std::vector<Stmt*>& stmts, int indent) {
    for (const Stmt* s : stmts) {
      out += '\n';
      stmt(s, indent + 1);
    }
  }
  // A labelled sub-block, (else ...) or (finally ...), nested one level below the statement.
  void orelse(const char* head, const std::vector<Stmt*>& stmts, int indent) {
    if (stmts.empty()) return;
    out += '\n';
    out.append(static_cast<size_t>(indent + 1) * 2, ' ');
    open(head);
    body(stmts, indent + 1);
    out += ')';
  }
};

}  // namespace

std::string dump(const Module& module) {
  Dumper d;
  for (const Stmt* s : module.body) {
    d.stmt(s, 0);
    d.out += '\n';
  }
  return d.out;
}

}  // namespace tz::ast
