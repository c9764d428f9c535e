// Init replay: recording in execution order, then rendering with Python names for the modules.
//
// Rendering decides, per module, how ModelNew refers to it. A module that is attached to an already
// named parent before anything else is attached to that parent gets its final name at creation
// (`self.fc = nn.Module()`); otherwise it lives in a temporary (`_m0 = nn.Module()`) until attached, which
// keeps the draws in their original order whatever the order of construction and attachment was.
// Modules that hold no parameters or buffers (nn.ReLU, a parameterless block) are not replayed, except as
// `nn.Module()` placeholders inside nn.Sequential / nn.ModuleList, where they keep the indices of their
// siblings, and so the state_dict keys, identical.
#include "trace/init_replay.h"

#include <algorithm>
#include <cctype>

#include "support/diagnostics.h"

namespace tz::tracer {

bool is_identifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

namespace {

std::string quote(const std::string& s) { return "'" + s + "'"; }

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// The source text of the statement starting at `line`: continuation lines are joined while brackets are
// open, so that a call spread over several lines is quoted whole.
std::string statement_text(const SourceFile& file, int line) {
  std::string out;
  int depth = 0;
  for (int n = line; n < line + 8; ++n) {
    std::string text = file.line(n);
    char quote_char = 0;
    for (char c : text) {
      if (quote_char) {
        if (c == quote_char) quote_char = 0;
      } else if (c == '\'' || c == '"') {
        quote_char = c;
      } else if (c == '#') {
        break;
      } else if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '}') {
        --depth;
      }
    }
    std::string t = trim(text);
    if (!out.empty() && !t.empty() && out.back() != '(' && out.back() != '[' && t[0] != ')' && t[0] != ']') {
      out += " ";
    }
    out += t;
    if (depth <= 0) return out;
  }
  return out + " ...";
}

}  // namespace

std::string InitRecorder::ref(int id) { return "\x01" + std::to_string(id) + "\x02"; }

void InitRecorder::bind(const std::vector<const ast::Stmt*>* stmts, size_t base, const SourceFile* file) {
  stmts_ = stmts;
  base_ = base;
  file_ = file;
  commented_.clear();
}

int InitRecorder::sync_comments() {
  if (!stmts_) return 0;
  std::vector<const ast::Stmt*> chain;
  for (size_t i = base_; i < stmts_->size(); ++i) {
    const ast::Stmt* s = (*stmts_)[i];
    if (s->kind == ast::StmtKind::If) continue;  // the branch taken shows in the statements inside it
    chain.push_back(s);
  }
  size_t k = 0;
  while (k < chain.size() && k < commented_.size() && chain[k] == commented_[k]) ++k;
  for (size_t i = k; i < chain.size(); ++i) {
    std::string text = file_ ? statement_text(*file_, chain[i]->loc.line) : std::string();
    Event e{Event::Comment, "# " + text};
    e.depth = static_cast<int>(i);
    events_.push_back(e);
  }
  commented_ = chain;
  return static_cast<int>(chain.size());
}

void InitRecorder::text(std::string line) {
  int depth = sync_comments();
  Event e{Event::Text, std::move(line)};
  e.depth = depth;
  events_.push_back(e);
}

void InitRecorder::create(int module, std::string ctor, Holder holder) {
  int depth = sync_comments();
  if (static_cast<int>(holders_.size()) <= module) holders_.resize(static_cast<size_t>(module) + 1, Holder::Attr);
  holders_[static_cast<size_t>(module)] = holder;
  Event e{Event::Create, std::move(ctor)};
  e.module = module;
  e.depth = depth;
  events_.push_back(e);
}

void InitRecorder::set_holder(int module, Holder holder) {
  if (static_cast<int>(holders_.size()) <= module) holders_.resize(static_cast<size_t>(module) + 1, Holder::Attr);
  holders_[static_cast<size_t>(module)] = holder;
}

void InitRecorder::attach(int parent, std::string key, int child) {
  int depth = sync_comments();
  Event e{Event::Attach, std::move(key)};
  e.depth = depth;
  e.module = child;
  e.parent = parent;
  events_.push_back(e);
}

std::string InitRecorder::temp() { return "_t" + std::to_string(temps_++); }

std::vector<std::string> InitRecorder::render() const {
  int n = static_cast<int>(holders_.size());
  auto grow = [&](int id) { n = std::max(n, id + 1); };
  for (const Event& e : events_) {
    grow(e.module);
    grow(e.parent);
  }
  grow(self_);
  auto holder = [&](int m) {
    return m < static_cast<int>(holders_.size()) ? holders_[static_cast<size_t>(m)] : Holder::Attr;
  };

  // Which modules ModelNew needs: those whose names appear in a line, and their ancestors.
  std::vector<char> needed(static_cast<size_t>(n), 0), keep(static_cast<size_t>(n), 0);
  needed[static_cast<size_t>(self_)] = 1;
  for (const Event& e : events_) {
    if (e.kind != Event::Text) continue;
    for (size_t p = e.text.find('\x01'); p != std::string::npos; p = e.text.find('\x01', p + 1)) {
      needed[static_cast<size_t>(std::stoi(e.text.substr(p + 1)))] = 1;
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (const Event& e : events_) {
      if (e.kind == Event::Attach && needed[static_cast<size_t>(e.module)] && !needed[static_cast<size_t>(e.parent)]) {
        needed[static_cast<size_t>(e.parent)] = 1;
        changed = true;
      }
    }
  }
  keep = needed;
  for (const Event& e : events_) {
    if (e.kind == Event::Attach && needed[static_cast<size_t>(e.parent)] && holder(e.parent) == Holder::List) {
      keep[static_cast<size_t>(e.module)] = 1;  // a placeholder keeps its siblings' indices
    }
  }
  std::vector<int> first_attach(static_cast<size_t>(n), -1);
  for (int i = 0; i < static_cast<int>(events_.size()); ++i) {
    const Event& e = events_[static_cast<size_t>(i)];
    if (e.kind == Event::Attach && first_attach[static_cast<size_t>(e.module)] < 0)
      first_attach[static_cast<size_t>(e.module)] = i;
  }

  std::vector<std::string> expr(static_cast<size_t>(n));
  std::vector<std::string> deferred(static_cast<size_t>(n));  // constructor of an unnamed placeholder
  std::vector<int> children(static_cast<size_t>(n), 0);
  std::vector<char> done(events_.size(), 0);
  expr[static_cast<size_t>(self_)] = "self";
  int module_temps = 0;

  // parent.key = X / parent.append(X) / parent['key'] = X, and how the child is then reached.
  auto attach_line = [&](int p, const std::string& key, const std::string& x) {
    const std::string& pe = expr[static_cast<size_t>(p)];
    switch (holder(p)) {
      case Holder::List: return pe + ".append(" + x + ")";
      case Holder::Dict: return pe + "[" + quote(key) + "] = " + x;
      case Holder::Attr: break;
    }
    return is_identifier(key) ? pe + "." + key + " = " + x : pe + ".add_module(" + quote(key) + ", " + x + ")";
  };
  auto child_expr = [&](int p, const std::string& key) {
    const std::string& pe = expr[static_cast<size_t>(p)];
    switch (holder(p)) {
      case Holder::List: return pe + "[" + std::to_string(children[static_cast<size_t>(p)]) + "]";
      case Holder::Dict: return pe + "[" + quote(key) + "]";
      case Holder::Attr: break;
    }
    return is_identifier(key) ? pe + "." + key : "getattr(" + pe + ", " + quote(key) + ")";
  };
  auto substitute = [&](const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] != '\x01') {
        out += text[i];
        continue;
      }
      size_t end = text.find('\x02', i);
      int id = std::stoi(text.substr(i + 1, end - i - 1));
      TZ_ASSERT(!expr[static_cast<size_t>(id)].empty(), "init replay: a module is used before it is named");
      out += expr[static_cast<size_t>(id)];
      i = end;
    }
    return out;
  };

  struct Out {
    bool comment;
    int depth;  // a comment's nesting; for code, how many statements enclose it
    std::string text;
  };
  std::vector<Out> out;
  for (size_t i = 0; i < events_.size(); ++i) {
    const Event& e = events_[i];
    if (done[i]) continue;
    switch (e.kind) {
      case Event::Comment: out.push_back({true, e.depth, e.text}); break;
      case Event::Text: out.push_back({false, e.depth, substitute(e.text)}); break;
      case Event::Create: {
        int m = e.module;
        if (m == self_ || !keep[static_cast<size_t>(m)]) break;
        std::string ctor = e.text;
        // nn.Sequential(a, b) / nn.ModuleList([a, b]) / nn.ModuleDict({...}): children attached by the
        // constructor itself are written as its arguments.
        if (holder(m) != Holder::Attr) {
          std::vector<std::string> args;
          size_t j = i + 1;
          for (; j < events_.size() && events_[j].kind == Event::Attach && events_[j].parent == m; ++j) {
            const Event& a = events_[j];
            done[j] = 1;
            if (!keep[static_cast<size_t>(a.module)]) continue;
            size_t c = static_cast<size_t>(a.module);
            std::string x = !expr[c].empty() ? expr[c] : !deferred[c].empty() ? deferred[c] : "nn.Module()";
            args.push_back(holder(m) == Holder::Dict ? quote(a.text) + ": " + x : x);
            ++children[static_cast<size_t>(m)];
          }
          if (!args.empty()) {
            std::string joined;
            for (size_t k = 0; k < args.size(); ++k) joined += (k ? ", " : "") + args[k];
            std::string name = ctor.substr(0, ctor.find('('));
            if (holder(m) == Holder::Dict)
              ctor = name + "({" + joined + "})";
            else if (name == "nn.ModuleList")
              ctor = name + "([" + joined + "])";
            else
              ctor = name + "(" + joined + ")";
          }
        }
        int fa = first_attach[static_cast<size_t>(m)];
        bool inline_ok = false;
        if (fa >= 0) {
          int p = events_[static_cast<size_t>(fa)].parent;
          inline_ok = !expr[static_cast<size_t>(p)].empty() && !done[static_cast<size_t>(fa)];
          for (int j = static_cast<int>(i) + 1; inline_ok && j < fa; ++j) {
            const Event& x = events_[static_cast<size_t>(j)];
            if (x.kind == Event::Attach && x.parent == p && !done[static_cast<size_t>(j)]) inline_ok = false;
          }
        }
        if (inline_ok) {
          const Event& a = events_[static_cast<size_t>(fa)];
          out.push_back({false, e.depth, attach_line(a.parent, a.text, ctor)});
          expr[static_cast<size_t>(m)] = child_expr(a.parent, a.text);
          ++children[static_cast<size_t>(a.parent)];
          done[static_cast<size_t>(fa)] = 1;
        } else if (!needed[static_cast<size_t>(m)]) {
          deferred[static_cast<size_t>(m)] = ctor;  // a placeholder, written where it is attached
        } else {
          std::string name = "_m" + std::to_string(module_temps++);
          out.push_back({false, e.depth, name + " = " + ctor});
          expr[static_cast<size_t>(m)] = name;
        }
        break;
      }
      case Event::Attach: {
        size_t c = static_cast<size_t>(e.module);
        if (!keep[c]) break;
        TZ_ASSERT(!expr[static_cast<size_t>(e.parent)].empty(), "init replay: attaching to an unnamed module");
        std::string x = !expr[c].empty() ? expr[c] : !deferred[c].empty() ? deferred[c] : "nn.Module()";
        out.push_back({false, e.depth, attach_line(e.parent, e.text, x)});
        if (expr[c].empty()) expr[c] = child_expr(e.parent, e.text);
        ++children[static_cast<size_t>(e.parent)];
        break;
      }
    }
  }

  // A comment is kept when the next code line comes from inside its statement (before the statement
  // ended, which a shallower comment or code line shows).
  std::vector<std::string> lines;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!out[i].comment) {
      lines.push_back(out[i].text);
      continue;
    }
    bool used = false;
    for (size_t j = i + 1; j < out.size(); ++j) {
      if (!out[j].comment) {
        used = out[j].depth > out[i].depth;
        break;
      }
      if (out[j].depth <= out[i].depth) break;
    }
    if (used) lines.push_back(out[i].text);
  }
  return lines;
}

}  // namespace tz::tracer
