"""Which cuDNN kernels run each fp32 convolution problem of the corpus (a probe for the device tool).

cuDNN's TF32 rounding of exact ties differs between its engines (docs/NUMERICS.md); this lists, per problem, the
CUDA kernels of one forward under torch.profiler, so the engines can be matched with the tie rule measured.

    python3 tests/gpu/conv_engines.py tests/corpus/conv_*.py tests/corpus/convt_*.py [--json OUT.json]
"""
import argparse
import importlib.util
import json

import torch
from torch.profiler import ProfilerActivity, profile


def load(path):
    spec = importlib.util.spec_from_file_location("problem", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--json")
    args = ap.parse_args()
    out = []
    for path in args.paths:
        mod = load(path)
        torch.manual_seed(0)
        model = mod.Model(*mod.get_init_inputs()).cuda()
        inputs = [t.cuda() if isinstance(t, torch.Tensor) else t for t in mod.get_inputs()]
        if any(isinstance(t, torch.Tensor) and t.dtype != torch.float32 for t in inputs if t.is_floating_point()):
            continue
        with torch.no_grad():
            model(*inputs)
            torch.cuda.synchronize()
            with profile(activities=[ProfilerActivity.CUDA]) as prof:
                model(*inputs)
                torch.cuda.synchronize()
        names = [e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
        rec = {"problem": path.rsplit("/", 1)[-1][:-3], "kernels": names}
        out.append(rec)
        print(json.dumps(rec), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
