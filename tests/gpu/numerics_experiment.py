"""Numerics experiment on the GPU (a measurement, run through the device tool; not a test).

For each problem, the reference (its Model under PyTorch's default flags) and our generated ModelNew are compared
with the exact result (the same inputs and weights in float64), and with each other, together with variants:

  fp32 problems
    ref_notf32  the reference with cuDNN's TF32 off
    emul_rn     (convolutions) inputs and weights rounded to TF32 to nearest (ties away), then float64
    emul_rz     (convolutions) the same, rounded toward zero (the low 13 mantissa bits dropped)
    emul_rne    (convolutions) the same, rounded to nearest with ties to even
    ours_rne    (convolutions) ModelNew with its _round_tf32 helper rounding ties to even instead of away
    ours_x3     ModelNew with cuDNN's TF32 off (tf32x3 dots)
  fp16/bf16 problems with a tl.dot
    ours_f32    the generated kernel with its tl.dot operands upcast to fp32 first
    ours_s1/_s2 the generated launchers with num_stages=1 / 2 (software pipelining off / shallower)
    ours_w4     the generated launchers with num_warps=4

It answered why fp32 convolutions missed cuDNN (docs/NUMERICS.md) and looks for the bf16 strided conv's error.

    python3 tests/gpu/numerics_experiment.py GENERATED_DIR PROBLEM... [--json OUT.json]

GENERATED_DIR holds NAME.py converted from tests/corpus/NAME.py.
"""
import argparse
import importlib.util
import json
import os
import re
import sys
import tempfile

import torch

DEVICE = os.environ.get("EXPERIMENT_DEVICE", "cuda")

HELPERS = '''
@triton.jit
def _op_f32(x):
    return x.to(tl.float32)

'''


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def write_variant(body, tmp, name, tag):
    path = os.path.join(tmp, f"{name}_{tag}.py")
    with open(path, "w") as f:
        f.write(body)
    return load(path, f"{name}_{tag}")


def upcast_dots(source, tmp, name):
    """The generated file with every tl.dot's two operands upcast to fp32 first."""
    dot = re.compile(r"tl\.dot\((\w+), (\w+), ")
    body, count = dot.subn(lambda m: f"tl.dot(_op_f32({m.group(1)}), _op_f32({m.group(2)}), ", source)
    assert count, "no tl.dot to patch"
    body = body.replace("\n\n\n@triton.jit", "\n" + HELPERS + "\n@triton.jit", 1)
    return write_variant(body, tmp, name, "f32")


def launch_option(source, tmp, name, option, value):
    """The generated file with every launcher's `option=` set to value."""
    body, count = re.subn(option + r"=\d+", f"{option}={value}", source)
    assert count, f"no {option} to patch"
    return write_variant(body, tmp, name, f"{option}{value}")


def round_tf32(t, mode):
    bits = t.float().contiguous().view(torch.int32)
    if mode == "rn":
        bits = bits + 0x1000
    elif mode == "rne":
        bits = bits + 0xFFF + ((bits >> 13) & 1)
    return (bits & -8192).view(torch.float32)


def run_model(cls, init, inputs, seed=0):
    torch.manual_seed(seed)
    model = cls(*init).to(DEVICE)
    with torch.no_grad():
        return model, model(*inputs)


def experiment(corpus, gen_dir, name, tmp):
    ref_mod = load(os.path.join(corpus, name + ".py"), name + "_ref")
    gen_path = os.path.join(gen_dir, name + ".py")
    gen_mod = load(gen_path, name + "_gen")
    source = open(gen_path).read()
    init = ref_mod.get_init_inputs()
    torch.manual_seed(1234)
    inputs = [x.to(DEVICE) if torch.is_tensor(x) else x for x in ref_mod.get_inputs()]
    torch.backends.cudnn.allow_tf32 = True
    model, ref = run_model(ref_mod.Model, init, inputs)
    is_fp32 = ref.dtype == torch.float32
    # exact: float64 copy of the same weights and inputs
    model64 = run_model(ref_mod.Model, init, inputs)[0].double()
    inputs64 = [x.double() if torch.is_tensor(x) and x.is_floating_point() else x for x in inputs]
    with torch.no_grad():
        exact = model64(*inputs64)
    out = {}
    has_dot = "tl.dot(" in source
    if is_fp32:
        torch.backends.cudnn.allow_tf32 = False
        out["ref_notf32"] = run_model(ref_mod.Model, init, inputs)[1]
        torch.backends.cudnn.allow_tf32 = True
    if is_fp32 and name.startswith("conv"):
        for mode in ("rn", "rz", "rne"):
            m = run_model(ref_mod.Model, init, inputs)[0].double()
            with torch.no_grad():
                for p in m.parameters():
                    if p.dim() > 1:
                        p.copy_(round_tf32(p, mode).double())
                rounded = [round_tf32(x, mode).double() if torch.is_tensor(x) and x.is_floating_point() else x
                           for x in inputs]
                out["emul_" + mode] = m(*rounded)
    out["ours"] = run_model(gen_mod.ModelNew, init, inputs)[1]
    if not is_fp32 and has_dot:
        out["ours_f32"] = run_model(upcast_dots(source, tmp, name).ModelNew, init, inputs)[1]
        for tag, option, value in (("ours_s1", "num_stages", 1), ("ours_s2", "num_stages", 2),
                                   ("ours_w4", "num_warps", 4)):
            out[tag] = run_model(launch_option(source, tmp, name, option, value).ModelNew, init, inputs)[1]
    if is_fp32 and "(bits + 0x1000)" in source:
        rne = source.replace("(bits + 0x1000)", "(bits + 0xFFF + ((bits >> 13) & 1))")
        out["ours_rne"] = run_model(write_variant(rne, tmp, name, "rne").ModelNew, init, inputs)[1]
    if is_fp32 and has_dot:
        torch.backends.cudnn.allow_tf32 = False
        out["ours_x3"] = run_model(gen_mod.ModelNew, init, inputs)[1]
        torch.backends.cudnn.allow_tf32 = True
    tol = 1e-4 if is_fp32 else 1e-2
    rows = [("ref", ref)] + list(out.items())
    result = {}
    print(f"\n{name} ({ref.dtype}, |exact| max {exact.abs().max().item():.3g})")
    print(f"  {'variant':12s} {'max|v-exact|':>13s} {'max|v-ref|':>11s} {'mean|v-ref|':>11s} allclose(ref,{tol:g})")
    for key, value in rows:
        de = (value.double() - exact).abs().max().item()
        dr = (value.double() - ref.double()).abs()
        ok = torch.allclose(value.to(ref.dtype), ref, atol=tol, rtol=tol)
        print(f"  {key:12s} {de:13.3e} {dr.max().item():11.3e} {dr.mean().item():11.3e} {ok}")
        result[key] = {"max_vs_exact": de, "max_vs_ref": dr.max().item(), "mean_vs_ref": dr.mean().item(), "ok": ok}
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gen_dir")
    ap.add_argument("problems", nargs="+")
    ap.add_argument("--corpus", default="tests/corpus")
    ap.add_argument("--json")
    opts = ap.parse_args()
    print(torch.__version__, DEVICE, torch.cuda.get_device_name() if DEVICE == "cuda" else "", "cudnn", torch.backends.cudnn.version())
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in opts.problems:
            try:
                results[name] = experiment(opts.corpus, opts.gen_dir, name, tmp)
            except Exception as e:  # a measurement script: report and go on to the next problem
                print(f"{name}: {type(e).__name__}: {e}")
                results[name] = {"error": str(e)}
            torch.cuda.empty_cache() if DEVICE == "cuda" else None
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
