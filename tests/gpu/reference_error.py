"""Who is off, eager or tritonize? For each problem (its generated file next to it under GEN_DIR/<name>.py), one
seeded set of inputs on the GPU: eager's output, ModelNew's, and the same forward in float64 (Model on the inputs
cast to float64, its parameters too), then each side's max abs difference from float64 and whether each passes
allclose against float64 and against the other at the problem's tolerance (1e-4 fp32, 1e-2 fp16/bf16).

    python3 tests/gpu/reference_error.py GEN_DIR tests/corpus/a.py [...] [--json OUT.json]
    (on the CPU, through Triton's interpreter, for a shrunk problem: --device cpu --set K=101 ...)
"""
import argparse
import importlib.util
import json
import os

import torch


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def outputs(value):
    return list(value) if isinstance(value, (tuple, list)) else [value]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("gen_dir")
    ap.add_argument("problems", nargs="+")
    ap.add_argument("--json")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--set", action="append", default=[], help="NAME=VALUE: a module-level size (shrunk runs)")
    args = ap.parse_args()
    results = []
    for path in args.problems:
        name = os.path.basename(path)[:-3]
        ref = load(path, "ref_" + name)
        for item in args.set:
            key, _, value = item.partition("=")
            if hasattr(ref, key):
                setattr(ref, key, eval(value))
        gen = load(os.path.join(args.gen_dir, name + ".py"), "gen_" + name)
        torch.manual_seed(0)
        model = ref.Model(*ref.get_init_inputs()).to(args.device)
        torch.manual_seed(0)
        new = gen.ModelNew(*ref.get_init_inputs()).to(args.device)
        torch.manual_seed(1)
        inputs = [x.to(args.device) if isinstance(x, torch.Tensor) else x for x in ref.get_inputs()]
        with torch.no_grad():
            eager = outputs(model(*inputs))
            ours = outputs(new(*inputs))
            exact = outputs(model.double()(*[x.double() if isinstance(x, torch.Tensor) and x.is_floating_point()
                                             else x for x in inputs]))
        tol = 1e-4 if eager[0].dtype == torch.float32 else 1e-2
        row = {"problem": name, "tolerance": tol, "outputs": []}
        for e, o, x in zip(eager, ours, exact):
            e, o = e.double(), o.double()
            row["outputs"].append({
                "eager_vs_exact": (e - x).abs().max().item(), "ours_vs_exact": (o - x).abs().max().item(),
                "ours_vs_eager": (o - e).abs().max().item(), "max_abs_exact": x.abs().max().item(),
                "eager_close_to_exact": torch.allclose(e, x, atol=tol, rtol=tol),
                "ours_close_to_exact": torch.allclose(o, x, atol=tol, rtol=tol),
                "ours_close_to_eager": torch.allclose(o, e, atol=tol, rtol=tol)})
        results.append(row)
        print(json.dumps(row), flush=True)
        del model, new, inputs, eager, ours, exact
        if args.device == "cuda":
            torch.cuda.empty_cache()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
