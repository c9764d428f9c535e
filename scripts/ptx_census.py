#!/usr/bin/env python3
"""How many instructions the kernels of generated files issue, without a GPU: each launch of ModelNew's forward is
compiled by Triton for the H200 (sm_90) as it would be launched, and its PTX counted.

    .venv/bin/python scripts/ptx_census.py tests/corpus/act_mish_module_fp16.py [...] [--json OUT.json]

Each problem is converted (build/tritonize, or $TRITONIZE_BIN), ModelNew built from get_init_inputs() on the CPU,
and forward called on meta tensors of get_inputs()' shapes with `_launch` replaced by a recorder, so nothing runs;
pointers are taken as 16-byte aligned (as fresh allocations are). Per launch: programs, warps, the PTX
instructions of one thread (static: a loop body counts once), and for kernels without loops the time the
multiprocessors need just to issue them all (programs x warps x instructions / (SMs x 4 schedulers x clock), one
warp instruction a cycle per scheduler: a lower bound), next to the bandwidth floor of the bytes the problem moves.
A kernel whose issue time reaches its share of the floor is compute-bound: no memory tuning brings it to the floor.
"""
import argparse
import collections
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile

import torch
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRITONIZE = os.environ.get("TRITONIZE_BIN", os.path.join(ROOT, "build", "tritonize"))
SMS, SCHEDULERS, CLOCK_HZ, BANDWIDTH = 132, 4, 1.98e9, 4.25e12  # H200 (SXM): docs/HARNESS.md's floor bandwidth
TARGET = GPUTarget("cuda", 90, 32)
DTYPES = {torch.float32: "fp32", torch.float16: "fp16", torch.bfloat16: "bf16", torch.int64: "i64",
          torch.int32: "i32", torch.bool: "i1", torch.uint8: "u8", torch.int8: "i8", torch.float64: "fp64"}


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def record_launches(problem_path, generated_path):
    ref = load(problem_path, "census_ref")
    gen = load(generated_path, "census_gen")
    launches = []
    gen._launch = lambda kernel, grid, args, options: launches.append((kernel, tuple(grid), args, options))
    if hasattr(gen, "_persistent_programs"):
        gen._persistent_programs = lambda tiles, per_sm: min(tiles, per_sm * SMS)
    model = gen.ModelNew(*ref.get_init_inputs())
    with torch.device("meta"):
        inputs = ref.get_inputs()
    model.to("meta")
    with torch.no_grad():
        model(*inputs)
    return launches, sum(t.numel() * t.element_size() for t in inputs if isinstance(t, torch.Tensor))


def census(kernel, args, options):
    signature, constexprs, attrs = {}, {}, {}
    for i, param in enumerate(kernel.params):
        value = args[param.name]
        if param.is_constexpr:
            signature[param.name] = "constexpr"
            constexprs[param.name] = value
        elif isinstance(value, torch.Tensor):
            signature[param.name] = "*" + DTYPES[value.dtype]
            attrs[(i,)] = [["tt.divisibility", 16]]
        elif isinstance(value, bool):
            signature[param.name] = "i1"
        elif isinstance(value, int):
            signature[param.name] = "i32" if -2**31 <= value < 2**31 else "i64"
        else:
            signature[param.name] = "fp32"
    compiled = triton.compile(ASTSource(fn=kernel, signature=signature, constexprs=constexprs, attrs=attrs),
                              target=TARGET, options=dict(options))
    ptx = compiled.asm["ptx"]
    ops = collections.Counter(re.findall(r"^\s+(?:@%p\d+\s+)?([a-z][a-z0-9_.]*)", ptx, re.M))
    labels = {m.group(1): m.start() for m in re.finditer(r"^(\$L__BB\d+_\d+):", ptx, re.M)}
    loops = any(labels.get(m.group(1), len(ptx)) < m.start()  # a branch back to an earlier label
                for m in re.finditer(r"\bbra(?:\.uni)?\s+(\$L__BB\d+_\d+);", ptx))
    return ops, loops


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("problems", nargs="+")
    ap.add_argument("--json")
    opts = ap.parse_args()
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for problem in opts.problems:
            name = os.path.splitext(os.path.basename(problem))[0]
            generated = os.path.join(tmp, name + ".py")
            subprocess.run([TRITONIZE, "convert", problem, "-o", generated], check=True)
            try:
                launches, input_bytes = record_launches(problem, generated)
            except Exception as e:  # a problem this census cannot drive (a launcher that runs code of its own)
                print(f"{name}: skipped ({type(e).__name__}: {e})", file=sys.stderr)
                continue
            for kernel, grid, args, options in launches:
                ops, loops = census(kernel, args, options)
                programs = 1
                for g in grid:
                    programs *= g
                warps = options.get("num_warps", 4)
                count = sum(ops.values())
                issue_ms = None if loops else programs * warps * count / (SMS * SCHEDULERS * CLOCK_HZ) * 1e3
                row = {"problem": name, "kernel": kernel.__name__, "programs": programs, "warps": warps,
                       "instructions": count, "loops": loops, "issue_ms": issue_ms,
                       "input_floor_ms": input_bytes / BANDWIDTH * 1e3,
                       "top": ops.most_common(6)}
                results.append(row)
                issue = "loops" if loops else f"issue >= {issue_ms:.3f} ms"
                print(f"{name:36s} {kernel.__name__[:40]:40s} {programs:8d} x {warps:2d} warps  {count:5d} instr  "
                      f"{issue:20s} (inputs alone {row['input_floor_ms']:.3f} ms at the floor)", flush=True)
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
