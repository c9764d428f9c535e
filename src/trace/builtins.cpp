// Python builtins (len, range, min, isinstance, ...), the math module, collections.OrderedDict, exception
// classes (raise is a located error), and the methods of str, list and dict.
#include <algorithm>
#include <cmath>

#include "trace/interp.h"

namespace tz::tracer {

namespace {

using Fn = BuiltinFn;

void def(Interp& in, const std::string& name, Fn fn) { in.builtins[name] = in.native(name, std::move(fn)); }

void def_math(Interp& in, const std::string& name, double (*f)(double)) {
  in.registry["math." + name] = in.native("math." + name, [name, f](Interp&, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1 || !a.kw.empty()) fail(loc, "math." + name + "() takes exactly one argument");
    double x = to_float(a.pos[0], "math." + name, loc);
    double r = f(x);
    if (std::isnan(r) && !std::isnan(x)) fail(loc, "math." + name + ": math domain error");
    return Value::floating(r);
  });
}

// A builtin type: callable (its constructor) and usable with isinstance.
void def_type(Interp& in, const std::string& name, Fn ctor) {
  ClassObj* c = in.builtin_class(name);
  c->ctor = std::move(ctor);
  in.builtins[name] = Value::of(Kind::Class, c);
}

Value parse_int(const std::string& s, SourceLoc loc) {
  size_t pos = 0;
  int64_t v = 0;
  try {
    v = std::stoll(s, &pos);
  } catch (...) {
    pos = 0;
  }
  while (pos < s.size() && std::isspace(static_cast<unsigned char>(s[pos]))) ++pos;
  if (pos == 0 || pos != s.size()) fail(loc, "invalid literal for int(): '" + s + "'");
  return Value::integer(v);
}

Value min_max(Interp& in, CallArgs& a, SourceLoc loc, bool is_max) {
  const char* name = is_max ? "max" : "min";
  Value key, dflt;
  bool has_default = false;
  for (const auto& [k, v] : a.kw) {
    if (k == "key")
      key = v;
    else if (k == "default")
      dflt = v, has_default = true;
    else
      fail(loc, std::string(name) + "() got an unexpected keyword argument '" + k + "'");
  }
  std::vector<Value> items = a.pos.size() == 1 ? in.iterate(a.pos[0], loc) : a.pos;
  if (items.empty()) {
    if (has_default) return dflt;
    fail(loc, std::string(name) + "() of an empty sequence");
  }
  auto keyed = [&](const Value& v) {
    if (key.is_none()) return v;
    CallArgs ka;
    ka.pos.push_back(v);
    return in.call(key, ka, loc);
  };
  Value best = items[0], best_key = keyed(items[0]);
  for (size_t i = 1; i < items.size(); ++i) {
    Value k = keyed(items[i]);
    if (k.is(Kind::Tensor) || best_key.is(Kind::Tensor)) {
      fail(loc, std::string("Python's ") + name + "() of tensors depends on their data: use torch." +
                    (is_max ? "maximum" : "minimum"));
    }
    bool better = in.truthy(in.compare(is_max ? ast::Op::Gt : ast::Op::Lt, k, best_key, loc), loc);
    if (better) {
      best = items[i];
      best_key = k;
    }
  }
  return best;
}

}  // namespace

// str.format, f-strings and % with the common specifiers: {} {0} {name} {:.3f} {!r}; %s %d %i %f %.Nf %r %%.
std::string format_value(const Value& v, const std::string& spec, SourceLoc loc) {
  if (spec.empty()) return py_str(v);
  char buf[128];
  std::string fmt = "%" + spec;
  char conv = spec.back();
  if (conv == 'f' || conv == 'e' || conv == 'g' || conv == 'F' || conv == 'E' || conv == 'G' || conv == '%') {
    double x = to_float(v, "format", loc);
    if (conv == '%') {
      fmt.back() = 'f';
      std::snprintf(buf, sizeof buf, fmt.c_str(), x * 100);
      return std::string(buf) + "%";
    }
    std::snprintf(buf, sizeof buf, fmt.c_str(), x);
    return buf;
  }
  if (conv == 'd') {
    fmt.pop_back();
    fmt += "lld";
    std::snprintf(buf, sizeof buf, fmt.c_str(), static_cast<long long>(to_int(v, "format", loc)));
    return buf;
  }
  std::string s = py_str(v);
  if (conv == 's') fmt.pop_back();
  size_t width = 0;
  for (char c : fmt) {
    if (std::isdigit(static_cast<unsigned char>(c))) width = width * 10 + static_cast<size_t>(c - '0');
  }
  if (s.size() < width) s = std::string(width - s.size(), ' ') + s;
  return s;
}

namespace {

Value str_format(Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
  const std::string& f = str_of(self);
  std::string out;
  size_t auto_index = 0;
  for (size_t i = 0; i < f.size(); ++i) {
    char c = f[i];
    if (c == '{' && i + 1 < f.size() && f[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    if (c == '}' && i + 1 < f.size() && f[i + 1] == '}') {
      out += '}';
      ++i;
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    size_t end = f.find('}', i);
    if (end == std::string::npos) fail(loc, "str.format: unmatched '{'");
    std::string field = f.substr(i + 1, end - i - 1);
    i = end;
    std::string spec;
    bool repr = false;
    if (size_t colon = field.find(':'); colon != std::string::npos) {
      spec = field.substr(colon + 1);
      field = field.substr(0, colon);
    }
    if (size_t bang = field.find('!'); bang != std::string::npos) {
      repr = field.substr(bang + 1) == "r";
      field = field.substr(0, bang);
    }
    Value v;
    if (field.empty()) {
      if (auto_index >= a.pos.size()) fail(loc, "str.format: not enough arguments");
      v = a.pos[auto_index++];
    } else if (std::isdigit(static_cast<unsigned char>(field[0]))) {
      size_t k = std::stoul(field);
      if (k >= a.pos.size()) fail(loc, "str.format: index out of range");
      v = a.pos[k];
    } else {
      bool found = false;
      for (const auto& [k, x] : a.kw) {
        if (k == field) v = x, found = true;
      }
      if (!found) fail(loc, "str.format: no argument named '" + field + "'");
    }
    std::string r = repr && !literal_repr(v).empty() ? literal_repr(v) : format_value(v, spec, loc);
    out += r;
  }
  return in.str(out);
}

Value str_percent(Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
  const std::string& f = str_of(self);
  std::string out;
  size_t k = 0;
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] != '%') {
      out += f[i];
      continue;
    }
    if (i + 1 < f.size() && f[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    size_t j = i + 1;
    while (j < f.size() && !std::isalpha(static_cast<unsigned char>(f[j]))) ++j;
    if (j == f.size()) fail(loc, "incomplete format");
    std::string spec = f.substr(i + 1, j - i);
    if (spec.back() == 'i') spec.back() = 'd';
    if (k >= a.pos.size()) fail(loc, "not enough arguments for format string");
    out += spec.back() == 'r' ? literal_repr(a.pos[k++]) : format_value(a.pos[k++], spec, loc);
    i = j;
  }
  return in.str(out);
}

void register_str_methods(Interp& in) {
  auto& m = in.str_methods;
  m["format"] = str_format;
  m["__mod__"] = str_percent;
  m["join"] = [](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "str.join takes one argument");
    std::string out;
    bool first = true;
    for (const Value& v : in.iterate(a.pos[0], loc)) {
      out += (first ? "" : str_of(self)) + to_str(v, "str.join", loc);
      first = false;
    }
    return in.str(out);
  };
  m["lower"] = [](Interp& in, const Value& self, CallArgs&, SourceLoc) {
    std::string s = str_of(self);
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return in.str(s);
  };
  m["upper"] = [](Interp& in, const Value& self, CallArgs&, SourceLoc) {
    std::string s = str_of(self);
    for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return in.str(s);
  };
  m["startswith"] = [](Interp&, const Value& self, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "str.startswith takes one argument");
    return Value::boolean(str_of(self).rfind(to_str(a.pos[0], "startswith", loc), 0) == 0);
  };
  m["endswith"] = [](Interp&, const Value& self, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "str.endswith takes one argument");
    const std::string& s = str_of(self);
    const std::string& t = to_str(a.pos[0], "endswith", loc);
    return Value::boolean(s.size() >= t.size() && s.compare(s.size() - t.size(), t.size(), t) == 0);
  };
  m["replace"] = [](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 2) fail(loc, "str.replace takes two arguments");
    std::string s = str_of(self);
    const std::string& from = to_str(a.pos[0], "replace", loc);
    const std::string& to = to_str(a.pos[1], "replace", loc);
    if (from.empty()) return in.str(s);
    std::string out;
    size_t p = 0;
    for (size_t q; (q = s.find(from, p)) != std::string::npos; p = q + from.size()) out += s.substr(p, q - p) + to;
    return in.str(out + s.substr(p));
  };
  m["split"] = [](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    const std::string& s = str_of(self);
    std::vector<Value> out;
    if (a.pos.empty() || a.pos[0].is_none()) {
      size_t i = 0;
      while (i < s.size()) {
        while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
        size_t j = i;
        while (j < s.size() && !std::isspace(static_cast<unsigned char>(s[j]))) ++j;
        if (j > i) out.push_back(in.str(s.substr(i, j - i)));
        i = j;
      }
    } else {
      const std::string& sep = to_str(a.pos[0], "split", loc);
      if (sep.empty()) fail(loc, "str.split: empty separator");
      size_t p = 0;
      for (size_t q; (q = s.find(sep, p)) != std::string::npos; p = q + sep.size())
        out.push_back(in.str(s.substr(p, q - p)));
      out.push_back(in.str(s.substr(p)));
    }
    return in.list(std::move(out));
  };
  m["strip"] = [](Interp& in, const Value& self, CallArgs&, SourceLoc) {
    const std::string& s = str_of(self);
    size_t b = s.find_first_not_of(" \t\n\r");
    if (b == std::string::npos) return in.str("");
    return in.str(s.substr(b, s.find_last_not_of(" \t\n\r") - b + 1));
  };
  m["isdigit"] = [](Interp&, const Value& self, CallArgs&, SourceLoc) {
    const std::string& s = str_of(self);
    return Value::boolean(!s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
      return std::isdigit(static_cast<unsigned char>(c));
    }));
  };
}

void register_list_methods(Interp& in) {
  auto& m = in.list_methods;
  m["append"] = [](Interp&, const Value& self, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "list.append takes one argument");
    items_of(self).push_back(a.pos[0]);
    return Value::none();
  };
  m["extend"] = [](Interp& in, const Value& self, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "list.extend takes one argument");
    for (const Value& v : in.iterate(a.pos[0], loc)) items_of(self).push_back(v);
    return Value::none();
  };
  m["insert"] = [](Interp&, const Value& self, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 2) fail(loc, "list.insert takes two arguments");
    auto& items = items_of(self);
    int64_t n = static_cast<int64_t>(items.size());
    int64_t i = to_int(a.pos[0], "list.insert", loc);
    if (i < 0) i = std::max<int64_t>(0, i + n);
    items.insert(items.begin() + std::min(i, n), a.pos[1]);
    return Value::none();
  };
  m["pop"] = [](Interp&, const Value& self, CallArgs& a, SourceLoc loc) {
    auto& items = items_of(self);
    if (items.empty()) fail(loc, "pop from an empty list");
    int64_t n = static_cast<int64_t>(items.size());
    int64_t i = a.pos.empty() ? n - 1 : to_int(a.pos[0], "list.pop", loc);
    if (i < 0) i += n;
    if (i < 0 || i >= n) fail(loc, "pop index out of range");
    Value v = items[static_cast<size_t>(i)];
    items.erase(items.begin() + i);
    return v;
  };
  m["index"] = [](Interp&, const Value& self, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "index takes one argument");
    const auto& items = items_of(self);
    for (size_t i = 0; i < items.size(); ++i) {
      if (values_equal(items[i], a.pos[0])) return Value::integer(static_cast<int64_t>(i));
    }
    fail(loc, py_str(a.pos[0]) + " is not in the sequence");
  };
  m["count"] = [](Interp&, const Value& self, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "count takes one argument");
    int64_t n = 0;
    for (const Value& v : items_of(self)) n += values_equal(v, a.pos[0]) ? 1 : 0;
    return Value::integer(n);
  };
  m["copy"] = [](Interp& in, const Value& self, CallArgs&, SourceLoc) { return in.list(items_of(self)); };
  m["reverse"] = [](Interp&, const Value& self, CallArgs&, SourceLoc) {
    std::reverse(items_of(self).begin(), items_of(self).end());
    return Value::none();
  };
}

DictObj* dict_of(const Value& v) { return v.as<DictObj>(); }

void register_dict_methods(Interp& in) {
  auto& m = in.dict_methods;
  m["get"] = [](Interp&, const Value& self, CallArgs& a, SourceLoc loc) {
    if (a.pos.empty() || a.pos.size() > 2) fail(loc, "dict.get takes one or two arguments");
    for (const auto& [k, v] : dict_of(self)->items) {
      if (values_equal(k, a.pos[0])) return v;
    }
    return a.pos.size() == 2 ? a.pos[1] : Value::none();
  };
  m["keys"] = [](Interp& in, const Value& self, CallArgs&, SourceLoc) {
    std::vector<Value> out;
    for (const auto& [k, v] : dict_of(self)->items) out.push_back(k);
    return in.list(std::move(out));
  };
  m["values"] = [](Interp& in, const Value& self, CallArgs&, SourceLoc) {
    std::vector<Value> out;
    for (const auto& [k, v] : dict_of(self)->items) out.push_back(v);
    return in.list(std::move(out));
  };
  m["items"] = [](Interp& in, const Value& self, CallArgs&, SourceLoc) {
    std::vector<Value> out;
    for (const auto& [k, v] : dict_of(self)->items) out.push_back(in.tuple({k, v}));
    return in.list(std::move(out));
  };
  m["update"] = [](Interp&, const Value& self, CallArgs& a, SourceLoc loc) {
    std::vector<std::pair<Value, Value>> add;
    if (!a.pos.empty()) {
      if (!a.pos[0].is(Kind::Dict)) fail(loc, "dict.update expects a dict");
      add = dict_of(a.pos[0])->items;
    }
    auto& items = dict_of(self)->items;
    for (const auto& [k, v] : add) {
      const Value& key = k;  // clang 14 cannot capture a structured binding
      auto it = std::find_if(items.begin(), items.end(), [&](const auto& kv) { return values_equal(kv.first, key); });
      if (it != items.end())
        it->second = v;
      else
        items.emplace_back(k, v);
    }
    return Value::none();
  };
  m["pop"] = [](Interp&, const Value& self, CallArgs& a, SourceLoc loc) {
    if (a.pos.empty()) fail(loc, "dict.pop takes a key");
    auto& items = dict_of(self)->items;
    for (auto it = items.begin(); it != items.end(); ++it) {
      if (values_equal(it->first, a.pos[0])) {
        Value v = it->second;
        items.erase(it);
        return v;
      }
    }
    if (a.pos.size() > 1) return a.pos[1];
    fail(loc, "KeyError: " + py_str(a.pos[0]));
  };
  m["setdefault"] = [](Interp&, const Value& self, CallArgs& a, SourceLoc loc) {
    if (a.pos.empty()) fail(loc, "dict.setdefault takes a key");
    auto& items = dict_of(self)->items;
    for (const auto& [k, v] : items) {
      if (values_equal(k, a.pos[0])) return v;
    }
    Value d = a.pos.size() > 1 ? a.pos[1] : Value::none();
    items.emplace_back(a.pos[0], d);
    return d;
  };
  m["copy"] = [](Interp& in, const Value& self, CallArgs&, SourceLoc) {
    auto* d = in.heap.make<DictObj>();
    d->items = dict_of(self)->items;
    return Value::of(Kind::Dict, d);
  };
}

Value make_dict(Interp& in, CallArgs& a, SourceLoc loc) {
  auto* d = in.heap.make<DictObj>();
  auto put = [&](const Value& k, const Value& v) {
    for (auto& [k2, v2] : d->items) {
      if (values_equal(k, k2)) {
        v2 = v;
        return;
      }
    }
    d->items.emplace_back(k, v);
  };
  if (!a.pos.empty()) {
    if (a.pos[0].is(Kind::Dict)) {
      for (const auto& [k, v] : dict_of(a.pos[0])->items) put(k, v);
    } else {
      for (const Value& kv : in.iterate(a.pos[0], loc)) {
        std::vector<Value> pair = in.iterate(kv, loc);
        if (pair.size() != 2) fail(loc, "dict(): each item needs a key and a value");
        put(pair[0], pair[1]);
      }
    }
  }
  for (const auto& [k, v] : a.kw) put(in.str(k), v);
  return Value::of(Kind::Dict, d);
}

double round_half_even(double x) { return x - std::floor(x) == 0.5 ? 2.0 * std::round(x / 2.0) : std::round(x); }

}  // namespace

void register_builtins(Interp& in) {
  def(in, "super", [](Interp&, const Value&, CallArgs&, SourceLoc loc) -> Value { fail(loc, "super() misuse"); });
  def(in, "print", [](Interp&, const Value&, CallArgs&, SourceLoc) { return Value::none(); });
  def(in, "len", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "len() takes exactly one argument");
    const Value& v = a.pos[0];
    switch (v.kind) {
      case Kind::Str: return Value::integer(static_cast<int64_t>(str_of(v).size()));
      case Kind::Tuple:
      case Kind::List: return Value::integer(static_cast<int64_t>(items_of(v).size()));
      case Kind::Dict: return Value::integer(static_cast<int64_t>(v.as<DictObj>()->items.size()));
      case Kind::Range: return Value::integer(v.as<RangeObj>()->size());
      case Kind::Tensor: {
        TensorObj* t = tensor_of(v);
        if (t->rank() == 0) fail(loc, "len() of a 0-d tensor");
        return Value::integer(t->shape[0]);
      }
      default: return Value::integer(static_cast<int64_t>(in.iterate(v, loc).size()));
    }
  });
  def(in, "range", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.empty() || a.pos.size() > 3 || !a.kw.empty()) fail(loc, "range() takes one to three arguments");
    auto* r = in.heap.make<RangeObj>();
    if (a.pos.size() == 1) {
      r->stop = to_int(a.pos[0], "range", loc);
    } else {
      r->start = to_int(a.pos[0], "range", loc);
      r->stop = to_int(a.pos[1], "range", loc);
      if (a.pos.size() == 3) r->step = to_int(a.pos[2], "range", loc);
    }
    if (r->step == 0) fail(loc, "range() step must not be zero");
    return Value::of(Kind::Range, r);
  });
  def_type(in, "int", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.empty()) return Value::integer(0);
    const Value& v = a.pos[0];
    if (v.is_int_like()) return Value::integer(v.as_int());
    if (v.is(Kind::Float)) {
      if (!std::isfinite(v.f)) fail(loc, "cannot convert " + py_str(v) + " to an integer");
      return Value::integer(static_cast<int64_t>(std::trunc(v.f)));
    }
    if (v.is(Kind::Str)) return parse_int(str_of(v), loc);
    if (v.is(Kind::Tensor)) fail(loc, "int() of a tensor depends on its data: not supported");
    fail(loc, "int() argument must be a number or a string, not " + type_name(v));
  });
  def_type(in, "float", [](Interp&, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.empty()) return Value::floating(0.0);
    const Value& v = a.pos[0];
    if (v.is_number()) return Value::floating(v.as_double());
    if (v.is(Kind::Str)) {
      std::string s = str_of(v);
      for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (s == "inf" || s == "+inf" || s == "infinity") return Value::floating(INFINITY);
      if (s == "-inf" || s == "-infinity") return Value::floating(-INFINITY);
      if (s == "nan") return Value::floating(NAN);
      size_t pos = 0;
      double d = 0;
      try {
        d = std::stod(s, &pos);
      } catch (...) {
        pos = 0;
      }
      if (pos == 0 || pos != s.size()) fail(loc, "could not convert string to float: '" + str_of(v) + "'");
      return Value::floating(d);
    }
    if (v.is(Kind::Tensor)) fail(loc, "float() of a tensor depends on its data: not supported");
    fail(loc, "float() argument must be a number or a string, not " + type_name(v));
  });
  def_type(in, "bool", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    return Value::boolean(!a.pos.empty() && in.truthy(a.pos[0], loc));
  });
  def_type(in, "str", [](Interp& in, const Value&, CallArgs& a, SourceLoc) {
    return in.str(a.pos.empty() ? std::string() : py_str(a.pos[0]));
  });
  def_type(in, "tuple", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    return in.tuple(a.pos.empty() ? std::vector<Value>{} : in.iterate(a.pos[0], loc));
  });
  def_type(in, "list", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    return in.list(a.pos.empty() ? std::vector<Value>{} : in.iterate(a.pos[0], loc));
  });
  def_type(in, "dict", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) { return make_dict(in, a, loc); });
  def_type(in, "set", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    std::vector<Value> out;
    if (!a.pos.empty()) {
      for (const Value& v : in.iterate(a.pos[0], loc)) {
        if (std::none_of(out.begin(), out.end(), [&](const Value& u) { return values_equal(u, v); })) out.push_back(v);
      }
    }
    return in.list(std::move(out));
  });
  def_type(in, "object",
           [](Interp&, const Value&, CallArgs&, SourceLoc loc) -> Value { fail(loc, "object() is not supported"); });
  in.registry["collections.OrderedDict"] = in.builtins.at("dict");

  def(in, "min", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) { return min_max(in, a, loc, false); });
  def(in, "max", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) { return min_max(in, a, loc, true); });
  def(in, "abs", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "abs() takes exactly one argument");
    const Value& v = a.pos[0];
    if (v.is(Kind::Float)) return Value::floating(std::fabs(v.f));
    if (v.is_int_like()) return Value::integer(std::llabs(v.as_int()));
    if (v.is(Kind::Tensor)) return in.call_method(v, "abs", {}, loc);
    fail(loc, "bad operand type for abs(): '" + type_name(v) + "'");
  });
  def(in, "sum", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.empty()) fail(loc, "sum() takes an iterable");
    Value acc = a.pos.size() > 1 ? a.pos[1] : Value::integer(0);
    for (const auto& [k, v] : a.kw) {
      if (k == "start") acc = v;
    }
    for (const Value& v : in.iterate(a.pos[0], loc)) acc = in.binary(ast::Op::Add, acc, v, loc);
    return acc;
  });
  def(in, "enumerate", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.empty()) fail(loc, "enumerate() takes an iterable");
    int64_t start = a.pos.size() > 1 ? to_int(a.pos[1], "enumerate", loc) : 0;
    for (const auto& [k, v] : a.kw) {
      if (k == "start") start = to_int(v, "enumerate", loc);
    }
    std::vector<Value> out;
    for (const Value& v : in.iterate(a.pos[0], loc)) out.push_back(in.tuple({Value::integer(start++), v}));
    return in.list(std::move(out));
  });
  def(in, "zip", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    std::vector<std::vector<Value>> seqs;
    size_t n = SIZE_MAX;
    for (const Value& v : a.pos) {
      seqs.push_back(in.iterate(v, loc));
      n = std::min(n, seqs.back().size());
    }
    if (seqs.empty()) n = 0;
    std::vector<Value> out;
    for (size_t i = 0; i < n; ++i) {
      std::vector<Value> row;
      for (const auto& s : seqs) row.push_back(s[i]);
      out.push_back(in.tuple(std::move(row)));
    }
    return in.list(std::move(out));
  });
  def(in, "map", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 2) fail(loc, "map() with one iterable only");
    std::vector<Value> out;
    for (const Value& v : in.iterate(a.pos[1], loc)) {
      CallArgs c;
      c.pos.push_back(v);
      out.push_back(in.call(a.pos[0], c, loc));
    }
    return in.list(std::move(out));
  });
  def(in, "filter", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 2) fail(loc, "filter() takes a function and an iterable");
    std::vector<Value> out;
    for (const Value& v : in.iterate(a.pos[1], loc)) {
      bool keep;
      if (a.pos[0].is_none()) {
        keep = in.truthy(v, loc);
      } else {
        CallArgs c;
        c.pos.push_back(v);
        keep = in.truthy(in.call(a.pos[0], c, loc), loc);
      }
      if (keep) out.push_back(v);
    }
    return in.list(std::move(out));
  });
  def(in, "isinstance", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 2) fail(loc, "isinstance() takes two arguments");
    return Value::boolean(in.isinstance(a.pos[0], a.pos[1], loc));
  });
  def(in, "issubclass", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 2 || !a.pos[0].is(Kind::Class)) fail(loc, "issubclass() takes two classes");
    std::vector<Value> classes = a.pos[1].is(Kind::Tuple) ? items_of(a.pos[1]) : std::vector<Value>{a.pos[1]};
    const auto& mro = a.pos[0].as<ClassObj>()->mro;
    for (const Value& c : classes) {
      if (c.is(Kind::Class) && std::find(mro.begin(), mro.end(), c.as<ClassObj>()) != mro.end())
        return Value::boolean(true);
    }
    return Value::boolean(false);
  });
  def(in, "callable", [](Interp&, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "callable() takes one argument");
    Kind k = a.pos[0].kind;
    return Value::boolean(k == Kind::Function || k == Kind::Method || k == Kind::Builtin || k == Kind::Class ||
                          (k == Kind::Instance && a.pos[0].as<InstanceObj>()->is_module()));
  });
  def(in, "type", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "type() takes one argument");
    const Value& v = a.pos[0];
    if (v.is(Kind::Instance)) return Value::of(Kind::Class, v.as<InstanceObj>()->cls);
    if (v.is(Kind::Tensor))
      return Value::of(Kind::Class, tensor_of(v)->is_param ? in.parameter_class : in.tensor_class);
    return Value::of(Kind::Class, in.builtin_class(kind_name(v.kind)));
  });
  def(in, "getattr", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() < 2 || a.pos.size() > 3) fail(loc, "getattr() takes two or three arguments");
    const std::string& name = to_str(a.pos[1], "getattr", loc);
    if (a.pos.size() == 3 && !in.has_attr(a.pos[0], name)) return a.pos[2];
    return in.get_attr(a.pos[0], name, loc);
  });
  def(in, "setattr", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 3) fail(loc, "setattr() takes three arguments");
    in.set_attr(a.pos[0], to_str(a.pos[1], "setattr", loc), a.pos[2], loc);
    return Value::none();
  });
  def(in, "hasattr", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 2) fail(loc, "hasattr() takes two arguments");
    return Value::boolean(in.has_attr(a.pos[0], to_str(a.pos[1], "hasattr", loc)));
  });
  def(in, "round", [](Interp&, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.empty() || a.pos.size() > 2) fail(loc, "round() takes one or two arguments");
    const Value& v = a.pos[0];
    if (v.is(Kind::Tensor)) fail(loc, "round() of a tensor is not supported");
    if (a.pos.size() == 1 || a.pos[1].is_none()) {
      if (v.is_int_like()) return Value::integer(v.as_int());
      return Value::integer(static_cast<int64_t>(round_half_even(to_float(v, "round", loc))));
    }
    int64_t nd = to_int(a.pos[1], "round", loc);
    if (v.is_int_like() && nd >= 0) return Value::integer(v.as_int());
    double scale = std::pow(10.0, static_cast<double>(nd));
    return Value::floating(round_half_even(to_float(v, "round", loc) * scale) / scale);
  });
  def(in, "sorted", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "sorted() takes one iterable");
    Value key;
    bool reverse = false;
    for (const auto& [k, v] : a.kw) {
      if (k == "key")
        key = v;
      else if (k == "reverse")
        reverse = in.truthy(v, loc);
      else
        fail(loc, "sorted() got an unexpected keyword argument '" + k + "'");
    }
    std::vector<Value> items = in.iterate(a.pos[0], loc);
    std::vector<std::pair<Value, Value>> keyed;
    for (const Value& v : items) {
      Value k = v;
      if (!key.is_none()) {
        CallArgs c;
        c.pos.push_back(v);
        k = in.call(key, c, loc);
      }
      keyed.emplace_back(k, v);
    }
    std::stable_sort(keyed.begin(), keyed.end(), [&](const auto& x, const auto& y) {
      return in.truthy(in.compare(ast::Op::Lt, reverse ? y.first : x.first, reverse ? x.first : y.first, loc), loc);
    });
    std::vector<Value> out;
    for (auto& [k, v] : keyed) out.push_back(v);
    return in.list(std::move(out));
  });
  def(in, "reversed", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "reversed() takes one argument");
    std::vector<Value> items = in.iterate(a.pos[0], loc);
    std::reverse(items.begin(), items.end());
    return in.list(std::move(items));
  });
  def(in, "any", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "any() takes one argument");
    for (const Value& v : in.iterate(a.pos[0], loc)) {
      if (in.truthy(v, loc)) return Value::boolean(true);
    }
    return Value::boolean(false);
  });
  def(in, "all", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "all() takes one argument");
    for (const Value& v : in.iterate(a.pos[0], loc)) {
      if (!in.truthy(v, loc)) return Value::boolean(false);
    }
    return Value::boolean(true);
  });
  def(in, "divmod", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 2) fail(loc, "divmod() takes two arguments");
    return in.tuple(
        {in.binary(ast::Op::FloorDiv, a.pos[0], a.pos[1], loc), in.binary(ast::Op::Mod, a.pos[0], a.pos[1], loc)});
  });
  def(in, "pow", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 2) fail(loc, "pow() with two arguments only");
    return in.binary(ast::Op::Pow, a.pos[0], a.pos[1], loc);
  });
  def(in, "repr", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "repr() takes one argument");
    std::string r = literal_repr(a.pos[0]);
    return in.str(r.empty() ? py_str(a.pos[0]) : r);
  });
  in.builtins["NotImplemented"] = Value::none();
  // Exceptions: constructing one is fine (it may sit in a branch that does not run); raising is an error.
  for (const char* name : {"Exception", "ValueError", "TypeError", "RuntimeError", "NotImplementedError",
                           "AssertionError", "KeyError", "IndexError", "AttributeError", "ImportError"}) {
    ClassObj* c = in.builtin_class(name);
    c->ctor = [](Interp& in, const Value& cls, CallArgs& a, SourceLoc) {
      auto* e = in.heap.make<InstanceObj>();
      e->cls = cls.as<ClassObj>();
      e->attrs.push_back({"args", Slot::Plain, true, in.tuple(a.pos)});
      return Value::of(Kind::Instance, e);
    };
    in.builtins[name] = Value::of(Kind::Class, c);
  }

  // math
  const std::pair<const char*, double (*)(double)> unary_math[] = {
      {"sqrt", std::sqrt}, {"exp", std::exp},   {"tanh", std::tanh},   {"sin", std::sin},     {"cos", std::cos},
      {"tan", std::tan},   {"atan", std::atan}, {"asin", std::asin},   {"acos", std::acos},   {"erf", std::erf},
      {"fabs", std::fabs}, {"log2", std::log2}, {"log10", std::log10}, {"log1p", std::log1p}, {"expm1", std::expm1},
      {"sinh", std::sinh}, {"cosh", std::cosh}};
  for (const auto& [name, f] : unary_math) def_math(in, name, f);
  in.registry["math.log"] = in.native("math.log", [](Interp&, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.empty() || a.pos.size() > 2) fail(loc, "math.log takes one or two arguments");
    double x = to_float(a.pos[0], "math.log", loc);
    if (x <= 0) fail(loc, "math.log: math domain error");
    double r = std::log(x);
    if (a.pos.size() == 2) r /= std::log(to_float(a.pos[1], "math.log", loc));
    return Value::floating(r);
  });
  in.registry["math.pow"] = in.native("math.pow", [](Interp&, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 2) fail(loc, "math.pow takes two arguments");
    return Value::floating(std::pow(to_float(a.pos[0], "math.pow", loc), to_float(a.pos[1], "math.pow", loc)));
  });
  in.registry["math.atan2"] = in.native("math.atan2", [](Interp&, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 2) fail(loc, "math.atan2 takes two arguments");
    return Value::floating(std::atan2(to_float(a.pos[0], "math.atan2", loc), to_float(a.pos[1], "math.atan2", loc)));
  });
  for (const char* name : {"floor", "ceil", "trunc"}) {
    std::string n = name;
    in.registry["math." + n] = in.native("math." + n, [n](Interp&, const Value&, CallArgs& a, SourceLoc loc) {
      if (a.pos.size() != 1) fail(loc, "math." + n + " takes one argument");
      if (a.pos[0].is_int_like()) return Value::integer(a.pos[0].as_int());
      double x = to_float(a.pos[0], "math." + n, loc);
      double r = n == "floor" ? std::floor(x) : n == "ceil" ? std::ceil(x) : std::trunc(x);
      if (!std::isfinite(r)) fail(loc, "math." + n + ": cannot convert " + py_str(a.pos[0]) + " to an integer");
      return Value::integer(static_cast<int64_t>(r));
    });
  }
  in.registry["math.isqrt"] = in.native("math.isqrt", [](Interp&, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "math.isqrt takes one argument");
    int64_t n = to_int(a.pos[0], "math.isqrt", loc);
    if (n < 0) fail(loc, "math.isqrt of a negative number");
    int64_t r = static_cast<int64_t>(std::sqrt(static_cast<double>(n)));
    while (r * r > n) --r;
    while ((r + 1) * (r + 1) <= n) ++r;
    return Value::integer(r);
  });
  in.registry["math.gcd"] = in.native("math.gcd", [](Interp&, const Value&, CallArgs& a, SourceLoc loc) {
    int64_t g = 0;
    for (const Value& v : a.pos) {
      int64_t x = std::llabs(to_int(v, "math.gcd", loc));
      while (x) {
        int64_t t = g % x;
        g = x;
        x = t;
      }
    }
    return Value::integer(g);
  });
  in.registry["math.prod"] = in.native("math.prod", [](Interp& in, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 1) fail(loc, "math.prod takes one iterable");
    Value acc = Value::integer(1);
    for (const Value& v : in.iterate(a.pos[0], loc)) acc = in.binary(ast::Op::Mul, acc, v, loc);
    return acc;
  });
  in.registry["math.isclose"] = in.native("math.isclose", [](Interp&, const Value&, CallArgs& a, SourceLoc loc) {
    if (a.pos.size() != 2) fail(loc, "math.isclose takes two numbers");
    double x = to_float(a.pos[0], "math.isclose", loc), y = to_float(a.pos[1], "math.isclose", loc);
    return Value::boolean(std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y)));
  });
  in.registry["math.pi"] = Value::floating(M_PI);
  in.registry["math.e"] = Value::floating(M_E);
  in.registry["math.tau"] = Value::floating(2 * M_PI);
  in.registry["math.inf"] = Value::floating(INFINITY);
  in.registry["math.nan"] = Value::floating(NAN);

  register_str_methods(in);
  register_list_methods(in);
  register_dict_methods(in);
}

}  // namespace tz::tracer
