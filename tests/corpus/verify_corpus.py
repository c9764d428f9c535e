"""Sanity check of the corpus itself: runs every problem in eager PyTorch.

By default each problem is shrunk with its `# cpu-shrink:` overrides and run on the CPU; its output must be
non-empty and finite, its inputs must have the dtype its `# dtype:` line names (fp32 when there is none) and
stay small enough for Triton's interpreter. With --full the problem runs at its real size (meant for a GPU,
with --device cuda), and --time reports the eager time (CUDA events, median) so the sizes can be kept in the
1-30 ms range.

    python tests/corpus/verify_corpus.py                    # all problems, shrunk, CPU
    python tests/corpus/verify_corpus.py gemm_bmm.py -v     # some problems
    python tests/corpus/verify_corpus.py --full --device cuda --time
"""

import argparse
import ast
import importlib.util
import re
import sys
import time
from pathlib import Path

import torch

CORPUS = Path(__file__).resolve().parent
SHRINK_RE = re.compile(r"^# cpu-shrink:(.*)$", re.MULTILINE)
DTYPE_RE = re.compile(r"^# dtype: *(\S+) *$", re.MULTILINE)
DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16}
MAX_SHRUNK_INPUT_ELEMENTS = 20000
# `# cpu-shrink-long: REASON` marks a problem whose shrunk size must stay long (to reach a code path that only
# long rows take): it may hold 4x the elements and use sizes that are multiples of 16.
LONG_RE = re.compile(r"^#\s*cpu-shrink-long:\s*\S", re.MULTILINE)


def problem_files(names):
    if names:
        return [CORPUS / (n if n.endswith(".py") else n + ".py") for n in names]
    return sorted(p for p in CORPUS.glob("*.py") if p.name != Path(__file__).name)


def parse_headers(text):
    """Returns ({NAME: value}, dtype) from the `# cpu-shrink:` and `# dtype:` lines."""
    shrink = SHRINK_RE.findall(text)
    if len(shrink) != 1:
        raise ValueError(f"expected exactly one '# cpu-shrink:' line, found {len(shrink)}")
    words = shrink[0].split()
    if not words or len(words) % 2 or any(w != "--set" for w in words[::2]):
        raise ValueError(f"malformed cpu-shrink line: {shrink[0].strip()!r}")
    overrides = {}
    for item in words[1::2]:
        name, sep, value = item.partition("=")
        if not sep or not name.isidentifier():
            raise ValueError(f"malformed override {item!r}")
        overrides[name] = ast.literal_eval(value)
        v = overrides[name]
        if isinstance(v, int) and v > 16 and v % 16 == 0 and not LONG_RE.search(text):
            raise ValueError(f"shrunk size {name}={v} is a multiple of 16: keep shrunk sizes odd")
    dtype_lines = DTYPE_RE.findall(text)
    if len(dtype_lines) > 1:
        raise ValueError("more than one '# dtype:' line")
    if dtype_lines and dtype_lines[0] not in DTYPES:
        raise ValueError(f"unknown dtype {dtype_lines[0]!r} (expected one of {sorted(DTYPES)})")
    dtype = DTYPES[dtype_lines[0]] if dtype_lines else torch.float32
    return overrides, dtype


def load(path, index):
    spec = importlib.util.spec_from_file_location(f"corpus_problem_{index}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name in ("Model", "get_inputs", "get_init_inputs"):
        if not hasattr(module, name):
            raise ValueError(f"missing {name}")
    return module


def flatten(out):
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (tuple, list)):
        return [t for o in out for t in flatten(o)]
    raise ValueError(f"forward returned {type(out).__name__}, not tensors")


def time_ms(fn, reps):
    for _ in range(3):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        torch.cuda.synchronize()
        times.append(start.elapsed_time(end))
    return sorted(times)[len(times) // 2]


def check(path, index, args):
    text = path.read_text()
    overrides, dtype = parse_headers(text)
    module = load(path, index)
    if not args.full:
        for name, value in overrides.items():
            if not hasattr(module, name):
                raise ValueError(f"cpu-shrink sets {name}, which is not a module-level name")
            setattr(module, name, value)
    device = torch.device(args.device)
    torch.manual_seed(0)
    model = module.Model(*module.get_init_inputs()).to(device)
    inputs = [x.to(device) if isinstance(x, torch.Tensor) else x for x in module.get_inputs()]
    tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
    for x in tensors:
        if x.is_floating_point() and x.dtype != dtype:
            raise ValueError(f"input dtype {x.dtype}, but the file says {dtype}")
    n_in = sum(x.numel() for x in tensors)
    limit = MAX_SHRUNK_INPUT_ELEMENTS * (4 if LONG_RE.search(path.read_text()) else 1)
    if not args.full and n_in > limit:
        raise ValueError(f"shrunk inputs hold {n_in} elements (limit {limit})")
    with torch.no_grad():
        outs = flatten(model(*inputs))
        for o in outs:
            if o.numel() == 0:
                raise ValueError(f"empty output of shape {tuple(o.shape)}")
            if o.is_floating_point() and not torch.isfinite(o).all():
                raise ValueError(f"non-finite output of shape {tuple(o.shape)}")
        ms = time_ms(lambda: model(*inputs), args.reps) if args.time else None
    shapes = ", ".join(f"{tuple(o.shape)} {str(o.dtype).replace('torch.', '')}" for o in outs)
    return n_in, shapes, ms


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", help="problem files (default: every *.py in tests/corpus)")
    parser.add_argument("--full", action="store_true", help="run at full size, ignoring # cpu-shrink")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--time", action="store_true", help="report eager time in ms (needs CUDA)")
    parser.add_argument("--reps", type=int, default=10)
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args()
    if args.time and not args.device.startswith("cuda"):
        parser.error("--time needs --device cuda")

    if args.device != "cpu":
        torch.set_default_device(args.device)  # make full-size inputs on the device, not on the host
    passed = failed = 0
    for index, path in enumerate(problem_files(args.files)):
        t0 = time.perf_counter()
        try:
            n_in, shapes, ms = check(path, index, args)
        except Exception as e:  # report every broken problem, not just the first
            failed += 1
            print(f"FAIL {path.name}: {type(e).__name__}: {e}")
            continue
        finally:
            if args.device.startswith("cuda"):
                torch.cuda.empty_cache()
        passed += 1
        if args.verbose or args.time:
            timing = f"  eager {ms:8.3f} ms" if ms is not None else ""
            print(f"ok   {path.name:34s} in={n_in:<11d} out={shapes}{timing}"
                  f"  ({time.perf_counter() - t0:.2f}s)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
