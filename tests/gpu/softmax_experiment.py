"""Long-row softmax on the GPU: which looped form reaches the bandwidth floor (a measurement for the device tool).

Rows longer than the register tile are reduced in loops over the row. Forms compared, each as log_softmax:
  grid      - one program per row, three passes (max, sum of exp, write): what tritonize emitted until now;
  persist   - the same three passes, but a persistent grid of PROGRAMS programs walking the rows, so that the
              rows in flight fit in L2 and the second and third reads hit it;
  online    - persistent, and the first two passes fused into one (running max, rescaled running sum).

    python3 tests/gpu/softmax_experiment.py [--json OUT.json]
"""
import argparse
import json

import torch
import triton
import triton.language as tl
from triton.testing import do_bench


@triton.jit
def three_pass(x_ptr, y_ptr, M: tl.constexpr, R: tl.constexpr, BLOCK_R: tl.constexpr, PROGRAMS: tl.constexpr):
    for row in range(tl.program_id(0), M, PROGRAMS):
        base = row * R
        acc = tl.full([BLOCK_R], float("-inf"), dtype=tl.float32)
        for r0 in range(0, R, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)
            x = tl.load(x_ptr + base + r, mask=r < R, other=float("-inf")).to(tl.float32)
            acc = tl.maximum(acc, x)
        mx = tl.max(acc, axis=0)
        acc1 = tl.zeros([BLOCK_R], dtype=tl.float32)
        for r0 in range(0, R, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)
            x = tl.load(x_ptr + base + r, mask=r < R, other=float("-inf")).to(tl.float32)
            acc1 += tl.exp(x - mx)
        lse = tl.log(tl.sum(acc1, axis=0))
        for r0 in range(0, R, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)
            x = tl.load(x_ptr + base + r, mask=r < R).to(tl.float32)
            tl.store(y_ptr + base + r, (x - mx - lse).to(y_ptr.dtype.element_ty), mask=r < R)


@triton.jit
def online(x_ptr, y_ptr, M: tl.constexpr, R: tl.constexpr, BLOCK_R: tl.constexpr, PROGRAMS: tl.constexpr):
    for row in range(tl.program_id(0), M, PROGRAMS):
        base = row * R
        m = tl.full([BLOCK_R], float("-inf"), dtype=tl.float32)
        s = tl.zeros([BLOCK_R], dtype=tl.float32)
        for r0 in range(0, R, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)
            x = tl.load(x_ptr + base + r, mask=r < R, other=float("-inf")).to(tl.float32)
            m_new = tl.maximum(m, x)
            s = s * tl.exp(tl.where(m_new == float("-inf"), 0.0, m - m_new)) + tl.where(
                m_new == float("-inf"), 0.0, tl.exp(x - m_new))
            m = m_new
        mx = tl.max(m, axis=0)
        total = tl.sum(s * tl.exp(tl.where(m == float("-inf"), float("-inf"), m - mx)), axis=0)
        lse = tl.log(total)
        for r0 in range(0, R, BLOCK_R):
            r = r0 + tl.arange(0, BLOCK_R)
            x = tl.load(x_ptr + base + r, mask=r < R).to(tl.float32)
            tl.store(y_ptr + base + r, (x - mx - lse).to(y_ptr.dtype.element_ty), mask=r < R)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    args = ap.parse_args()
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    results = []
    for M, R in [(8192, 50257), (1024, 262144)]:
        torch.manual_seed(0)
        x = torch.randn(M, R, device="cuda")
        ref = torch.log_softmax(x, dim=-1)
        floor_ms = 2 * x.numel() * 4 / 4.25e12 * 1e3
        eager = do_bench(lambda: torch.log_softmax(x, dim=-1), warmup=25, rep=200)
        results.append({"shape": [M, R], "form": "eager", "ms": eager, "floor_fraction": floor_ms / eager})
        print(json.dumps(results[-1]), flush=True)
        y = torch.empty_like(x)
        forms = [("grid", three_pass, M, 2048, 4)]
        for block, warps in [(4096, 8), (8192, 16)]:
            for per_sm in (1, 2):
                forms.append(("persist", three_pass, sms * per_sm, block, warps))
                forms.append(("online", online, sms * per_sm, block, warps))
        for name, kernel, programs, block, warps in forms:
            programs = min(programs, M)
            run = lambda: kernel[(programs,)](x, y, M, R, BLOCK_R=block, PROGRAMS=programs, num_warps=warps)
            run()
            ok = torch.allclose(y, ref, atol=1e-4, rtol=1e-4)
            ms = do_bench(run, warmup=25, rep=200)
            results.append({"shape": [M, R], "form": name, "programs": programs, "block": block, "warps": warps,
                            "ms": ms, "floor_fraction": floor_ms / ms, "correct": ok})
            print(json.dumps(results[-1]), flush=True)
        del x, y, ref
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
