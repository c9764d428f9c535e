// lower: names every tensor of the forward (inputs, parameters, buffers), lowers each kernel by its kind and
// records the launches in execution order, then the returned values as views of buffers.
#include "kernel/lower.h"

#include <algorithm>
#include <map>
#include <set>

#include "graph/view.h"
#include "kernel/lower_kinds.h"

namespace tz {

int64_t next_pow2(int64_t v) {
  int64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}

TStmt count_in(std::vector<TStmt>& body, TileBuilder& b, TileArena& arena, const TExpr* counter, const TExpr* parts,
               const std::string& what) {
  body.push_back(TStmt{TStmtKind::Barrier});  // every thread's partials stored before the release
  TExpr arrive{TOp::AtomicAdd, "acq_rel"};
  arrive.args = {counter, b.i(1)};
  body.push_back(TileBuilder::assign("seen", arena.make(arrive)));
  TStmt finish{TStmtKind::If};
  finish.value = b.op(TOp::Eq, {b.var("seen"), b.op(TOp::Sub, {parts, b.i(1)})});
  finish.body.push_back(TileBuilder::comment(what));
  finish.body.push_back(TileBuilder::store(counter, b.i(0), nullptr));
  finish.body.push_back(TStmt{TStmtKind::Barrier});
  return finish;
}

void partials_scratch(KernelJob& job, bool with_index, int64_t counters) {
  job.kernel.params.push_back({"work_ptr", ParamKind::Pointer});
  job.launch.args.push_back({"work_ptr", "work"});
  if (with_index) {
    job.kernel.params.push_back({"index_ptr", ParamKind::Pointer});
    job.launch.args.push_back({"index_ptr", "index"});
  }
  job.kernel.params.push_back({"count_ptr", ParamKind::Pointer});
  job.launch.args.push_back({"count_ptr", "count"});
  job.launch.scratch = {"work"};
  if (with_index) job.launch.scratch.push_back("index");
  job.launch.counter_param = "count_ptr";
  job.launch.counter_size = counters;
}

int64_t narrowest_element(const Group& g) {
  std::set<const Node*> in_group(g.nodes.begin(), g.nodes.end());
  in_group.insert(g.inlined.begin(), g.inlined.end());  // (recomputed, not loaded)
  int64_t numel = 1, size = 8;
  for (int64_t d : g.space) numel *= d;
  auto full = [&](const Node* n) {
    int64_t k = 1;
    for (int64_t d : n->shape) k *= d;
    return k == numel;
  };
  for (const Node* o : g.outputs) {
    if (full(o)) size = std::min<int64_t>(size, dtype_size(o->dtype));
  }
  for (const Node* n : g.nodes) {
    for (const Node* src : n->src) {
      const Node* root = view_root(src);
      if (!in_group.count(root) && root->op != Op::Const && root->op != Op::Iota && full(root)) {
        size = std::min<int64_t>(size, dtype_size(root->dtype));
      }
    }
  }
  return std::max<int64_t>(size, 1);
}

int64_t narrowest_load(const Group& g) {
  std::set<const Node*> in_group(g.nodes.begin(), g.nodes.end());
  in_group.insert(g.inlined.begin(), g.inlined.end());
  const int64_t n = numel(g.space);
  int64_t size = 8;
  for (const Node* node : in_group) {
    for (const Node* src : node->src) {
      const Node* root = view_root(src);
      if (!in_group.count(root) && root->op != Op::Const && root->op != Op::Iota && numel(root->shape) == n) {
        size = std::min<int64_t>(size, dtype_size(root->dtype));
      }
    }
  }
  return size;
}

std::vector<int> group_map(const Group& g, const Node* n) {
  std::vector<int> map;
  if (n->shape == g.space) {
    for (size_t d = 0; d < n->shape.size(); ++d) map.push_back(n->shape[d] == 1 ? -1 : static_cast<int>(d));
    return map;
  }
  auto reduced = [&](size_t d) { return std::find(g.axes.begin(), g.axes.end(), (int64_t)d) != g.axes.end(); };
  if (n->shape.size() == g.space.size()) {
    for (size_t d = 0; d < n->shape.size(); ++d) map.push_back(reduced(d) || n->shape[d] == 1 ? -1 : static_cast<int>(d));
    return map;
  }
  size_t j = 0;
  for (size_t d = 0; d < g.space.size(); ++d) {
    if (reduced(d)) continue;
    map.push_back(n->shape[j] == 1 ? -1 : static_cast<int>(d));
    ++j;
  }
  TZ_ASSERT(j == n->shape.size(), "value does not fit its kernel's space");
  return map;
}

std::vector<int64_t> operand_strides(const Node* operand, size_t rank) {
  std::vector<int64_t> st;
  TZ_ASSERT(view_strides(operand, st), "kernel operand is not a strided view");
  std::vector<int64_t> aligned(rank, 0);
  size_t offset = rank - st.size();
  for (size_t j = 0; j < st.size(); ++j) aligned[j + offset] = operand->shape[j] == 1 ? 0 : st[j];
  return aligned;
}

const TExpr* operand_base(TileBuilder& b, const std::string& ptr, const Node* operand) {
  std::vector<int64_t> strides;
  int64_t offset = 0;
  TZ_ASSERT(view_layout(operand, strides, offset), "kernel operand is not a strided view");
  TZ_ASSERT(operand->op != Op::Pad, "a padded kernel operand (it needs a masked load)");
  const TExpr* base = b.var(ptr);
  if (offset > 0) return b.add(base, b.i(offset));
  if (offset < 0) return b.op(TOp::Sub, {base, b.i(-offset)});
  return base;
}

int64_t batch_offsets(TileBuilder& b, std::vector<TStmt>& body, ValueEmitter& ve, const Shape& space,
                   const std::vector<const std::vector<int64_t>*>& strides, std::vector<const TExpr*>& bases) {
  int rank = static_cast<int>(space.size());
  int64_t batch = 1;
  for (int d = 0; d < rank - 2; ++d) batch *= space[d];
  if (batch == 1) return batch;
  body.push_back(TileBuilder::assign("bidx", b.program_id(1)));
  int64_t inner = 1;
  for (int d = rank - 3; d >= 0; --d) {
    if (space[d] == 1) continue;
    const TExpr* idx = b.var("bidx");
    if (inner != 1) idx = b.op(TOp::FloorDiv, {idx, b.i(inner)});
    if (inner * space[d] != batch) idx = b.op(TOp::Mod, {idx, b.i(space[d])});
    std::string name = "b" + std::to_string(d);
    body.push_back(TileBuilder::assign(name, idx));
    ve.index[d] = b.var(name);
    for (size_t k = 0; k < bases.size(); ++k) {
      if (bases[k] && (*strides[k])[d]) bases[k] = b.add(bases[k], b.mul(b.var(name), b.i((*strides[k])[d])));
    }
    inner *= space[d];
  }
  return batch;
}

const TExpr* KernelJob::constexpr_param(const std::string& name, int64_t value) {
  kernel.params.push_back({name, ParamKind::Constexpr});
  launch.args.push_back({name, std::to_string(value)});
  TileBuilder b(arena);
  return b.var(name);
}

namespace {

std::string kernel_name(const Group& g) {
  std::vector<std::string> parts;
  for (auto* n : g.nodes) {
    if (n->op == Op::Cast || n->op == Op::Copy || op_kind(n->op) == OpKind::View) continue;
    std::string name = op_name(n->op);
    if (g.writes_cat(n)) name = "cat";  // (a scan's store epilogue)
    if (n->op == Op::Conv) {
      name = std::string(n->attr.ints2[1] ? "conv_transpose" : "conv") + std::to_string(n->rank() - 2) + "d";
    }
    if (std::find(parts.begin(), parts.end(), name) == parts.end()) parts.push_back(name);
  }
  if (parts.empty()) parts.push_back("copy");
  if (parts.size() == 1 && g.kind == GroupKind::Matmul) return "matmul_kernel";
  if (parts.size() == 1 && g.kind == GroupKind::Conv) return parts[0] + "_kernel";
  if (parts.size() == 1 && g.kind == GroupKind::Window) {  // "max_pool2d_kernel", "max_pool2d_with_indices_kernel"
    bool indices = false;
    for (auto* n : g.nodes) indices = indices || n->attr.str == "indices";
    std::string suffix = !indices ? "d_kernel" : g.nodes[0]->attr.str == "indices" ? "d_indices_kernel"
                                                                                  : "d_with_indices_kernel";
    return parts[0] + std::to_string(pooled_dims(g.nodes[0])) + suffix;
  }
  if (parts.size() == 1 && g.kind == GroupKind::Attention) return "attention_kernel";
  std::string out = "fused";
  if (parts.size() == 1) {
    out = g.kind == GroupKind::Reduction ? "reduce" : g.kind == GroupKind::Scan ? "scan" : "pointwise";
  }
  for (size_t i = 0; i < parts.size() && i < 5; ++i) out += "_" + parts[i];
  return out + "_kernel";
}

std::vector<std::string> source_comments(const Group& g, const std::string& source_name) {
  std::set<int> lines;
  const SourceFile* file = nullptr;
  for (auto* n : g.nodes) {
    if (n->loc.file && n->loc.line > 0) {
      lines.insert(n->loc.line);
      file = n->loc.file;
    }
  }
  std::vector<std::string> out;
  for (int line : lines) {
    std::string text = file->line(line);
    size_t start = text.find_first_not_of(" \t");
    out.push_back(source_name + ":" + std::to_string(line) + "  " + (start == std::string::npos ? "" : text.substr(start)));
  }
  return out;
}

void count_uses(const TExpr* e, std::map<std::string, int>& uses) {
  if (!e) return;
  if (e->op == TOp::Var) ++uses[e->name];
  for (auto* a : e->args) count_uses(a, uses);
}

void count_uses(const std::vector<TStmt>& body, std::map<std::string, int>& uses) {
  for (const auto& s : body) {
    for (const TExpr* e : {s.value, s.ptr, s.mask, s.start, s.stop, s.step}) count_uses(e, uses);
    count_uses(s.body, uses);
  }
}

bool drop_unused(std::vector<TStmt>& body, const std::map<std::string, int>& uses) {
  size_t before = body.size();
  body.erase(std::remove_if(body.begin(), body.end(),
                            [&](const TStmt& s) { return s.kind == TStmtKind::Assign && !uses.count(s.var); }),
             body.end());
  bool changed = body.size() != before;
  for (auto& s : body) changed = drop_unused(s.body, uses) || changed;
  return changed;
}

// Lowering names every index it might need; the ones no load or store used are dropped.
void remove_dead_assignments(Kernel& k) {
  while (true) {
    std::map<std::string, int> uses;
    count_uses(k.body, uses);
    if (!drop_unused(k.body, uses)) return;
  }
}

// Python for a parameter path: "seq.0.weight" -> self.seq[0].weight (children of nn.Sequential / ModuleList
// are numbered).
std::string attribute_expression(const std::string& path) {
  std::string out = "self";
  size_t start = 0;
  while (start <= path.size()) {
    size_t dot = path.find('.', start);
    std::string part = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    bool index = !part.empty() && std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
    out += index ? "[" + part + "]" : "." + part;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return out;
}

// Python for a view chain over a buffer: x.permute(1, 0).view(4, 8)
std::string view_expression(const Node* n, const std::map<const Node*, std::string>& names) {
  if (op_kind(n->op) != OpKind::View) return names.at(n);
  std::string base = view_expression(n->src[0], names);
  auto list = [](const std::vector<int64_t>& v) {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s;
  };
  switch (n->op) {
    case Op::Permute: return base + ".permute(" + list(n->attr.ints) + ")";
    case Op::Expand: return base + ".expand(" + list(n->shape) + ")";
    case Op::Reshape: return base + ".view(" + (n->shape.empty() ? "()" : list(n->shape)) + ")";
    default: internal_error("a returned view that moves indices was not copied (fuse)", __FILE__, __LINE__);
  }
}

}  // namespace

ForwardPlan lower(const Schedule& s, TileArena& arena, const LowerOptions& options) {
  ForwardPlan plan;
  std::map<const Node*, std::string> names;
  for (const auto& n : s.graph->nodes()) {
    if (n->op == Op::Input) names[n.get()] = options.input_names.at(n->attr.ints[0]);
    if (n->op == Op::Param) names[n.get()] = attribute_expression(n->attr.str);
  }
  std::string device_of = options.input_names.empty() ? "" : options.input_names[0];
  // A buffer update is stored into the module's buffer itself, not into a new tensor.
  std::set<const Node*> updates;
  for (const auto& u : s.graph->updates) {
    updates.insert(u.value);
    names[u.value] = "self." + u.path;
  }
  int next_buffer = 0;
  for (const auto& g : s.groups) {
    for (auto* o : g.outputs) {
      if (updates.count(o)) continue;
      std::string name = "buf" + std::to_string(next_buffer++);
      names[o] = name;
    }
  }
  std::set<std::string> used_names;
  for (const auto& g : s.groups) {
    KernelJob job{s, g, arena, {}, {}, {}};
    job.buffers.python_name = names;
    for (auto* o : g.outputs) job.buffers.pointer(o);  // outputs first among the pointers
    switch (g.kind) {
      case GroupKind::Pointwise: lower_pointwise(job); break;
      case GroupKind::Reduction:
        if (!g.axes2.empty()) lower_two_axes(job);
        else if (lowers_as_pointwise_total(g)) lower_pointwise_total(job);
        else lower_reduction(job);
        break;
      case GroupKind::Scan: lower_scan(job); break;
      case GroupKind::Matmul:
        lower_matmul(job);
        plan.uses_matmul_precision = true;
        break;
      case GroupKind::Conv:
        lower_conv(job);
        break;
      case GroupKind::Attention:
        lower_attention(job);
        plan.uses_matmul_precision = true;
        break;
      case GroupKind::Window: lower_window(job); break;
    }
    // A TF32 rounding (Op::RoundTf32) reads the conv precision that the launcher computes.
    // A fp32 conv kernel (a round_tf32 fused into its epilogue) already has that PRECISION.
    if (std::any_of(g.nodes.begin(), g.nodes.end(), [](const Node* n) { return n->op == Op::RoundTf32; })) {
      bool has = std::any_of(job.kernel.params.begin(), job.kernel.params.end(),
                             [](const KernelParam& p) { return p.name == "PRECISION"; });
      if (!has) {
        job.kernel.params.push_back({"PRECISION", ParamKind::Constexpr});
        job.launch.args.push_back({"PRECISION", "conv_precision"});
      }
      job.kernel.needs_round_tf32 = true;
    }
    // expm1, log1p, division by a Python number and the sixth of hardsigmoid/hardswish compute as eager does on
    // the device they run on: the launcher passes ON_CUDA.
    auto has = [&](Op op) {
      auto is = [&](const Node* n) { return n->op == op; };
      return std::any_of(g.nodes.begin(), g.nodes.end(), is) || std::any_of(g.inlined.begin(), g.inlined.end(), is);
    };
    job.kernel.needs_expm1 = has(Op::Expm1);
    job.kernel.needs_log1p = has(Op::Log1p);
    job.kernel.needs_sixth = has(Op::Sixth);
    job.kernel.needs_round = has(Op::Round);
    auto float_fmod = [](const Node* n) { return n->op == Op::Fmod && is_floating(n->dtype); };
    job.kernel.needs_fmod = std::any_of(g.nodes.begin(), g.nodes.end(), float_fmod) ||
                            std::any_of(g.inlined.begin(), g.inlined.end(), float_fmod);
    job.kernel.needs_div_by_number = has(Op::DivByNumber);
    if (job.kernel.needs_expm1 || job.kernel.needs_log1p || job.kernel.needs_sixth || job.kernel.needs_div_by_number) {
      job.kernel.params.push_back({"ON_CUDA", ParamKind::Constexpr});
      job.launch.args.push_back({"ON_CUDA", "on_cuda"});
    }
    // A kernel that rounds 16-bit results where they are made (ValueEmitter::rounded_like_eager) compiles without
    // fma contraction: with it, the backend fused a rounded bf16 product into the add after it, through the
    // round trip (g + h of two rounded bf16 products: 10% of the elements an ulp off eager on the H200, exact
    // with enable_fp_fusion=False; docs/NUMERICS.md).
    if (std::any_of(g.nodes.begin(), g.nodes.end(), rounds_like_eager) ||
        std::any_of(g.inlined.begin(), g.inlined.end(), rounds_like_eager)) {
      job.launch.fp_fusion = false;
    }
    for (const auto& a : job.launch.args) plan.uses_conv_precision |= a.value == "conv_precision";
    // Parameters: tensors first (inputs in first-use order, then outputs), then compile-time sizes.
    std::vector<KernelParam> params;
    std::vector<LaunchArg> args;
    std::vector<std::pair<const Node*, std::string>> ordered;
    for (auto& u : job.buffers.used) {
      if (std::find(g.outputs.begin(), g.outputs.end(), u.first) == g.outputs.end()) ordered.push_back(u);
    }
    for (auto& u : job.buffers.used) {
      if (std::find(g.outputs.begin(), g.outputs.end(), u.first) != g.outputs.end()) ordered.push_back(u);
    }
    for (auto& [node, param] : ordered) {
      params.push_back({param, ParamKind::Pointer});
      args.push_back({param, names.at(node)});
    }
    for (auto& p : job.kernel.params) params.push_back(p);
    for (auto& a : job.launch.args) args.push_back(a);
    job.kernel.params = std::move(params);
    job.launch.args = std::move(args);

    std::string name = kernel_name(g);
    if (used_names.count(name)) name = name.substr(0, name.size() - 7) + "_" + std::to_string(g.id) + "_kernel";
    used_names.insert(name);
    job.kernel.name = name;
    job.kernel.source_comments = source_comments(g, options.source_name);
    remove_dead_assignments(job.kernel);
    for (auto* o : g.outputs) {
      if (updates.count(o)) continue;
      plan.buffers.push_back({names.at(o), o->shape, o->dtype, device_of});
      job.launch.produces.push_back(names.at(o));
    }
    job.launch.kernel = static_cast<int>(plan.kernels.size());
    plan.kernels.push_back(std::move(job.kernel));
    plan.launches.push_back(std::move(job.launch));
  }
  for (auto* o : s.graph->outputs) plan.results.push_back(view_expression(o, names));
  plan.result_is_tuple = s.graph->output_is_tuple;
  return plan;
}

}  // namespace tz
