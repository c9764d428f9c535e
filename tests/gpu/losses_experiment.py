"""Cross entropy and KL divergence before and after branch `losses` (a measurement for the device tool): the files
tritonize generated for the corpus problems below, old (the base compiler) and new, timed on the GPU after an L2
flush (triton.testing.do_bench, median), as a fraction of the bandwidth floor (inputs and output once / 4.25 TB/s),
eager beside them; each result checked against eager (KernelBench's tolerance for the dtype).

  - cross entropy: the target's logit (and weight) picked by one load at the target instead of a compare, a select
    and a sum over every element of the row (PTX a thread of the row kernels: 667 -> 429 instructions for
    loss_ce_weight_smoothing_ignore, 709 -> 438 loss_ce_bf16, 1479 -> 933 loss_ce_spatial_fp16);
  - KL divergence of two log_softmax, and log_softmax_distill_odd: one row kernel reading both inputs instead of
    one log_softmax written whole and read back (bytes 2.0x -> 1.0x and 1.67x -> 1.0x the floor's).

The generated files are checked in under tests/gpu/losses_files/{old,new}/ (made by --convert OLD_BIN NEW_BIN on a
machine with both compilers), so the GPU run needs no compiler:

    python3 tests/gpu/losses_experiment.py [--only loss_ce_bf16,...] [--json OUT.json]
    python3 tests/gpu/losses_experiment.py --dry      # the cpu-shrink sizes through Triton's interpreter (CPU)
    python3 tests/gpu/losses_experiment.py --convert /work/next-tritonize build/tritonize
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys

if "--dry" in sys.argv:  # (before triton is imported)
    os.environ["TRITON_INTERPRET"] = "1"

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FILES = os.path.join(ROOT, "tests", "gpu", "losses_files")
BANDWIDTH = 4.25e12
PROBLEMS = [
    "loss_ce_weight_smoothing_ignore", "loss_ce_bf16", "loss_ce_functional", "loss_ce_none_ignore_fp16",
    "loss_ce_weight_module", "loss_ce_module_ignore_sum", "loss_ce_spatial_fp16",
    "loss_kl_div_module_log_target_sum", "log_softmax_distill_odd",
]


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def shrink_args(problem):
    text = open(os.path.join(ROOT, "tests", "corpus", problem + ".py")).read()
    return re.search(r"^# cpu-shrink:(.*)$", text, re.M).group(1).split()


def convert(old_bin, new_bin):
    for tag, binary in (("old", old_bin), ("new", new_bin)):
        for dry in (False, True):
            out = os.path.join(FILES, tag + ("_dry" if dry else ""))
            os.makedirs(out, exist_ok=True)
            for p in PROBLEMS:
                src = os.path.join(ROOT, "tests", "corpus", p + ".py")
                subprocess.run([binary, "convert", src, *(shrink_args(p) if dry else []), "-o",
                                os.path.join(out, p + ".py")], check=True)


def reference(problem, dry):
    ref = load(os.path.join(ROOT, "tests", "corpus", problem + ".py"), "ref_" + problem)
    if dry:  # the shrunk sizes: module-level constants, as tritonize --set overrides them
        words = shrink_args(problem)
        for name_value in words[1::2]:
            name, value = name_value.split("=")
            setattr(ref, name, int(value))
    return ref


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only")
    ap.add_argument("--json")
    ap.add_argument("--dry", action="store_true")
    ap.add_argument("--convert", nargs=2, metavar=("OLD_BIN", "NEW_BIN"))
    opts = ap.parse_args()
    if opts.convert:
        convert(*opts.convert)
        return
    device = "cpu" if opts.dry else "cuda"
    if not opts.dry:
        from triton.testing import do_bench
    torch.set_grad_enabled(False)
    results = []
    for p in opts.only.split(",") if opts.only else PROBLEMS:
        ref = reference(p, opts.dry)
        torch.manual_seed(0)
        model = ref.Model(*ref.get_init_inputs()).to(device)
        inputs = [t.to(device) if isinstance(t, torch.Tensor) else t for t in ref.get_inputs()]
        want = model(*inputs)
        dtype = inputs[0].dtype
        tol = 1e-4 if dtype == torch.float32 else 1e-2
        nbytes = sum(t.numel() * t.element_size() for t in inputs if isinstance(t, torch.Tensor))
        nbytes += want.numel() * want.element_size()
        floor_ms = nbytes / BANDWIDTH * 1e3
        row = {"problem": p, "floor_ms": floor_ms}
        if not opts.dry:
            row["eager_ms"] = do_bench(lambda: model(*inputs), warmup=25, rep=100)
        for tag in ("old", "new"):
            gen = load(os.path.join(FILES, tag + ("_dry" if opts.dry else ""), p + ".py"), f"{tag}_{p}")
            torch.manual_seed(0)
            mine = gen.ModelNew(*ref.get_init_inputs()).to(device)
            mine.load_state_dict(model.state_dict())
            got = mine(*inputs)
            ok = got.shape == want.shape and torch.allclose(got.float(), want.float(), atol=tol, rtol=tol)
            row[tag + "_ok"] = bool(ok)
            row[tag + "_err"] = (got.float() - want.float()).abs().max().item()
            if not opts.dry:
                ms = do_bench(lambda: mine(*inputs), warmup=25, rep=100)
                row[tag + "_ms"] = ms
                row[tag + "_floor"] = floor_ms / ms
        results.append(row)
        if opts.dry:
            print(f"{p:36s} old ok {row['old_ok']} ({row['old_err']:.2e})  new ok {row['new_ok']} ({row['new_err']:.2e})",
                  flush=True)
        else:
            print(f"{p:36s} floor {floor_ms:.3f} ms  eager {row['eager_ms']:.3f}  old {row['old_ms']:.3f} "
                  f"({row['old_floor']:.2f}, ok {row['old_ok']})  new {row['new_ms']:.3f} ({row['new_floor']:.2f}, "
                  f"ok {row['new_ok']})", flush=True)
        del model, inputs, want
        if not opts.dry:
            torch.cuda.empty_cache()
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
