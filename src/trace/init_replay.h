// The init replay recorder: while __init__ runs, the tracer records what ModelNew.__init__ must do to hold
// the same parameters and buffers, drawn from the random stream in the same order. Events are recorded in
// execution order (every random draw is its own line, at the moment it runs); modules are referred to by
// markers and get their Python names only when rendering, once the whole module tree is known.
#pragma once

#include <string>
#include <vector>

#include "frontend/ast.h"

namespace tz::tracer {

bool is_identifier(const std::string& s);

// How a module holds its children: as attributes (nn.Module), by position (nn.Sequential, nn.ModuleList),
// or by key (nn.ModuleDict).
enum class Holder : uint8_t { Attr, List, Dict };

class InitRecorder {
 public:
  // The text that stands for module `id`'s Python expression inside a recorded line (`self`, `self.fc`, a
  // temporary).
  static std::string ref(int id);

  // Where the quoted-source comments come from: the statements being executed, outermost first, from index
  // `base` on (the statement of Model.__init__ and those of the functions it calls).
  void bind(const std::vector<const ast::Stmt*>* stmts, size_t base, const SourceFile* file);

  void text(std::string line);
  void create(int module, std::string ctor, Holder holder);  // ctor: "nn.Module()", "nn.ModuleList()", ...
  void set_holder(int module, Holder holder);
  void set_self(int module) {
    self_ = module;
  }  // the traced module, written `self`
  void attach(int parent, std::string key, int child);  // parent.key = child (or append, or [key])
  std::string temp();                                   // a fresh tensor temporary, "_t0", "_t1", ...

  // The lines of ModelNew.__init__'s body.
  std::vector<std::string> render() const;

 private:
  struct Event {
    enum Kind { Text, Comment, Create, Attach } kind;
    std::string text;  // Text, Comment; Create: the constructor; Attach: the key
    int depth = 0;     // Comment: nesting of the statement; others: how many statements enclose the event
    int module = -1;   // Create: the module; Attach: the child
    int parent = -1;   // Attach
  };
  int sync_comments();  // returns the depth of the statement running now

  std::vector<Event> events_;
  std::vector<Holder> holders_;  // per module id
  const std::vector<const ast::Stmt*>* stmts_ = nullptr;
  size_t base_ = 0;
  const SourceFile* file_ = nullptr;
  std::vector<const ast::Stmt*> commented_;  // the statement chain the last comments quoted
  int temps_ = 0;
  int self_ = 0;
};

}  // namespace tz::tracer
