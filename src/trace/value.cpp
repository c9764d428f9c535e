// Value helpers: names of kinds and types, Python equality and identity, and literal text (repr).
#include "trace/value.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace tz::tracer {

int64_t RangeObj::size() const {
  if (step > 0) return start < stop ? (stop - start + step - 1) / step : 0;
  return start > stop ? (start - stop - step - 1) / -step : 0;
}

const Value* ClassObj::find(const std::string& name) const {
  for (const ClassObj* c : mro) {
    for (const auto& [k, v] : c->attrs) {
      if (k == name) return &v;
    }
  }
  return nullptr;
}

AttrEntry* InstanceObj::find(const std::string& name) {
  for (auto& e : attrs) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::None: return "NoneType";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Float: return "float";
    case Kind::Str: return "str";
    case Kind::Tuple: return "tuple";
    case Kind::List: return "list";
    case Kind::Dict: return "dict";
    case Kind::Range: return "range";
    case Kind::Slice: return "slice";
    case Kind::Ellipsis: return "ellipsis";
    case Kind::Function: return "function";
    case Kind::Class: return "type";
    case Kind::Instance: return "object";
    case Kind::Method: return "method";
    case Kind::Builtin: return "builtin_function";
    case Kind::Namespace: return "module";
    case Kind::Unknown: return "unknown";
    case Kind::DType: return "torch.dtype";
    case Kind::Device: return "torch.device";
    case Kind::Tensor: return "Tensor";
    case Kind::Super: return "super";
  }
  return "?";
}

std::string type_name(const Value& v) {
  switch (v.kind) {
    case Kind::Instance: return v.as<InstanceObj>()->cls->name;
    case Kind::Unknown: return v.as<UnknownObj>()->name;
    case Kind::Namespace: return "module " + v.as<NamespaceObj>()->display;
    case Kind::Builtin: return v.as<BuiltinObj>()->name;
    case Kind::Function: return "function " + v.as<FunctionObj>()->name;
    default: return kind_name(v.kind);
  }
}

const std::string& str_of(const Value& v) { return v.as<StrObj>()->s; }
std::vector<Value>& items_of(const Value& v) { return v.as<SeqObj>()->items; }
TensorObj* tensor_of(const Value& v) { return v.as<TensorObj>(); }

bool values_equal(const Value& a, const Value& b) {
  if (a.is_number() && b.is_number()) {
    if (a.kind == Kind::Float || b.kind == Kind::Float) return a.as_double() == b.as_double();
    return a.as_int() == b.as_int();
  }
  if (a.kind != b.kind) {
    // A tuple never equals a list in Python; other cross-kind comparisons are False as well.
    return false;
  }
  switch (a.kind) {
    case Kind::None:
    case Kind::Ellipsis: return true;
    case Kind::Str: return str_of(a) == str_of(b);
    case Kind::Tuple:
    case Kind::List: {
      const auto& x = items_of(a);
      const auto& y = items_of(b);
      if (x.size() != y.size()) return false;
      for (size_t i = 0; i < x.size(); ++i) {
        if (!values_equal(x[i], y[i])) return false;
      }
      return true;
    }
    case Kind::Dict: {
      const auto& x = a.as<DictObj>()->items;
      const auto& y = b.as<DictObj>()->items;
      if (x.size() != y.size()) return false;
      for (const auto& [k, v] : x) {
        bool found = false;
        for (const auto& [k2, v2] : y) {
          if (values_equal(k, k2)) {
            found = values_equal(v, v2);
            break;
          }
        }
        if (!found) return false;
      }
      return true;
    }
    case Kind::Range: {
      auto* x = a.as<RangeObj>();
      auto* y = b.as<RangeObj>();
      return x->start == y->start && x->stop == y->stop && x->step == y->step;
    }
    case Kind::DType: return a.dtype == b.dtype;
    case Kind::Device: return a.as<DeviceObj>()->spec == b.as<DeviceObj>()->spec;
    case Kind::Unknown: return a.as<UnknownObj>()->name == b.as<UnknownObj>()->name;
    default: return a.obj == b.obj;
  }
}

bool values_identical(const Value& a, const Value& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case Kind::None:
    case Kind::Ellipsis: return true;
    case Kind::Bool: return a.b == b.b;
    case Kind::Int: return a.i == b.i;  // small ints are cached in CPython; close enough for `is`
    case Kind::Float: return a.f == b.f;
    case Kind::DType: return a.dtype == b.dtype;
    default: return a.obj == b.obj;
  }
}

std::string float_repr(double f) {
  if (std::isnan(f)) return "float('nan')";
  if (std::isinf(f)) return f > 0 ? "float('inf')" : "-float('inf')";
  // Shortest round-trip digits, laid out as Python's repr does: positional for 1e-4 <= |f| < 1e16,
  // scientific otherwise, always with a '.0' or an exponent so that it reads back as a float.
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, f, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  size_t epos = sci.find('e');
  std::string mant = sci.substr(0, epos);
  int exp = std::stoi(sci.substr(epos + 1));
  bool neg = !mant.empty() && mant[0] == '-';
  if (neg) mant = mant.substr(1);
  std::string digits;
  for (char c : mant) {
    if (c != '.') digits += c;
  }
  std::string out;
  if (exp >= -4 && exp < 16) {
    int point = exp + 1;  // digits before the decimal point
    if (point <= 0) {
      out = "0." + std::string(-point, '0') + digits;
    } else if (point >= static_cast<int>(digits.size())) {
      out = digits + std::string(point - digits.size(), '0') + ".0";
    } else {
      out = digits.substr(0, point) + "." + digits.substr(point);
    }
  } else {
    out = digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char e[16];
    std::snprintf(e, sizeof e, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    out += e;
  }
  return neg ? "-" + out : out;
}

namespace {

std::string str_repr(const std::string& s) {
  bool has_single = s.find('\'') != std::string::npos, has_double = s.find('"') != std::string::npos;
  char q = has_single && !has_double ? '"' : '\'';
  std::string out(1, q);
  for (char c : s) {
    if (c == q || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + q;
}

}  // namespace

std::string literal_repr(const Value& v) {
  switch (v.kind) {
    case Kind::None: return "None";
    case Kind::Bool: return v.b ? "True" : "False";
    case Kind::Int: return std::to_string(v.i);
    case Kind::Float: return float_repr(v.f);
    case Kind::Str: return str_repr(str_of(v));
    case Kind::Ellipsis: return "...";
    case Kind::DType: return torch_dtype_name(v.dtype);
    case Kind::Tuple:
    case Kind::List: {
      const auto& items = items_of(v);
      std::string out = v.kind == Kind::Tuple ? "(" : "[";
      for (size_t i = 0; i < items.size(); ++i) {
        std::string r = literal_repr(items[i]);
        if (r.empty()) return "";
        out += (i ? ", " : "") + r;
      }
      if (v.kind == Kind::Tuple && items.size() == 1) out += ",";
      return out + (v.kind == Kind::Tuple ? ")" : "]");
    }
    case Kind::Dict: {
      std::string out = "{";
      bool first = true;
      for (const auto& [k, x] : v.as<DictObj>()->items) {
        std::string rk = literal_repr(k), rv = literal_repr(x);
        if (rk.empty() || rv.empty()) return "";
        out += (first ? "" : ", ") + rk + ": " + rv;
        first = false;
      }
      return out + "}";
    }
    default: return "";
  }
}

std::string py_str(const Value& v) {
  switch (v.kind) {
    case Kind::Str: return str_of(v);
    case Kind::Tensor: {
      auto* t = tensor_of(v);
      return "tensor(shape=" + shape_str(t->shape) + ", dtype=" + torch_dtype_name(t->dtype) + ")";
    }
    case Kind::DType: return torch_dtype_name(v.dtype);
    case Kind::Device: return v.as<DeviceObj>()->spec;
    case Kind::Float: {
      std::string r = float_repr(v.f);
      if (r == "float('inf')") return "inf";
      if (r == "-float('inf')") return "-inf";
      if (r == "float('nan')") return "nan";
      return r;
    }
    default: {
      std::string r = literal_repr(v);
      return r.empty() ? "<" + type_name(v) + ">" : r;
    }
  }
}

}  // namespace tz::tracer
