"""KernelBench's correctness protocol on the CPU, with the generated kernels run by Triton's interpreter.

    python tests/numerics/protocol.py REF.py GEN.py [--set NAME=VALUE ...] [--trials 5] [--seed 42]

REF.py is a problem (class Model, get_inputs, get_init_inputs, module-level constants); each --set
overrides one of its module-level constants before get_init_inputs()/get_inputs() run (the generated file
has the same values baked in by `tritonize convert --set`). GEN.py defines ModelNew. The protocol:

  torch.manual_seed(seed); init = get_init_inputs()
  torch.manual_seed(seed); ref = Model(*init)      torch.manual_seed(seed); new = ModelNew(*init)
  state_dict(): same names, shapes, dtypes and values (the init replay is exact)
  after each forward, the buffers again (forward may update them in place: BatchNorm's running statistics)
  `trials` times, with seeds drawn as KernelBench draws them: manual_seed(s); inputs = get_inputs();
      outputs (tuples flattened) must match in count, shape and dtype, and be torch.allclose with
      atol = rtol = 1e-4, or 1e-2 when any input or output is fp16/bf16; non-float outputs must be equal;
      ModelNew.forward must leave its inputs as the reference left them.

It prints a summary and, on its last line, `PROTOCOL-RESULT {json}`; exit status 0 when the generated file
passes. From Python, run_protocol() runs it in a process of its own (the interpreter must be switched on before
triton is imported, and a hung kernel must not hang the tests), forked from protocol_server.py, and returns that
JSON as a dict.
"""

import argparse
import ast
import importlib.util
import json
import os
import select
import subprocess
import sys
import time
import traceback
import warnings
from pathlib import Path

RESULT_MARK = "PROTOCOL-RESULT "
HERE = Path(__file__).resolve().parent


# ---------------------------------------------------------------------------------------------- parent side
_server = None  # this process's protocol_server.py (started on first use)


def _server_run(args, env, timeout):
    """(returncode or None at the timeout, output) of `protocol.py ARGS` in a child of the fork server."""
    global _server
    if _server is None or _server.poll() is not None:
        _server = subprocess.Popen([sys.executable, str(HERE / "protocol_server.py")], stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True, env=env)
    _server.stdin.write(json.dumps({"argv": args, "timeout": timeout, "env": env}) + "\n")
    _server.stdin.flush()
    ready, _, _ = select.select([_server.stdout], [], [], timeout + 120)  # the server enforces the timeout
    line = _server.stdout.readline() if ready else ""
    if not line:  # the server itself died or hung: start another next time
        _server.kill()
        _server = None
        return 1, "the protocol fork server stopped answering"
    reply = json.loads(line)
    return reply["returncode"], reply["output"]


def run_protocol(ref, gen, overrides=(), trials=5, seed=42, timeout=300, python=None):
    """Runs the protocol in a fresh process: a child of protocol_server.py (which imported torch and Triton once),
    or with `python` or TRITONIZE_PROTOCOL_FORK=0 a new interpreter. overrides: ["NAME=VALUE", ...] or {NAME: VALUE}.

    Returns the result dict (always with 'ok' and 'message'; 'output' holds the child's text)."""
    if isinstance(overrides, dict):
        overrides = [f"{k}={v!r}" for k, v in overrides.items()]
    args = [str(ref), str(gen), "--trials", str(trials), "--seed", str(seed)]
    for o in overrides:
        args += ["--set", o]
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONDONTWRITEBYTECODE="1")
    env.setdefault("OMP_NUM_THREADS", "1")  # the shapes are tiny, and pytest-xdist runs one protocol per core
    t0 = time.monotonic()
    if python is None and os.environ.get("TRITONIZE_PROTOCOL_FORK", "1") != "0":
        returncode, output = _server_run(args, env, timeout)
        stdout = output
    else:
        try:
            proc = subprocess.run([python or sys.executable, str(HERE / "protocol.py"), *args], capture_output=True,
                                  text=True, timeout=timeout, env=env)
            returncode, output, stdout = proc.returncode, proc.stdout + proc.stderr, proc.stdout
        except subprocess.TimeoutExpired as e:
            output = (e.stdout or "") + (e.stderr or "")
            if isinstance(output, bytes):
                output = output.decode(errors="replace")
            returncode = None
    if returncode is None:
        return {"ok": False, "stage": "timeout", "message": f"no result after {timeout} s", "output": output}
    for line in reversed(stdout.splitlines()):
        if line.startswith(RESULT_MARK):
            result = json.loads(line[len(RESULT_MARK):])
            result["output"] = output
            result["wall_s"] = round(time.monotonic() - t0, 2)
            return result
    return {"ok": False, "stage": "crash", "message": f"exit status {returncode}, no result line",
            "output": output}


def format_failure(result, tail=4000):
    """A readable failure message for a test: the stage, the message, and the end of the output."""
    out = result.get("output", "")
    if len(out) > tail:
        out = "...\n" + out[-tail:]
    return f"[{result.get('stage')}] {result.get('message')}\n--- protocol output ---\n{out}"


# ----------------------------------------------------------------------------------------------- child side
def parse_overrides(items):
    """["batch=2", "scale=0.5"] -> {"batch": 2, "scale": 0.5}; values are Python literals."""
    out = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.isidentifier():
            raise ValueError(f"malformed override {item!r} (expected NAME=VALUE)")
        try:
            out[name] = ast.literal_eval(value)
        except (ValueError, SyntaxError) as e:
            raise ValueError(f"override {item!r}: value is not a Python literal") from e
    return out


def load_module(path, name, overrides=None):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses, pickling and triton's source lookup want a real module
    spec.loader.exec_module(module)
    for key, value in (overrides or {}).items():
        if not hasattr(module, key):
            raise ValueError(f"--set {key}: {path} has no module-level name {key}")
        setattr(module, key, value)
    return module


def patch_interpreter():
    """Works around what Triton 3.6's interpreter gets wrong but the GPU gets right (docs/INTERPRETER.md).

    - tl.dot on bf16 operands: the interpreter keeps bf16 as raw uint16 bits and multiplies the bits. Both
      operands are widened to fp32 first, which is exact, so the product is what the GPU computes (exact
      bf16 products, fp32 accumulation).
    - casts to and from bf16: fp32 -> bf16 (`.to(tl.bfloat16)`, a store of fp32 into a bf16 tensor) drops
      the low bits (rounds toward zero, up to 1 ulp off) where the GPU, like PyTorch, rounds to nearest
      even; int/fp16 <-> bf16 convert the raw bits as numbers.
    - arithmetic, comparisons, min/max, tl.clamp, tl.fma, reductions and scans on bf16 values, and bf16
      constants: the interpreter applies numpy to the raw bits (or has no bf16 constant at all). They are
      computed in fp32 and rounded to nearest even (reductions and scans round once, at the end).
    The generated code upcasts bf16 to fp32 before any math anyway (DESIGN.md, Numerics); these patches keep
    a kernel that does exact bf16 work (max, select, negate) from failing here when it is right on the GPU.
    - @triton.autotune with more than one config: benchmarking needs a GPU driver ("0 active drivers").
      Here no config is timed and the first one (after pruning) runs.
    """
    import numpy as np
    import triton.language as tl
    from triton.runtime import interpreter as interp

    original = interp.InterpreterBuilder.create_dot
    if getattr(original, "_tritonize_patched", False):
        return
    B = interp.InterpreterBuilder
    original_cast, original_binary = B.cast_impl, B.binary_op
    original_ternary, original_fma = B.ternary_op, B.create_fma
    bitwise = (np.bitwise_and, np.bitwise_or, np.bitwise_xor, np.left_shift, np.right_shift)

    def is_bf16(*handles):
        return all(h.dtype.scalar == tl.bfloat16 for h in handles)

    def to_bf16(x):
        """fp32 values -> bf16 bits (uint16), rounded to nearest even."""
        x = np.asarray(x, dtype=np.float32)
        bits = x.view(np.uint32)
        with np.errstate(over="ignore"):
            rounded = ((bits + np.uint32(0x7FFF) + ((bits >> 16) & np.uint32(1))) >> 16).astype(np.uint16)
        return np.where(np.isnan(x), np.uint16(0x7FC0), rounded)

    def widen_bits(bits):
        """bf16 bits (uint16) -> fp32 values, exactly."""
        return (np.asarray(bits).astype(np.uint32) << 16).view(np.float32)

    def widen(h):
        if h.dtype.scalar == tl.bfloat16:
            return interp.TensorHandle(widen_bits(h.data), tl.float32)
        return h

    def narrow(h):
        """An fp32 result of a bf16 operation back to bf16; comparisons (bool data) keep their data."""
        if h.data.dtype == np.bool_:
            return interp.TensorHandle(h.data, tl.bfloat16)
        return interp.TensorHandle(to_bf16(h.data), tl.bfloat16)

    def cast_impl(self, src, dst_type):
        s, d = src.dtype.scalar, dst_type.scalar
        if d == tl.bfloat16 and s != tl.bfloat16:  # from fp32 (rounding), ints, fp16, bool (bits before)
            return interp.TensorHandle(to_bf16(np.asarray(src.data).astype(np.float32)), tl.bfloat16)
        if s == tl.bfloat16 and d != tl.bfloat16:  # to ints, fp16, fp64 (bits before)
            return interp.TensorHandle(widen_bits(src.data).astype(interp._get_np_dtype(dst_type)), d)
        return original_cast(self, src, dst_type)

    def binary_op(self, lhs, rhs, op):
        if is_bf16(lhs, rhs) and op not in bitwise:
            return narrow(original_binary(self, widen(lhs), widen(rhs), op))
        return original_binary(self, lhs, rhs, op)

    def ternary_op(self, lhs, rhs, other, op):
        if op is np.clip and is_bf16(lhs, rhs, other):  # tl.clamp; np.where selects bits, which is right
            return narrow(original_ternary(self, widen(lhs), widen(rhs), widen(other), op))
        return original_ternary(self, lhs, rhs, other, op)

    def create_fma(self, x, y, z):
        if is_bf16(x, y, z):
            return narrow(original_fma(self, widen(x), widen(y), widen(z)))
        return original_fma(self, x, y, z)

    def get_bf16(self, value):
        return interp.TensorHandle(to_bf16(np.array([value], dtype=np.float32)), tl.bfloat16)

    R, S = interp.ReduceOps, interp.ScanOps
    original_sum, original_min_max = R.sum, R.min_max
    original_cumsum, original_cumprod = S.cumsum, S.cumprod

    def reduce_sum(self, input):
        if input.dtype.scalar != tl.bfloat16:
            return original_sum(self, input)
        return self.to_tensor(to_bf16(np.sum(widen_bits(input.handle.data), axis=self.axis,
                                             keepdims=self.keep_dims)), input.dtype)

    def reduce_min_max(self, input, val_reduce_op, idx_reduce_op=None):
        value = input[0] if isinstance(input, tuple) else input
        if value.dtype.scalar != tl.bfloat16:
            return original_min_max(self, input, val_reduce_op, idx_reduce_op)
        data = widen_bits(value.handle.data)
        out = []
        if val_reduce_op:
            out.append(self.to_tensor(to_bf16(val_reduce_op(data, axis=self.axis, keepdims=self.keep_dims)),
                                      value.dtype))
        if idx_reduce_op:
            out.append(self.to_tensor(idx_reduce_op(data, axis=self.axis, keepdims=self.keep_dims), tl.int32))
        return out[0] if len(out) == 1 else tuple(out)

    def scan(original, np_op):
        def run(self, input):
            if input.dtype.scalar != tl.bfloat16:
                return original(self, input)
            return [self.to_tensor(to_bf16(np_op(widen_bits(input.handle.data), axis=self.axis)), input.dtype)]
        return run

    R.sum, R.min_max = reduce_sum, reduce_min_max
    S.cumsum, S.cumprod = scan(original_cumsum, np.cumsum), scan(original_cumprod, np.cumprod)

    def create_dot(self, a, b, d, input_precision, max_num_imprecise_acc):
        return original(self, widen(a), widen(b), d, input_precision, max_num_imprecise_acc)

    from triton.runtime.autotuner import Autotuner
    Autotuner.do_bench = property(lambda self: lambda kernel_call, quantiles: [0.0, 0.0, 0.0])

    create_dot._tritonize_patched = True
    interp.InterpreterBuilder.create_dot = create_dot
    B.cast_impl, B.binary_op, B.ternary_op, B.create_fma = cast_impl, binary_op, ternary_op, create_fma
    B.get_bf16 = get_bf16
    # numpy 2.3 warns on every int() of a one-element array, which the interpreter does for each loop bound.
    warnings.filterwarnings("ignore", message="Conversion of an array with ndim > 0 to a scalar",
                            category=DeprecationWarning)


def flatten(out):
    import torch
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in flatten(o)]
    return [out]


def compare_state_dicts(ref_model, new_model):
    import torch
    ref_sd, new_sd = ref_model.state_dict(), new_model.state_dict()
    missing = [k for k in ref_sd if k not in new_sd]
    extra = [k for k in new_sd if k not in ref_sd]
    if missing or extra:
        return f"state_dict names differ: missing in ModelNew {missing}, extra in ModelNew {extra}"
    for k, ref_v in ref_sd.items():
        new_v = new_sd[k]
        if tuple(ref_v.shape) != tuple(new_v.shape) or ref_v.dtype != new_v.dtype:
            return (f"state_dict[{k!r}]: ModelNew has {tuple(new_v.shape)} {new_v.dtype}, "
                    f"Model has {tuple(ref_v.shape)} {ref_v.dtype}")
        if not torch.equal(ref_v, new_v):
            diff = (ref_v.double() - new_v.double()).abs().max().item() if ref_v.is_floating_point() else None
            return f"state_dict[{k!r}]: values differ (max abs diff {diff}): the init replay is not exact"
    return None


def compare_buffers(ref_model, new_model, tol):
    """After a forward: buffers that forward updates in place (BatchNorm's running statistics and batch count)
    must hold the same values in both models (floats within tol, integers exactly)."""
    import torch
    new_buffers = dict(new_model.named_buffers())
    for k, ref_v in ref_model.named_buffers():
        new_v = new_buffers.get(k)
        if new_v is None:
            return f"buffer {k!r} is missing in ModelNew"
        if ref_v.is_floating_point():
            if not torch.allclose(ref_v.float(), new_v.float(), atol=tol, rtol=tol):
                diff = (ref_v.double() - new_v.double()).abs().max().item()
                return f"buffer {k!r} after forward differs (max abs diff {diff:.3e}, tol {tol})"
        elif not torch.equal(ref_v, new_v):
            return f"buffer {k!r} after forward differs: {ref_v.tolist()} vs {new_v.tolist()}"
    return None


def compare_outputs(ref_out, new_out, tol):
    """(message or None, max abs diff over float outputs)."""
    import torch
    refs, news = flatten(ref_out), flatten(new_out)
    if len(refs) != len(news):
        return f"Model returns {len(refs)} outputs, ModelNew {len(news)}", None
    worst = 0.0
    for i, (r, n) in enumerate(zip(refs, news)):
        what = f"output {i}" if len(refs) > 1 else "output"
        if not isinstance(r, torch.Tensor) or not isinstance(n, torch.Tensor):
            if isinstance(r, torch.Tensor) != isinstance(n, torch.Tensor) or r != n:
                return f"{what}: Model gives {type(r).__name__} {r!r}, ModelNew {type(n).__name__} {n!r}", None
            continue
        if tuple(r.shape) != tuple(n.shape):
            return f"{what}: shape {tuple(n.shape)}, expected {tuple(r.shape)}", None
        if r.dtype != n.dtype:
            return f"{what}: dtype {n.dtype}, expected {r.dtype}", None
        if r.is_floating_point():
            if r.numel() == 0:
                continue
            diff = (r.double() - n.double()).abs()
            finite = torch.isfinite(diff)
            d = diff[finite].max().item() if finite.any() else float("inf")
            worst = max(worst, d)
            if not torch.allclose(r, n, atol=tol, rtol=tol):
                bad = ~torch.isclose(r, n, atol=tol, rtol=tol)
                first = tuple(int(v) for v in bad.nonzero()[0])
                return (f"{what}: not allclose (atol=rtol={tol}): max abs diff {d:.3e}, "
                        f"{int(bad.sum())} of {r.numel()} elements off; first at {first}: "
                        f"ModelNew {n[first].item()!r}, Model {r[first].item()!r}"), d
        elif not torch.equal(r, n):
            bad = r != n
            first = tuple(int(v) for v in bad.nonzero()[0])
            return (f"{what}: {int(bad.sum())} of {r.numel()} elements differ; first at {first}: "
                    f"ModelNew {n[first].item()!r}, Model {r[first].item()!r}"), None
    return None, worst


def low_precision(tensors):
    import torch
    return any(isinstance(t, torch.Tensor) and t.dtype in (torch.float16, torch.bfloat16) for t in tensors)


def run(ref_path, gen_path, overrides, trials=5, seed=42, log=print):
    """The protocol itself, in this process. Returns the result dict."""
    import torch
    patch_interpreter()
    result = {"ok": False, "stage": "load", "max_abs_diff": None, "tolerance": None, "trials": []}
    try:
        ref = load_module(ref_path, "tritonize_reference", overrides)
        gen = load_module(gen_path, "tritonize_generated")
        if not hasattr(gen, "ModelNew"):
            raise ValueError(f"{gen_path} defines no ModelNew")

        result["stage"] = "init"
        torch.manual_seed(seed)
        init_inputs = ref.get_init_inputs()
        with torch.no_grad():
            torch.manual_seed(seed)
            model = ref.Model(*init_inputs)
            torch.manual_seed(seed)
            model_new = gen.ModelNew(*init_inputs)
        msg = compare_state_dicts(model, model_new)
        if msg:
            result["message"] = msg
            return result

        result["stage"] = "forward"
        torch.manual_seed(seed)
        trial_seeds = [torch.randint(0, 2 ** 32 - 1, (1,)).item() for _ in range(trials)]
        worst = 0.0
        for trial, trial_seed in enumerate(trial_seeds):
            torch.manual_seed(trial_seed)
            inputs = ref.get_inputs()
            before_ref = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
            with torch.no_grad():
                torch.manual_seed(trial_seed)
                out = model(*inputs)
                after_ref = [x.clone() if isinstance(x, torch.Tensor) else x for x in inputs]
                torch.manual_seed(trial_seed)
                t0 = time.perf_counter()
                out_new = model_new(*inputs)
                seconds = time.perf_counter() - t0
            tensors = [x for x in before_ref if isinstance(x, torch.Tensor)] + flatten(out)
            tol = 1e-2 if low_precision(tensors) else 1e-4
            result["tolerance"] = tol
            msg, diff = compare_outputs(out, out_new, tol)
            result["trials"].append({"seed": trial_seed, "seconds": round(seconds, 3), "max_abs_diff": diff})
            if diff is not None:
                worst = max(worst, diff)
                result["max_abs_diff"] = worst
            if msg:
                result["message"] = f"trial {trial} (seed {trial_seed}): {msg}"
                return result
            msg = compare_buffers(model, model_new, tol)
            if msg:
                result["message"] = f"trial {trial} (seed {trial_seed}): {msg}"
                return result
            for i, (a, b) in enumerate(zip(after_ref, inputs)):
                if isinstance(a, torch.Tensor) and not torch.equal(a, b):
                    result["message"] = f"trial {trial}: ModelNew.forward changed its input {i} in place"
                    return result
            log(f"trial {trial}: ok, max abs diff {diff if diff is not None else 0:.3e} "
                f"(tol {tol}), ModelNew {seconds:.2f} s")
        result.update(ok=True, stage="done",
                      message=f"{trials} trials passed, max abs diff {worst:.3e} (atol=rtol={result['tolerance']})")
        return result
    except Exception as e:  # the result, not a crash, so the parent can say which stage broke
        result["message"] = f"{type(e).__name__}: {e}"
        result["traceback"] = traceback.format_exc()
        log(result["traceback"])
        return result


def main(argv=None):
    # Importing this module changes nothing; running it switches the interpreter on before triton (and torch,
    # which can import triton) is imported: run() imports them.
    os.environ["TRITON_INTERPRET"] = "1"
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ref")
    parser.add_argument("gen")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--trials", type=int, default=5)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args(argv)
    result = run(args.ref, args.gen, parse_overrides(args.overrides), args.trials, args.seed)
    print(("PASS " if result["ok"] else f"FAIL [{result['stage']}] ") + str(result.get("message")))
    print(RESULT_MARK + json.dumps({k: v for k, v in result.items() if k != "traceback"}), flush=True)
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
