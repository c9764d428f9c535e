// The interpreter of the Python subset: statements, expressions, calls, attributes, and the tables of native
// functions that builtins.cpp, torch_api.cpp and nn_modules.cpp fill. trace.cpp drives it through the phases
// (top level, get_init_inputs, __init__, get_inputs, forward).
#pragma once

#include <initializer_list>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace/init_replay.h"
#include "trace/trace.h"
#include "trace/value.h"

namespace tz::tracer {

[[noreturn]] void fail(SourceLoc loc, const std::string& message, std::string note = {});

// Python's precedence levels (higher binds tighter), for the init replay's expressions.
constexpr int kPrecOr = 3, kPrecAnd = 4, kPrecCompare = 6, kPrecBitOr = 7, kPrecBitXor = 8, kPrecBitAnd = 9,
              kPrecShift = 10, kPrecAdd = 11, kPrecMul = 12, kPrecUnary = 13, kPrecPow = 14, kPrecPostfix = 16,
              kPrecAtom = 17;

// Arguments of a native function bound to its parameter names, Python-style. A name ending in '=' is
// keyword-capable with a default (None); "*name" collects the remaining positionals into a tuple.
struct Bound {
  std::vector<Value> v;
  std::vector<char> given;
  bool has(size_t i) const { return given[i] && !v[i].is_none(); }
  const Value& operator[](size_t i) const { return v[i]; }
};
Bound bind(Interp& in, const CallArgs& args, const std::string& fname, std::initializer_list<const char*> params,
           SourceLoc loc);
// The same, for parameter lists built at run time (activation options from a table).
Bound bind(Interp& in, const CallArgs& args, const std::string& fname, const std::vector<std::string>& params,
           SourceLoc loc);

// Conversions of argument values, with located errors naming the function.
int64_t to_int(const Value& v, const std::string& what, SourceLoc loc);
double to_float(const Value& v, const std::string& what, SourceLoc loc);
bool to_bool(const Value& v, const std::string& what, SourceLoc loc);
const std::string& to_str(const Value& v, const std::string& what, SourceLoc loc);
DType to_dtype(const Value& v, const std::string& what, SourceLoc loc);
// A list of ints given as varargs (view(2, 3)) or as one tuple/list (view((2, 3))).
std::vector<int64_t> to_ints(const std::vector<Value>& args, const std::string& what, SourceLoc loc);
std::vector<int64_t> to_int_list(const Value& v, const std::string& what, SourceLoc loc);

class Interp {
 public:
  Interp(const ast::Module& module, const TraceOptions& options, Graph* graph);

  // --- heap values ---
  Heap heap;
  Value str(std::string s);
  Value tuple(std::vector<Value> items, std::vector<std::string> field_names = {});
  Value list(std::vector<Value> items);
  Value native(std::string name, BuiltinFn fn);
  Value bound_native(const Value& self, std::string name, const BuiltinFn& fn);
  TensorObj* new_tensor(Shape shape, DType dtype, Phase phase);
  Value wrap(TensorObj* t) { return Value::of(Kind::Tensor, t); }
  Value namespace_value(const std::string& qualname);
  Value opaque_module(const std::string& qualname, const std::string& display);  // an import we do not run
  Value unknown(const std::string& name);

  // --- running code ---
  void run_module();  // the file's top level (imports recorded, defs and classes bound, constants assigned)
  Value eval(const ast::Expr* e);
  Value call(const Value& f, CallArgs& args, SourceLoc loc);
  Value call_method(const Value& obj, const std::string& name, CallArgs args, SourceLoc loc);
  Value get_attr(const Value& obj, const std::string& name, SourceLoc loc);
  bool has_attr(const Value& obj, const std::string& name);
  void set_attr(const Value& obj, const std::string& name, const Value& v, SourceLoc loc);
  Value binary(ast::Op op, const Value& a, const Value& b, SourceLoc loc);
  Value compare(ast::Op op, const Value& a, const Value& b, SourceLoc loc);
  bool truthy(const Value& v, SourceLoc loc);
  std::vector<Value> iterate(const Value& v, SourceLoc loc);
  Value subscript(const Value& obj, const Value& index, SourceLoc loc);
  bool isinstance(const Value& v, const Value& cls, SourceLoc loc);
  void step(SourceLoc loc);  // counts work; a located error past the limit instead of a hang

  // --- nn.Module state ---
  // Gives a module its id and records its creation in the replay (in __init__); `top` is the traced module.
  int register_module(InstanceObj* inst, bool top = false);
  void module_setattr(InstanceObj* m, const std::string& name, const Value& v, SourceLoc loc);
  void register_buffer(InstanceObj* m, const std::string& name, const Value& v, bool persistent, bool explicit_call,
                       SourceLoc loc);
  void register_parameter(InstanceObj* m, const std::string& name, const Value& v, SourceLoc loc);
  void add_module(InstanceObj* m, const std::string& key, const Value& child, SourceLoc loc);
  // A tensor held by a module, as forward sees it: its graph parameter.
  Value forward_view(const Value& v, const std::string& attr, SourceLoc loc);

  // --- init replay ---
  std::string tensor_expr(const Value& v, int prec, SourceLoc loc);  // a replayable tensor's text at `prec`
  // Gives a tensor computed in __init__ its replay expression, read from `operands` (tensors, or lists of
  // them).
  void set_init_expr(TensorObj* t, std::string expr, int prec, const std::vector<Value>& operands);
  // Records that `t` is a view of `base` (view, transpose, indexing, nn.Parameter, ...); `rerender` rebuilds
  // its expression from the base's current one.
  void make_view(TensorObj* t, TensorObj* base, bool identity, std::function<std::string()> rerender);
  void materialize(TensorObj* t, SourceLoc loc);  // gives a lazy tensor expression a name
  // Before an in-place change of `t` in __init__: its storage gets a name that all its views share, and the
  // lazy expressions that read that storage are evaluated first, so that they keep their values.
  void before_mutation(TensorObj* t, SourceLoc loc);
  // Python text of an argument for a replayed call; tensors by their expression.
  std::string render_arg(const Value& v, SourceLoc loc);
  std::string render_call(const std::string& callee, const CallArgs& args, SourceLoc loc);

  // --- tables filled by the registration functions ---
  std::unordered_map<std::string, Value> builtins;            // len, range, int, ...
  std::unordered_map<std::string, Value> registry;            // "torch.relu", "torch.nn.Linear", "math.pi"
  std::unordered_map<std::string, BuiltinFn> tensor_methods;  // "view", "sum", ...
  std::unordered_map<std::string, BuiltinFn> str_methods, list_methods, dict_methods, module_methods;
  ClassObj* module_class = nullptr;  // nn.Module
  ClassObj* parameter_class = nullptr;
  ClassObj* tensor_class = nullptr;
  ClassObj* builtin_class(const std::string& name);  // int, float, ... for isinstance

  // --- state ---
  Phase phase = Phase::Shape;
  // Shape phase: the layout of the next shape_only result, from the operands traced() last saw. PyTorch lays out
  // an elementwise result like its first operand (TensorIterator); a result of another shape, from operands not
  // all contiguous, has a layout tritonize does not follow. (ModelNew checks the strides it was generated for.)
  const TensorObj* layout_source = nullptr;
  bool strided_operands = false;
  Graph* graph;
  const SourceFile* file;
  const ast::Module& module;
  const TraceOptions& options;
  Scope* globals;
  std::vector<InstanceObj*> modules;   // nn.Module instances by id
  std::vector<TensorObj*> registered;  // parameters and buffers in registration order
  // Modules whose forward depends on their training flag: ("bn", traced flag), checked by ModelNew.forward.
  std::vector<std::pair<std::string, bool>> mode_checks;
  std::vector<TensorObj*> lazy_init;   // __init__ tensors whose expressions read named tensors
  InitRecorder replay;
  std::vector<const ast::Stmt*> stmt_stack;  // the statements being executed, outermost first
  std::vector<std::string> overridden;       // --set names assigned at the top level
  std::unordered_map<std::string, Value> override_values;

  // Runs a user function (def or lambda) with arguments already evaluated.
  Value call_function(FunctionObj* fn, CallArgs& args, SourceLoc loc, const Value* self = nullptr);

 private:
  enum class Flow { Normal, Break, Continue, Return };
  struct Frame {
    Scope* scope;
    ClassObj* cls = nullptr;  // the class of the method running (for super())
    Value first_arg;          // its first argument (for super())
    Value ret;
  };

  Flow exec_block(const std::vector<ast::Stmt*>& body);
  Flow exec(const ast::Stmt* s);
  void exec_import(const ast::Stmt* s);
  void exec_class(const ast::Stmt* s);
  Value make_function(const ast::Stmt* def, const ast::Expr* lambda);
  void assign(const ast::Expr* target, const Value& v);
  void store_name(const std::string& name, const Value& v, SourceLoc loc);
  Value load_name(const std::string& name, SourceLoc loc);
  void delete_target(const ast::Expr* target);
  Value eval_call(const ast::Expr* e);
  Value eval_comprehension(const ast::Expr* e);
  void comprehension_loop(const ast::Expr* e, size_t level, const std::function<void()>& body);
  Value eval_subscript_index(const ast::Expr* e);
  Value unary(ast::Op op, const Value& v, SourceLoc loc);
  Value call_class(ClassObj* cls, CallArgs& args, SourceLoc loc);
  Value class_attr(ClassObj* cls, const std::string& name, const Value& self, SourceLoc loc, bool* found);
  Value instance_attr(InstanceObj* inst, const Value& self, const std::string& name, SourceLoc loc, bool* found);
  Frame& frame() { return frames_.back(); }

  std::vector<Frame> frames_;
  std::unordered_map<std::string, Value> namespaces_;  // interned Namespace values
  std::unordered_map<std::string, ClassObj*> builtin_classes_;
  int64_t steps_ = 0;
  int depth_ = 0;
};

// Registration of the native surface (builtins.cpp, torch_api.cpp, nn_modules.cpp).
void register_builtins(Interp& in);
void register_torch(Interp& in);
void register_nn(Interp& in);
void register_math(Interp& in);  // math_fns.cpp

// The torch surface's registration (torch_api.cpp): torch.<qualname> as a builtin that __init__ replays by name;
// Tensor.<name> from a handler written for fn(input, ...); def_both registers torch.<name> and the method.
void def_fn(Interp& in, const std::string& qualname, BuiltinFn fn);
void def_method(Interp& in, const std::string& name, const BuiltinFn& fn);
void def_both(Interp& in, const std::string& name, const BuiltinFn& fn);

// The forward of a builtin nn module (nn_modules.cpp).
Value call_builtin_module(Interp& in, InstanceObj* m, CallArgs& args, SourceLoc loc);
// Constructs a builtin nn module (nn_modules.cpp).
Value construct_builtin_module(Interp& in, ClassObj* cls, CallArgs& args, SourceLoc loc);

// Attributes of a tensor: shape, dtype, T, ... and its methods, bound (torch_api.cpp).
Value tensor_attr(Interp& in, const Value& self, const std::string& name, SourceLoc loc);

// A value formatted by a format spec (".3f", "d", "5", ""), as str.format and f-strings do (builtins.cpp).
std::string format_value(const Value& v, const std::string& spec, SourceLoc loc);

// Display names: "torch.nn.functional.relu" -> "F.relu", "torch.nn.Linear" -> "nn.Linear".
std::string display_name(const std::string& qualname);

}  // namespace tz::tracer
