"""Two reductions of one input over different axes (fuse's two-axes merge, kernel/lower_two_axes.cpp): the files
tritonize generated before (two kernels, each reading the whole input) and after (one kernel: programs own BLOCK_R
rows, walk the other reduced dims, store per-row-block partials; a segment's last program combines them), timed on
the GPU (triton.testing.do_bench of ModelNew.forward, L2 flushed, median) beside eager, as a fraction of the
bandwidth floor (input + outputs / 4.25 TB/s). The new kernel is also run with other BLOCK_R / warps (same file,
other launch arguments: ROW_BLOCKS, BLOCK_P, the partials and counters re-sized), and every result is checked
against eager. Files in tests/gpu/twoaxes/ (full-size, generated at this commit: *_old by the base compiler).

    python3 tests/gpu/twoaxes_experiment.py [--json OUT.json] [--only red_sum_dim0_mean_dim1,...] [--dry]

--dry converts the problems shrunk (their cpu-shrink lines) with $TRITONIZE_OLD (/work/next-tritonize) and
$TRITONIZE_NEW (build/tritonize) and runs each file and variant once in Triton's interpreter (checks, no timing).
About 30 s on an H200.
"""
import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

if "--dry" in sys.argv:  # (before triton is imported)
    os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BANDWIDTH = 4.25e12
PROBLEMS = ["red_sum_dim0_mean_dim1", "red_prod_outer_middle_fp16", "red_max_min_nan"]
VARIANTS = [(16, 4), (32, 4), (32, 8), (64, 4), (64, 8), (128, 8)]  # (BLOCK_R, num_warps)


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def recorded_launch(gen, model, inputs):
    """The new file's one launch (kernel, grid, args, options), made once through Triton's own path."""
    seen = []
    real = gen._launch
    gen._launch = lambda k, grid, args, options: (seen.append((k, grid, dict(args), dict(options))),
                                                  k[grid](**args, **options))
    returned = model(*inputs)  # (views of the launch's buffers, in the model's order)
    gen._launch = real
    assert len(seen) == 1, f"expected one launch, got {len(seen)}"
    return seen[0], returned


def variant_call(launch, block_r, warps):
    """A forward that launches the recorded kernel with BLOCK_R rows a program on `warps` warps (it writes the
    recorded launch's buffers, which the recorded call returned)."""
    (kernel, grid, args, options), returned = launch
    old_blocks = args["ROW_BLOCKS"]
    groups = grid[0] // old_blocks
    slots = args["work_ptr"].numel() // (old_blocks * args["NK"] * args["NC"])
    blocks = triton.cdiv(args["NR"], block_r)
    # (the file masks the finisher's row blocks only where its own BLOCK_P left a remainder: a power of two that
    # divides ROW_BLOCKS keeps every variant exact)
    block_p = 1
    while block_p < 64 and blocks % (2 * block_p) == 0:
        block_p *= 2
    a = dict(args, BLOCK_R=block_r, ROW_BLOCKS=blocks, BLOCK_P=block_p)
    a["work_ptr"] = torch.empty(slots * blocks * args["NK"] * args["NC"], device=args["work_ptr"].device,
                                dtype=torch.float32)
    a["count_ptr"] = torch.zeros(groups * args["SEGMENTS"], device=args["work_ptr"].device, dtype=torch.int32)
    o = dict(options, num_warps=warps)
    outs = returned
    return (lambda: kernel[(groups * blocks,)](**a, **o)), outs


def close(got, want, fp16):
    tol = 1e-2 if fp16 else 1e-4
    return all(g.shape == w.shape and torch.allclose(g.float(), w.float(), atol=tol, rtol=tol, equal_nan=True)
               for g, w in zip(got, want))


def files(problem, dry, tmp):
    if not dry:
        return {v: os.path.join(HERE, "twoaxes", f"{problem}_{v}.py") for v in ("old", "new")}
    src = os.path.join(ROOT, "tests", "corpus", problem + ".py")
    shrink = re.search(r"^# cpu-shrink:(.*)$", open(src).read(), re.M).group(1).split()
    out = {}
    for v, binary in (("old", os.environ.get("TRITONIZE_OLD", "/work/next-tritonize")),
                      ("new", os.environ.get("TRITONIZE_NEW", os.path.join(ROOT, "build", "tritonize")))):
        out[v] = os.path.join(tmp, f"{problem}_{v}.py")
        subprocess.run([binary, "convert", src, *shrink, "-o", out[v]], check=True)
    return out, shrink


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--only")
    ap.add_argument("--dry", action="store_true")
    opts = ap.parse_args()
    device = "cpu" if opts.dry else "cuda"
    results = []
    tmp = tempfile.mkdtemp()
    for problem in (opts.only.split(",") if opts.only else PROBLEMS):
        ref = load(os.path.join(ROOT, "tests", "corpus", problem + ".py"), "ref_" + problem)
        paths = files(problem, opts.dry, tmp)
        if opts.dry:
            paths, shrink = paths
            for k in shrink[1::2]:
                name, value = k.split("=")
                setattr(ref, name, int(value))
        torch.manual_seed(0)
        inputs = [t.to(device) for t in ref.get_inputs()]
        fp16 = inputs[0].dtype == torch.float16
        eager = ref.Model().to(device)
        want = eager(*inputs)
        floor_bytes = sum(t.numel() * t.element_size() for t in inputs) + sum(
            t.numel() * t.element_size() for t in want)
        forms = {}
        for v, path in paths.items():
            gen = load(path, f"{problem}_{v}")
            model = gen.ModelNew().to(device)
            forms[v] = (lambda m=model: m(*inputs), lambda m=model: m(*inputs))
            if v == "new":
                launch = recorded_launch(gen, model, inputs)
                for block_r, warps in VARIANTS:
                    call, outs = variant_call(launch, block_r, warps)
                    forms[f"new BLOCK_R={block_r} warps={warps}"] = (call, lambda o=outs: o)
        forms["eager"] = (lambda: eager(*inputs), lambda: eager(*inputs))
        for name, (call, result) in forms.items():
            out = call()
            got = result() if name.startswith("new BLOCK_R") else out
            got = got if isinstance(got, (tuple, list)) else (got,)
            ok = close(got, want, fp16)
            row = {"problem": problem, "form": name, "ok": ok}
            if not opts.dry:
                ms = triton.testing.do_bench(call, warmup=25, rep=200)
                row.update(ms=ms, floor=floor_bytes / BANDWIDTH / (ms * 1e-3))
            results.append(row)
            print(json.dumps(row), flush=True)
    if opts.json:
        json.dump(results, open(opts.json, "w"), indent=1)


if __name__ == "__main__":
    main()
