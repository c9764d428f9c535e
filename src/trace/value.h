// Values of the Python subset the tracer runs: scalars, strings, containers, functions, classes, instances
// (nn.Module objects among them), torch namespaces and dtypes, and tensors. Heap values are shared by
// reference, as in Python (two names bound to one list see the same list), and owned by one Heap per trace:
// no reference counting, so the cycles Python code makes (a function in the scope it closes over) cost nothing.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/ast.h"
#include "graph/graph.h"

namespace tz::tracer {

class Interp;
struct Value;

enum class Kind : uint8_t {
  None,
  Bool,
  Int,
  Float,
  Str,
  Tuple,
  List,
  Dict,
  Range,
  Slice,
  Ellipsis,
  Function,   // a def or lambda of the file
  Class,      // a class of the file, or a builtin class (nn.Module, nn.Linear, int, ...)
  Instance,   // an instance of a Class (nn.Module instances carry their module state)
  Method,     // a function bound to its first argument
  Builtin,    // a native function, possibly bound to a receiver (a Tensor method, list.append, ...)
  Namespace,  // torch, torch.nn, torch.nn.functional, math, an opaque import
  Unknown,    // an attribute of torch we do not know (torch.fft.fft): using it is an error naming it
  DType,
  Device,
  Tensor,
  Super,  // the object super() returns
};

struct Obj {
  virtual ~Obj() = default;
};

struct Value {
  Kind kind = Kind::None;
  union {
    bool b;
    int64_t i;
    double f;
    DType dtype;
  };
  Obj* obj = nullptr;

  Value() : i(0) {}
  static Value none() { return Value(); }
  static Value boolean(bool v) {
    Value x;
    x.kind = Kind::Bool;
    x.b = v;
    return x;
  }
  static Value integer(int64_t v) {
    Value x;
    x.kind = Kind::Int;
    x.i = v;
    return x;
  }
  static Value floating(double v) {
    Value x;
    x.kind = Kind::Float;
    x.f = v;
    return x;
  }
  static Value dtype_value(DType t) {
    Value x;
    x.kind = Kind::DType;
    x.dtype = t;
    return x;
  }
  static Value ellipsis() {
    Value x;
    x.kind = Kind::Ellipsis;
    return x;
  }
  static Value of(Kind kind, Obj* obj) {
    Value x;
    x.kind = kind;
    x.obj = obj;
    return x;
  }

  bool is(Kind k) const { return kind == k; }
  bool is_none() const { return kind == Kind::None; }
  bool is_number() const { return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float; }
  bool is_int_like() const { return kind == Kind::Bool || kind == Kind::Int; }
  bool is_seq() const { return kind == Kind::Tuple || kind == Kind::List; }
  double as_double() const { return kind == Kind::Float ? f : kind == Kind::Bool ? (b ? 1.0 : 0.0) : double(i); }
  int64_t as_int() const { return kind == Kind::Bool ? (b ? 1 : 0) : i; }

  template <class T>
  T* as() const {
    return static_cast<T*>(obj);
  }
};

struct StrObj : Obj {
  std::string s;
};

// Tuples and lists. A tuple may be a named tuple (torch.max(x, dim) returns (values, indices)).
struct SeqObj : Obj {
  std::vector<Value> items;
  std::vector<std::string> field_names;
};

// Insertion-ordered; dicts in module files are small, so lookup is linear.
struct DictObj : Obj {
  std::vector<std::pair<Value, Value>> items;
};

struct RangeObj : Obj {
  int64_t start = 0, stop = 0, step = 1;
  int64_t size() const;
  int64_t at(int64_t k) const { return start + k * step; }
};

struct SliceObj : Obj {
  Value lower, upper, step;
};

struct Scope;
struct ClassObj;

// Owns every heap object of one trace.
class Heap {
 public:
  template <class T>
  T* make() {
    objs_.push_back(std::make_unique<T>());
    return static_cast<T*>(objs_.back().get());
  }

 private:
  std::vector<std::unique_ptr<Obj>> objs_;
};

struct FunctionObj : Obj {
  std::string name;
  const std::vector<ast::Param>* params = nullptr;
  std::vector<Value> defaults;  // per param; meaningful where has_default
  std::vector<char> has_default;
  const std::vector<ast::Stmt*>* body = nullptr;  // a def
  const ast::Expr* lambda_body = nullptr;         // a lambda
  const ast::Stmt* def = nullptr;
  SourceLoc loc;
  Scope* closure = nullptr;
  ClassObj* owner = nullptr;  // the class whose body defined it (for super())
  bool is_static = false, is_classmethod = false, is_property = false;
};

// Builtin nn module kinds the tracer implements natively.
enum class ModuleKind : uint8_t {
  None,    // not a module class (user plain class, or a builtin type like int)
  Module,  // nn.Module itself, and user subclasses
  Linear,
  Conv,  // nn.Conv1d/2d/3d and nn.ConvTranspose1d/2d/3d, told apart by class name
  LayerNorm,
  BatchNorm,     // BatchNorm1d/2d/3d, told apart by class name
  InstanceNorm,  // InstanceNorm1d/2d/3d
  GroupNorm,
  RMSNorm,
  Embedding,
  ReLU,
  GELU,
  SiLU,
  Sigmoid,
  Tanh,
  Pool,        // the modules of pool_specs() (MaxPool2d, AvgPool1d, AdaptiveAvgPool3d, ...), told apart by class name
  Activation,  // the modules of activation_specs() (LeakyReLU, ELU, Softplus, ...), told apart by class name
  Loss,        // the modules of loss_specs() (MSELoss, CrossEntropyLoss, CosineSimilarity, ...), by class name
  Softmax,
  LogSoftmax,
  Identity,
  Flatten,
  Dropout,
  MultiheadAttention,
  TransformerEncoderLayer,
  Pad,       // ZeroPad1d/2d/3d, ConstantPad*, ReflectionPad*, ReplicationPad*, CircularPad*, by class name
  Shuffle,   // PixelShuffle, PixelUnshuffle, ChannelShuffle
  Unflatten,
  PReLU,
  Sequential,
  ModuleList,
  ModuleDict,
};

using AttrMap = std::vector<std::pair<std::string, Value>>;  // insertion-ordered; small

struct CallArgs {
  std::vector<Value> pos;
  std::vector<std::pair<std::string, Value>> kw;
};

using BuiltinFn = std::function<Value(Interp&, const Value& self, CallArgs& args, SourceLoc loc)>;

struct ClassObj : Obj {
  std::string name;
  BuiltinFn ctor;  // builtin classes that are called natively (int, nn.Parameter, ...)
  std::vector<ClassObj*> bases;
  std::vector<ClassObj*> mro;  // self first
  AttrMap attrs;
  ModuleKind module = ModuleKind::None;  // Module for user subclasses of nn.Module
  bool builtin = false;                  // nn.Linear, nn.Module, ... (not defined in the file)
  const ast::Stmt* def = nullptr;
  const Value* find(const std::string& name) const;  // through the MRO
};

// One slot of an nn.Module: a parameter, a buffer, a submodule or a plain attribute (in that lookup order,
// as nn.Module.__getattr__ falls back to them after the instance dict).
enum class Slot : uint8_t { Plain, Param, Buffer, Module };

struct AttrEntry {
  std::string name;
  Slot slot = Slot::Plain;
  bool persistent = true;  // buffers
  Value value;
};

struct InstanceObj : Obj {
  ClassObj* cls = nullptr;
  std::vector<AttrEntry> attrs;
  int module_id = -1;     // nn.Module instances: index into the tracer's module table
  bool replayed = false;  // created in __init__ (or the traced module): ModelNew has a counterpart
  AttrEntry* find(const std::string& name);
  bool is_module() const { return module_id >= 0; }
};

struct MethodObj : Obj {
  Value self;
  Value func;
};

struct BuiltinObj : Obj {
  std::string name;  // as the user spells it: "torch.relu", "Tensor.view", "len"
  BuiltinFn fn;
  Value self;  // the receiver of a bound method (Kind::None otherwise)
  bool has_self = false;
  // Torch functions and Tensor methods: how a call is written in the init replay when its result is a tensor
  // computed in __init__ ("torch.zeros", or ".view" for a method of `self`); "" for other natives.
  std::string replay;
  bool is_view = false;  // the result shares the storage of its receiver or first tensor argument
};

struct NamespaceObj : Obj {
  std::string qualname;  // "torch.nn.functional"
  std::string display;   // how the file spells it in messages: "F"
  bool opaque = false;   // an import we do not execute (numpy, typing, ...)
};

struct UnknownObj : Obj {
  std::string name;  // "torch.fft.fft", "Tensor.scatter_"
};

struct DeviceObj : Obj {
  std::string spec;  // "cuda", "cuda:0", "cpu"
};

// When a tensor exists: shape-only (module level, get_inputs), replayable (__init__), or traced (forward).
enum class Phase : uint8_t { Shape, Init, Forward };

struct TensorObj : Obj {
  Shape shape;
  DType dtype = DType::Float32;
  Phase phase = Phase::Shape;
  const Node* node = nullptr;  // Forward
  // Shape phase (get_inputs): the memory layout. perm: this tensor is a fresh contiguous tensor permuted by perm
  // (empty: contiguous); strided: some other layout (an op on a permuted tensor, an expanded view).
  std::vector<int64_t> perm;
  bool strided = false;

  // Init: a Python expression that recreates the tensor in ModelNew.__init__ (module references are markers
  // that init_replay resolves), its precedence, and whether it names storage (a temporary, an attribute).
  std::string expr;
  int prec = 0;
  bool lvalue = false;
  bool is_param = false;
  bool requires_grad = true;
  std::string path;  // state_dict key once the module tree is final ("fc.weight")
  // The named tensors the expression reads: an in-place change of one of them first gives this tensor a
  // name of its own, so that it keeps the value it had.
  std::vector<TensorObj*> deps;
  // Views share their base's storage: an in-place change of any of them must reach the others, so when the
  // base gets a name, the views' expressions are rebuilt on it (rerender).
  TensorObj* base = nullptr;
  std::vector<TensorObj*> views;
  bool identity_view = false;  // the same elements as the base (nn.Parameter(t), t.data, t.detach())
  std::function<std::string()> rerender;

  int rank() const { return static_cast<int>(shape.size()); }
};

struct SuperObj : Obj {
  ClassObj* after = nullptr;  // lookup starts after this class in the MRO of self's class
  Value self;
};

// Names of a scope; class bodies are skipped by the lookup of the functions they define, as in Python.
struct Scope : Obj {
  std::unordered_map<std::string, Value> vars;
  Scope* parent = nullptr;
  bool is_class = false;
  bool is_module = false;
  std::vector<std::string> globals, nonlocals;
};

// --- helpers on values ---

const char* kind_name(Kind k);
std::string type_name(const Value& v);         // "int", "list", "Tensor", "Model", "torch.fft.fft", ...
const std::string& str_of(const Value& v);     // Kind::Str
std::vector<Value>& items_of(const Value& v);  // Tuple/List
TensorObj* tensor_of(const Value& v);          // Kind::Tensor

bool values_equal(const Value& a, const Value& b);      // Python ==, for non-tensors
bool values_identical(const Value& a, const Value& b);  // Python `is`

// Python's repr() of a float ("0.1", "1e-05", "2.0", "inf").
std::string float_repr(double f);
// Python source text for a literal value, or "" when the value is not a literal (a tensor, a function, ...).
std::string literal_repr(const Value& v);
// Python str() / repr() for print-free uses like str.format.
std::string py_str(const Value& v);

}  // namespace tz::tracer
