// ModelNew writer (see model_writer.h).
#include "emit/model_writer.h"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "emit/triton_printer.h"
#include "emit/writer.h"

namespace tz {

namespace {

std::string tuple_text(const std::vector<int64_t>& v) {
  std::string s = "(";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  if (v.size() == 1) s += ",";
  return s + ")";
}

bool is_pointer(const Kernel& k, const std::string& param) {
  for (const auto& p : k.params) {
    if (p.name == param) return p.kind == ParamKind::Pointer;
  }
  return false;
}

std::string strip_ptr(const std::string& name) { return name.substr(0, name.size() - 4); }

std::string launcher_name(const Kernel& k) { return k.name.substr(0, k.name.size() - 7); }  // drop "_kernel"

// The ModelNew attribute holding a launch's counters (Launch::counter_param).
std::string counter_attribute(const Kernel& k) { return "_" + launcher_name(k) + "_counts"; }

// The float type that buffers follow at run time: the traced type of the first floating input. Buffers of
// that type are allocated like that input, so ModelNew keeps working after .half() / .to(torch.bfloat16).
struct DtypeRule {
  std::string input;  // "" when no floating input
  DType traced = DType::Float32;
  std::string device_input;  // forward's first tensor: its device for launchers that read no tensor
  bool follows(const BufferAlloc& b) const { return !input.empty() && b.dtype == traced; }
  std::string for_buffer(const BufferAlloc& b) const { return follows(b) ? "dtype" : torch_dtype_name(b.dtype); }
};

// A launcher whose outputs follow the input's float type takes that type as `dtype`.
bool launcher_takes_dtype(const Launch& l, const ForwardPlan& plan, const DtypeRule& rule) {
  for (const auto& b : plan.buffers) {
    if (std::find(l.produces.begin(), l.produces.end(), b.name) != l.produces.end() && rule.follows(b)) return true;
  }
  return false;
}

// A launcher whose kernel reads no tensor (e.g. a count of constant targets) allocates on forward's device.
bool launcher_takes_device(const Kernel& k, const Launch& l, const DtypeRule& rule) {
  if (rule.device_input.empty()) return false;
  auto among = [](const std::vector<std::string>& names, const std::string& v) {
    return std::find(names.begin(), names.end(), v) != names.end();
  };
  return std::none_of(l.args.begin(), l.args.end(), [&](const LaunchArg& a) {
    return is_pointer(k, a.param) && !among(l.produces, a.value) && !among(l.scratch, a.value);
  });
}

void write_launcher(Writer& w, const Kernel& k, const Launch& l, const ForwardPlan& plan, const DtypeRule& rule) {
  // Launcher parameters: the kernel's input tensors; its outputs are allocated here and returned.
  std::vector<std::string> inputs, outputs;
  auto produced = [&](const std::string& v) { return std::find(l.produces.begin(), l.produces.end(), v) != l.produces.end(); };
  auto scratch = [&](const std::string& v) { return std::find(l.scratch.begin(), l.scratch.end(), v) != l.scratch.end(); };
  for (const auto& a : l.args) {
    if (!is_pointer(k, a.param) || scratch(a.value)) continue;
    if (produced(a.value)) outputs.push_back(a.param);
    else inputs.push_back(a.param);
  }
  std::string sig;
  for (const auto& p : inputs) sig += (sig.empty() ? "" : ", ") + strip_ptr(p);
  bool takes_device = launcher_takes_device(k, l, rule);
  if (takes_device) sig = "device";
  if (launcher_takes_dtype(l, plan, rule)) sig += (sig.empty() ? "" : ", ") + std::string("dtype");
  std::string launcher = launcher_name(k);
  w.line("def " + launcher + "(" + sig + "):");
  w.indent();
  std::string device = takes_device ? "device"
                       : inputs.empty() ? "torch.device(\"cuda\")" : strip_ptr(inputs.front()) + ".device";
  for (const auto& a : l.args) {
    if (!is_pointer(k, a.param) || !produced(a.value)) continue;
    for (const auto& b : plan.buffers) {
      if (b.name != a.value) continue;
      std::string dtype = rule.for_buffer(b);
      w.line(strip_ptr(a.param) + " = torch.empty(" + tuple_text(b.shape) + ", device=" + device + ", dtype=" + dtype + ")");
    }
  }
  bool precision = false;
  for (const auto& a : l.args) precision = precision || a.value == "precision";
  if (precision) {
    w.line("precision = \"ieee\" if " + strip_ptr(inputs.front()) + ".dtype != torch.float32 else _fp32_dot_precision()");
  }
  bool conv_precision = false;
  for (const auto& a : l.args) conv_precision = conv_precision || a.value == "conv_precision";
  if (conv_precision) {
    std::string x = strip_ptr(inputs.front());
    w.line("conv_precision = \"ieee\" if " + x + ".dtype != torch.float32 else _fp32_conv_precision(" + x + ")");
  }
  if (std::any_of(l.args.begin(), l.args.end(), [](const LaunchArg& a) { return a.value == "on_cuda"; })) {
    w.line("on_cuda = " + device + ".type == \"cuda\"");
  }
  for (std::string line : l.setup) {
    for (size_t at; (at = line.find("{device}")) != std::string::npos;) line.replace(at, 8, device);
    for (size_t at; (at = line.find("{kernel}")) != std::string::npos;) line.replace(at, 8, k.name);
    w.line(line);
  }
  // tensors and sizes: for _coop_programs; args: every argument by name in the kernel's parameter order (which
  // _launch passes by position once the kernel is compiled).
  std::string tensors, sizes;
  std::vector<std::string> args;
  for (const KernelParam* p : signature_order(k)) {
    auto a = std::find_if(l.args.begin(), l.args.end(), [&](const LaunchArg& x) { return x.param == p->name; });
    if (a == l.args.end()) throw std::logic_error("launch of " + k.name + " has no argument for " + p->name);
    std::string value = p->kind == ParamKind::Pointer ? strip_ptr(a->param) : a->value;
    if (p->kind == ParamKind::Pointer) tensors += (tensors.empty() ? "" : ", ") + value;
    else sizes += (sizes.empty() ? "" : ", ") + a->param + "=" + value;
    args.push_back(a->param + "=" + value);
  }
  std::string opts = "num_warps=" + std::to_string(l.num_warps);
  if (l.num_stages > 0) opts += ", num_stages=" + std::to_string(l.num_stages);
  if (!l.fp_fusion) opts += ", enable_fp_fusion=False";
  if (!l.coop_groups.empty()) {
    w.line("programs = _coop_programs(" + k.name + ", " + l.coop_tiles + ", " + l.coop_groups + ", (" + tensors +
           ",), dict(" + (sizes.empty() ? "" : sizes + ", ") + opts + "))");
  }
  std::string grid;
  for (const auto& g : l.grid) grid += g + ", ";
  w.line("_launch(");
  w.indent();
  w.line(k.name + ", (" + grid.substr(0, grid.size() - 1) + "),");
  // dict(...) of the arguments, wrapped under its opening parenthesis at 100 columns of the launcher's body
  std::string line = "dict(";
  for (size_t i = 0; i < args.size(); ++i) {
    std::string item = args[i] + (i + 1 < args.size() ? "," : "),");
    if (line.size() > 5 && 8 + line.size() + 1 + item.size() > 100) {
      w.line(line);
      line = "     ";
    } else if (line.size() > 5) {
      line += " ";
    }
    line += item;
  }
  w.line(line);
  w.line("dict(" + opts + "),");
  w.dedent();
  w.line(")");
  std::string ret;
  for (const auto& o : outputs) ret += (ret.empty() ? "" : ", ") + strip_ptr(o);
  if (!ret.empty()) w.line("return " + ret);  // a kernel that only updates buffers returns nothing
  w.dedent();
}

// _launch: every kernel launch of forward goes through it (docs/ARCHITECTURE.md, "Launches").
void write_launch_helper(Writer& w) {
  w.line();
  w.line("_COMPILED = {}  # Triton's compiled kernels by what it specializes them on (like Triton's own cache)");
  w.line();
  w.line();
  w.line("def _launch(kernel, grid, args, options):");
  w.line("    # kernel[grid](**args, **options), args in the kernel's parameter order. Triton binds, specializes and");
  w.line("    # hashes every argument on each launch (about 10 us of Python, longer than many kernels run); here that");
  w.line("    # happens once for each signature it specializes on (the current device, each tensor's dtype and 16-byte");
  w.line("    # alignment, the other arguments' values, the options), and later launches go straight to the compiled");
  w.line("    # kernel's launcher. Triton's interpreter, and launch hooks (profilers), take Triton's path every time.");
  w.line("    hooks = triton.knobs.runtime");
  w.line("    if (not isinstance(kernel, triton.runtime.JITFunction) or hooks.launch_enter_hook.calls");
  w.line("            or hooks.launch_exit_hook.calls):");
  w.line("        kernel[grid](**args, **options)");
  w.line("        return");
  w.line("    device = triton.runtime.driver.active.get_current_device()");
  w.line("    key = (kernel, device, *options.values(),");
  w.line("           *[(a.dtype, a.data_ptr() % 16 == 0) if isinstance(a, torch.Tensor) else a for a in args.values()])");
  w.line("    compiled = _COMPILED.get(key)");
  w.line("    if compiled is None:");
  w.line("        _COMPILED[key] = kernel[grid](**args, **options)");
  w.line("        return");
  w.line("    grid = tuple(grid) + (1,) * (3 - len(grid))");
  w.line("    stream = triton.runtime.driver.active.get_current_stream(device)");
  w.line("    compiled.run(*grid, stream, compiled.function, compiled.packed_metadata, None, None, None, *args.values())");
  w.line();
}

}  // namespace

std::string write_model(const TraceResult& trace, const Graph& graph, const ForwardPlan& plan,
                        const std::string& source_name) {
  Writer w;
  w.line("\"\"\"Triton implementation of Model in " + source_name + ", generated by tritonize.");
  w.line();
  w.line("Every operation of forward() runs in the Triton kernels below. ModelNew creates the same parameters as");
  w.line("Model, with the same names, shapes and random draws, so that under one seed both hold identical weights.");
  w.line("\"\"\"");
  w.line("import math");
  w.line();
  w.line("import torch");
  w.line("import torch.nn as nn");
  w.line("import triton");
  // The file-level helpers some kernel calls (Kernel's needs_* flags), each printed once.
  auto needed = [&](bool Kernel::*flag) {
    return std::any_of(plan.kernels.begin(), plan.kernels.end(), [&](const Kernel& k) { return k.*flag; });
  };
  w.line("import triton.language as tl");
  if (needed(&Kernel::needs_expm1) || needed(&Kernel::needs_log1p)) {
    w.line("from triton.language.extra import libdevice");
  }
  w.line();
  write_launch_helper(w);
  if (needed(&Kernel::needs_mul_combine)) {
    w.line();
    w.line("@triton.jit");
    w.line("def _mul_combine(a, b):");
    w.line("    return a * b");
    w.line();
  }
  if (needed(&Kernel::needs_nan_combine)) {
    w.line();
    w.line("@triton.jit");
    w.line("def _nan_max(a, b):");
    w.line("    # PyTorch's max: a NaN wins (tl.max keeps the number on the GPU)");
    w.line("    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)");
    w.line();
    w.line();
    w.line("@triton.jit");
    w.line("def _nan_min(a, b):");
    w.line("    return tl.minimum(a, b, propagate_nan=tl.PropagateNan.ALL)");
    w.line();
  }
  if (needed(&Kernel::needs_round_tf32)) {
    w.line();
    w.line("@triton.jit");
    w.line("def _round_tf32(x, PRECISION: tl.constexpr):");
    w.line("    # TF32 tensor cores read only an fp32 operand's top 19 bits (the rest is dropped); cuDNN rounds to");
    w.line("    # nearest first (ties to even in its sm90 engines), so the same products need the same rounding here.");
    w.line("    # NaN stays NaN.");
    w.line("    if PRECISION == \"tf32\":");
    w.line("        bits = x.to(tl.uint32, bitcast=True)");
    w.line("        rounded = ((bits + 0xFFF + ((bits >> 13) & 1)) & 0xFFFFE000).to(tl.float32, bitcast=True)");
    w.line("        x = tl.where(x == x, rounded, x)");
    w.line("    return x");
    w.line();
  }
  if (needed(&Kernel::needs_expm1)) {
    w.line();
    w.line("@triton.jit");
    w.line("def _expm1(x, ON_CUDA: tl.constexpr):");
    w.line("    # exp(x) - 1 as torch computes it (torch.expm1, ATen's elu, selu and celu), with the digits that");
    w.line("    # tl.exp(x) - 1 loses near 0. On CUDA: libdevice's expm1f, the CUDA math library's, which eager calls.");
    w.line("    # Triton's interpreter cannot call libdevice; there, Kahan's form: with u = exp(x) rounded,");
    w.line("    # (u - 1) * (x / log(u)) cancels the rounding of u (within 6 ulps of expm1: docs/NUMERICS.md).");
    w.line("    if ON_CUDA:");
    w.line("        y = libdevice.expm1(x)");
    w.line("    else:");
    w.line("        u = tl.exp(x)");
    w.line("        um1 = u - 1.0");
    w.line("        exact = (um1 == -1.0) | (u == float(\"inf\"))");
    w.line("        y = tl.where(u == 1.0, x, tl.where(exact, um1, um1 * (x / tl.log(u))))");
    w.line("    return y");
    w.line();
  }
  if (needed(&Kernel::needs_log1p)) {
    w.line();
    w.line("@triton.jit");
    w.line("def _log1p(x, ON_CUDA: tl.constexpr):");
    w.line("    # log(1 + x) as torch computes it (torch.log1p, ATen's log_sigmoid), with the digits that");
    w.line("    # tl.log(1 + x) loses near 0. On CUDA: libdevice's log1pf, the CUDA math library's, which eager calls.");
    w.line("    # Triton's interpreter cannot call libdevice; there, Goldberg's form: with u = 1 + x rounded,");
    w.line("    # log(u) * (x / (u - 1)) cancels the rounding of u (within 5 ulps of log1p: docs/NUMERICS.md).");
    w.line("    if ON_CUDA:");
    w.line("        y = libdevice.log1p(x)");
    w.line("    else:");
    w.line("        u = 1.0 + x");
    w.line("        exact = (u == 1.0) | (u == float(\"inf\"))");
    w.line("        y = tl.where(exact, tl.where(u == 1.0, x, u), tl.log(u) * (x / (u - 1.0)))");
    w.line("    return y");
    w.line();
  }
  if (needed(&Kernel::needs_round)) {
    w.line();
    w.line("@triton.jit");
    w.line("def _round_half_even(x):");
    w.line("    # torch.round: to the nearest integer, ties to even (nearbyint). Below 2^23, adding and subtracting 2^23");
    w.line("    # rounds |x| in the float32 add itself (to nearest, ties to even); from 2^23 on every float32 is an");
    w.line("    # integer (inf and NaN stay). The sign bit is x's, so -0.3 and -0.0 round to -0.0 as in PyTorch.");
    w.line("    a = tl.abs(x)");
    w.line("    r = tl.where(a < 8388608.0, (a + 8388608.0) - 8388608.0, a)");
    w.line("    bits = r.to(tl.uint32, bitcast=True) | (x.to(tl.uint32, bitcast=True) & 0x80000000)");
    w.line("    return bits.to(tl.float32, bitcast=True)");
    w.line();
  }
  if (needed(&Kernel::needs_fmod)) {
    w.line();
    w.line("@triton.jit");
    w.line("def _fmod(a, b):");
    w.line("    # C's fmod(a, b) of float32 values, exact as CUDA's fmodf, which eager calls (Triton's float % is LLVM's");
    w.line("    # frem on the GPU; the interpreter cannot call libdevice): |a| = ma * 2^ea and |b| = mb * 2^eb with");
    w.line("    # integer significands; the remainder of ma * 2^(ea - eb) by mb, 39 bits of the quotient a step in");
    w.line("    # int64 (steps: the tile's largest exponent difference / 39, at most 7), is the result's significand");
    w.line("    # at b's exponent, with a's sign. b = 0, an infinite a or a NaN give NaN; |a| < |b| gives a.");
    w.line("    ia = tl.cast(a, tl.int32, bitcast=True) & 0x7FFFFFFF");
    w.line("    ib = tl.cast(b, tl.int32, bitcast=True) & 0x7FFFFFFF");
    w.line("    ia, ib = tl.broadcast(ia, ib)");
    w.line("    fa = ia >> 23");
    w.line("    fb = ib >> 23");
    w.line("    live = (ia >= ib) & (ib != 0) & (ia < 0x7F800000)");
    w.line("    ma = tl.where(fa == 0, ia, (ia & 0x7FFFFF) | 0x800000).to(tl.int64)");
    w.line("    mb = tl.where(live, tl.where(fb == 0, ib, (ib & 0x7FFFFF) | 0x800000), 1).to(tl.int64)");
    w.line("    eb = tl.maximum(fb, 1)");
    w.line("    d = tl.where(live, tl.maximum(fa, 1) - eb, 0)");
    w.line("    r = ma % mb");
    w.line("    for done in range(0, tl.max(d), 39):");
    w.line("        s = tl.minimum(tl.maximum(d - done, 0), 39)");
    w.line("        r = (r << s) % mb");
    w.line("    r32 = r.to(tl.int32)");
    w.line("    rf = r32.to(tl.float32)");
    w.line("    bits = tl.cast(rf, tl.int32, bitcast=True)");
    w.line("    # rf * 2^(eb - 150): an exponent add where the result is normal, else a multiply by b's unit");
    w.line("    normal = (bits >> 23) + (eb - 150) >= 1");
    w.line("    unit = tl.cast(tl.where(eb >= 24, 0, 1 << (eb - 1)), tl.float32, bitcast=True)");
    w.line("    scaled = tl.where(normal, bits + ((eb - 150) << 23), tl.cast(rf * unit, tl.int32, bitcast=True))");
    w.line("    sign = tl.cast(a, tl.int32, bitcast=True) & -2147483648");
    w.line("    res = tl.cast(tl.where(r32 == 0, 0, scaled) | sign, tl.float32, bitcast=True)");
    w.line("    nan = (ib == 0) | (ia >= 0x7F800000) | (ib > 0x7F800000)");
    w.line("    return tl.where(nan, float(\"nan\"), tl.where(live, res, a))");
    w.line();
  }
  if (needed(&Kernel::needs_div_by_number)) {
    w.line();
    w.line("@triton.jit");
    w.line("def _div_by_number(x, c, inv_c, ON_CUDA: tl.constexpr):");
    w.line("    # x / c for a Python number c (a quotient rounded to an integer next), as ATen's division kernels");
    w.line("    # compute it: on CUDA x * (1 / c) with the reciprocal rounded to float32 (the kernels' CPU-scalar");
    w.line("    # path), on the CPU x / c correctly rounded (Triton's `/` is approximate on the GPU).");
    w.line("    if ON_CUDA:");
    w.line("        y = x * inv_c");
    w.line("    else:");
    w.line("        y = tl.math.div_rn(x, c)");
    w.line("    return y");
    w.line();
  }
  if (needed(&Kernel::needs_sixth)) {
    w.line();
    w.line("@triton.jit");
    w.line("def _sixth(x, ON_CUDA: tl.constexpr):");
    w.line("    # x / 6 as ATen's hardsigmoid and hardswish compute it: their CUDA kernels multiply by the float 1/6,");
    w.line("    # their CPU kernels divide by 6 (an ulp apart for about a quarter of all x).");
    w.line("    if ON_CUDA:");
    w.line("        y = x * 0.16666666666666666");
    w.line("    else:");
    w.line("        y = x / 6.0");
    w.line("    return y");
    w.line();
  }
  if (needed(&Kernel::needs_tf32_split)) {
    w.line();
    w.line("@triton.jit");
    w.line("def _tf32_hi(x, PRECISION: tl.constexpr):");
    w.line("    # For tf32x3: the high part of an fp32 x, exactly a TF32 number (rounded to nearest, ties away, as");
    w.line("    # Triton's own tf32x3 does); x - hi is then exact. NaN and inf stay as they are. Other precisions");
    w.line("    # use x as it is.");
    w.line("    if PRECISION == \"tf32x3\":");
    w.line("        bits = x.to(tl.uint32, bitcast=True)");
    w.line("        x = tl.where(x == x, ((bits + 0x1000) & 0xFFFFE000).to(tl.float32, bitcast=True), x)");
    w.line("    return x");
    w.line();
    w.line();
    w.line("@triton.jit");
    w.line("def _dot_tf32x3(a_hi, a_lo, b_hi, b_lo, acc, PRECISION: tl.constexpr):");
    w.line("    # acc + a @ b to fp32 accuracy on TF32 tensor cores, as tl.dot's tf32x3 computes it, from operands");
    w.line("    # the caller split (so that a loop-invariant one is split once): the small products first; an");
    w.line("    # infinite operand leaves NaN there (its lo is inf - inf), and the large product carries the inf.");
    w.line("    if PRECISION == \"tf32x3\":");
    w.line("        small = tl.dot(a_lo, b_hi, input_precision=\"tf32\")");
    w.line("        small = tl.dot(a_hi, b_lo, small, input_precision=\"tf32\")");
    w.line("        return tl.dot(a_hi, b_hi, acc + tl.where(small == small, small, 0.0), input_precision=\"tf32\")");
    w.line("    return tl.dot(a_hi, b_hi, acc, input_precision=PRECISION)");
    w.line();
  }
  if (needed(&Kernel::needs_aten_scan_tile)) {
    w.line();
    w.line("@triton.jit");
    w.line("def _aten_scan_tile(x, ROWS: tl.constexpr, TILE: tl.constexpr, LEVELS: tl.constexpr, PROD: tl.constexpr,");
    w.line("                   ROUND: tl.constexpr, REVERSE: tl.constexpr):");
    w.line("    # Inclusive scan of each row of x [ROWS, TILE] in the order of PyTorch's CUDA scan (Sklansky, as in");
    w.line("    # ATen's ScanUtils.cuh), so that results are bit-identical: at level m, every element whose scan");
    w.line("    # position has bit m set combines with the last element of the lower half of its 2^(m+1)-block.");
    w.line("    # ROUND is the scan's dtype, rounded to after every op. REVERSE: the scan runs backwards through x");
    w.line("    # (position p is column TILE - 1 - p), so that the caller loads and stores in increasing address");
    w.line("    # order, which Triton coalesces (it does not for a decreasing index).");
    w.line("    col = tl.arange(0, TILE)[None, :]");
    w.line("    pos = col");
    w.line("    if REVERSE:");
    w.line("        pos = TILE - 1 - col");
    w.line("    for m in tl.static_range(LEVELS):");
    w.line("        if TILE <= 128:");
    w.line("            # Narrow tiles: each element fetches its partner by a gather along the row (one warp shuffle");
    w.line("            # when the row lies in one warp); src is the last position of the lower half of its block.");
    w.line("            src = (pos & ~((2 << m) - 1)) | ((1 << m) - 1)");
    w.line("            if REVERSE:");
    w.line("                src = TILE - 1 - src");
    w.line("            low = tl.gather(x, tl.broadcast_to(src, [ROWS, TILE]), 1)");
    w.line("            upper = (pos & (1 << m)) != 0");
    w.line("            y = x");
    w.line("        else:");
    w.line("            # Wide tiles (a gather would shuffle from every register of the row): the partner is picked in");
    w.line("            # a [ROWS, blocks, 2^(m+1)] view by a masked sum (exact: one value plus -0.0s).");
    w.line("            y = tl.reshape(x, [ROWS, TILE >> (m + 1), 2 << m])");
    w.line("            c = tl.arange(0, 2 << m)[None, None, :]");
    w.line("            if REVERSE:");
    w.line("                low = tl.sum(tl.where(c == 1 << m, y, -0.0), axis=2, keep_dims=True)");
    w.line("                upper = c < 1 << m");
    w.line("            else:");
    w.line("                low = tl.sum(tl.where(c == (1 << m) - 1, y, -0.0), axis=2, keep_dims=True)");
    w.line("                upper = c >= 1 << m");
    w.line("        if PROD:");
    w.line("            y = tl.where(upper, (y * low).to(ROUND).to(tl.float32), y)");
    w.line("        else:");
    w.line("            y = tl.where(upper, (y + low).to(ROUND).to(tl.float32), y)");
    w.line("        x = tl.reshape(y, [ROWS, TILE])");
    w.line("    return x");
    w.line();
  }
  if (needed(&Kernel::needs_coop)) {
    w.line();
    w.line("@triton.jit");
    w.line("def _zero_counts_kernel(count_ptr, N, BLOCK: tl.constexpr):");
    w.line("    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)");
    w.line("    tl.store(count_ptr + i, 0, mask=i < N)");
    w.line();
    w.line();
    w.line("def _interpreted(kernel):");
    w.line("    # Triton's interpreter (TRITON_INTERPRET=1) runs a grid's programs one after another; its kernels are");
    w.line("    # not JITFunctions (triton.runtime.interpreter itself is only imported under the interpreter).");
    w.line("    return not torch.cuda.is_available() or not isinstance(kernel, triton.runtime.JITFunction)");
    w.line();
    w.line();
    w.line("def _coop_split(kernel, size, chunk):");
    w.line("    # Cooperative rows: (programs per row, elements each holds). One program holding the whole row under");
    w.line("    # the interpreter, where none may wait for another.");
    w.line("    if _interpreted(kernel):");
    w.line("        return 1, triton.next_power_of_2(size)");
    w.line("    return triton.cdiv(size, chunk), chunk");
    w.line();
    w.line();
    w.line("_COOP_PROGRAMS = {}  # grid sizes by kernel, sizes and device (a launch configuration, like Triton's cache)");
    w.line();
    w.line();
    w.line("def _coop_programs(kernel, tiles, groups, args, meta):");
    w.line("    # The programs of a row wait for each other, so every program of the grid must be resident at once:");
    w.line("    # as many as the multiprocessors hold together (from the compiled kernel's registers, shared memory and");
    w.line("    # threads; at most 4 each), in whole groups.");
    w.line("    if _interpreted(kernel):");
    w.line("        return 1");
    w.line("    key = (kernel, tiles, groups, args[0].device, tuple(sorted(meta.items())))");
    w.line("    if key in _COOP_PROGRAMS:");
    w.line("        return _COOP_PROGRAMS[key]");
    w.line("    compiled = kernel.warmup(*args, grid=(1,), **meta)");
    w.line("    compiled._init_handles()");
    w.line("    props = torch.cuda.get_device_properties(args[0].device)");
    w.line("    threads = 32 * meta[\"num_warps\"]");
    w.line("    per_sm = min(4, props.regs_per_multiprocessor // (-(-max(compiled.n_regs, 1) // 8) * 8 * threads),");
    w.line("                 props.max_threads_per_multi_processor // threads,");
    w.line("                 props.shared_memory_per_multiprocessor // (compiled.metadata.shared + 1024))");
    w.line("    programs = per_sm * props.multi_processor_count // groups * groups");
    w.line("    if programs == 0:");
    w.line("        raise RuntimeError(f\"a row's {groups} programs do not fit on the GPU at once\")");
    w.line("    _COOP_PROGRAMS[key] = min(tiles, programs)");
    w.line("    return _COOP_PROGRAMS[key]");
    w.line();
  }
  if (needed(&Kernel::needs_num_sms)) {
    w.line();
    w.line("def _persistent_programs(tiles, per_sm):");
    w.line("    # A persistent grid: per_sm programs per multiprocessor, each walking tiles (one program under");
    w.line("    # TRITON_INTERPRET on the CPU).");
    w.line("    if not torch.cuda.is_available():");
    w.line("        return 1");
    w.line("    sms = torch.cuda.get_device_properties(torch.cuda.current_device()).multi_processor_count");
    w.line("    return min(tiles, per_sm * sms)");
    w.line();
  }
  if (!trace.forward_scalars.empty()) {
    w.line();
    w.line("def _expect_number(name, value, expected):");
    w.line("    # The kernels were generated with this number argument of forward() built in.");
    w.line("    if not math.isclose(value, expected, rel_tol=0.0):  # exactly equal");
    w.line("        raise ValueError(f\"{name}: ModelNew was generated for {name} = {expected!r}, got {value!r}\")");
    w.line();
  }
  DtypeRule rule;
  if (!graph.inputs.empty()) rule.device_input = graph.inputs.front().name;
  for (size_t i = 0; i < graph.inputs.size(); ++i) {
    if (is_floating(graph.inputs[i].dtype)) {
      rule.input = graph.inputs[i].name;
      rule.traced = graph.inputs[i].dtype;
      break;
    }
  }
  for (size_t i = 0; i < plan.kernels.size(); ++i) {
    w.line();
    std::string text = print_kernel(plan.kernels[i]);
    size_t start = 0;
    while (start < text.size()) {
      size_t nl = text.find('\n', start);
      w.line(text.substr(start, nl - start));
      start = nl + 1;
    }
    w.line();
    w.line();
    write_launcher(w, plan.kernels[i], plan.launches[i], plan, rule);
    w.line();
  }
  if (plan.uses_matmul_precision) {
    w.line();
    w.line("def _fp32_dot_precision():");
    w.line("    # fp32 matmuls follow PyTorch's own switch: full fp32 (tf32x3) unless TF32 was allowed.");
    w.line("    return \"tf32\" if torch.backends.cuda.matmul.allow_tf32 else \"tf32x3\"");
    w.line();
  }
  if (plan.uses_conv_precision) {
    w.line();
    w.line("def _fp32_conv_precision(x):");
    w.line("    # fp32 convolutions follow cuDNN's switch, as PyTorch's do: TF32 (its default) unless it was turned off;");
    w.line("    # PyTorch's CPU convolutions are full fp32 whatever the switch says.");
    w.line("    return \"tf32\" if x.is_cuda and torch.backends.cudnn.allow_tf32 else \"tf32x3\"");
    w.line();
  }
  w.line();
  w.line("class ModelNew(nn.Module):");
  w.indent();
  std::string init_sig = trace.init.signature.empty() ? "self" : "self, " + trace.init.signature;
  w.line("def __init__(" + init_sig + "):");
  w.indent();
  w.line("super().__init__()");
  if (!trace.init.arg_names.empty()) {
    std::string names, values;
    for (size_t i = 0; i < trace.init.arg_names.size(); ++i) {
      names += (i ? ", " : "") + trace.init.arg_names[i];
      values += (i ? ", " : "") + trace.init.arg_values[i];
    }
    if (trace.init.arg_names.size() == 1) {
      names += ",";
      values += ",";
    }
    w.line("# The kernels were generated for these constructor arguments.");
    w.line("if (" + names + ") != (" + values + "):");
    w.line("    raise ValueError(f\"ModelNew was generated for (" + names + ") = (" + values + "), got {(" + names + ")}\")");
  }
  for (const auto& line : trace.init.lines) w.line(line);
  for (size_t i = 0; i < plan.launches.size(); ++i) {
    const Launch& l = plan.launches[i];
    if (l.counter_param.empty()) continue;
    // (not in the state dict, so that Model's state dict still loads; it moves with .to(device))
    w.line("# " + launcher_name(plan.kernels[i]) + "'s counters: zero between calls (its kernel resets what it counts)");
    w.line("self.register_buffer(\"" + counter_attribute(plan.kernels[i]) + "\", torch.zeros(" +
           tuple_text({l.counter_size}) + ", dtype=torch.int32), persistent=False)");
  }
  w.dedent();
  w.line();
  std::string fwd = "self";
  for (const auto& p : trace.forward_params) fwd += ", " + p;
  w.line("def forward(" + fwd + "):");
  w.indent();
  for (size_t i = 0; i < graph.inputs.size(); ++i) {
    const auto& in = graph.inputs[i];
    const std::string& name = in.name;
    if (in.perm.empty()) {
      w.line("if tuple(" + name + ".shape) != " + tuple_text(in.shape) + " or not " + name + ".is_contiguous():");
      w.line("    raise ValueError(f\"" + name + ": expected a contiguous tensor of shape " + tuple_text(in.shape) +
             " (the shape ModelNew was generated for), got {tuple(" + name + ".shape)}\")");
      continue;
    }
    // A permuted input (as get_inputs() returns it): its kernels read the tensor in memory, so the strides
    // must be the permutation's (those of dims of size 1 do not matter).
    Shape shape, strides, stored_strides = contiguous_strides(in.shape);
    std::string dims;
    for (size_t d = 0; d < in.perm.size(); ++d) {
      auto p = static_cast<size_t>(in.perm[d]);
      shape.push_back(in.shape[p]);
      if (in.shape[p] == 1) continue;
      dims += (dims.empty() ? "" : ", ") + std::to_string(d);
      strides.push_back(stored_strides[p]);
    }
    std::string stride_list = "[" + name + ".stride(d) for d in (" + dims + (strides.size() == 1 ? ",)]" : ")]");
    std::string want = "[";
    for (size_t k = 0; k < strides.size(); ++k) want += (k ? ", " : "") + std::to_string(strides[k]);
    want += "]";
    w.line("if tuple(" + name + ".shape) != " + tuple_text(shape) + " or " + stride_list + " != " + want + ":");
    w.line("    raise ValueError(f\"" + name + ": expected a tensor of shape " + tuple_text(shape) + " with strides " +
           want + " along dims (" + dims + ") (a permuted tensor, as get_inputs() returns it, which ModelNew was " +
           "generated for), got shape {tuple(" + name + ".shape)} and strides {" + name + ".stride()}\")");
  }
  for (const auto& [name, literal] : trace.forward_scalars) {
    w.line("_expect_number(\"" + name + "\", " + name + ", " + literal + ")");
  }
  for (const auto& [module, training] : trace.mode_checks) {
    std::string mode = training ? "training" : "eval";
    w.line(std::string("if ") + (training ? "not " : "") + "self." + module + ".training:");
    w.line("    raise ValueError(\"self." + module + " was converted in " + mode +
           " mode (its kernels differ by mode): convert the model in the mode it runs in\")");
  }
  for (size_t i = 0; i < plan.launches.size(); ++i) {
    const Kernel& k = plan.kernels[i];
    const Launch& l = plan.launches[i];
    std::string args, outs;
    for (const auto& a : l.args) {
      if (!is_pointer(k, a.param) || std::find(l.scratch.begin(), l.scratch.end(), a.value) != l.scratch.end()) continue;
      if (std::find(l.produces.begin(), l.produces.end(), a.value) != l.produces.end()) outs += (outs.empty() ? "" : ", ") + a.value;
      else if (a.param == l.counter_param) args += (args.empty() ? "" : ", ") + std::string("self.") + counter_attribute(k);
      else args += (args.empty() ? "" : ", ") + a.value;
    }
    if (launcher_takes_device(k, l, rule)) args = rule.device_input + ".device";
    if (launcher_takes_dtype(l, plan, rule)) args += (args.empty() ? "" : ", ") + rule.input + ".dtype";
    std::string call = launcher_name(k) + "(" + args + ")";
    w.line(outs.empty() ? call : outs + " = " + call);
  }
  std::string ret;
  for (size_t i = 0; i < plan.results.size(); ++i) ret += (i ? ", " : "") + plan.results[i];
  if (plan.result_is_tuple && plan.results.size() == 1) ret += ",";
  w.line("return " + ret);
  w.dedent();
  w.dedent();
  return w.str();
}

}  // namespace tz
