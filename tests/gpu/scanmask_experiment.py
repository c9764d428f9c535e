"""Two scans of masks, old and new generated forms (a measurement for the device tool): kernel time after an L2 flush
(triton.testing.do_bench, median), as a fraction of the bandwidth floor (bytes the problem must read and write /
4.25 TB/s), eager and torch.compile beside them, and whether the values match eager.

masked: torch.cumsum(x * mask.unsqueeze(-1), dim=1), x fp32 [64, 2047, 4096], mask bool [64, 2047]
  (tests/corpus/scan_masked_cumsum_time.py; GPU record: 0.46 of the floor, 0.56x torch.compile)
  two kernels - the base form: pointwise_mul_kernel writes the product, scan_cumsum_kernel reads it (fuse.cpp kept
                the product out of the scan: a [BLOCK_R, 1] mask load gave the tile a rows-across-lanes layout)
  fused       - the new form: one scan kernel, the mask loaded as a 1-D [BLOCK_R] tile and expanded (PTX: 953
                instructions a thread, 214 registers, against 605 + 60 for the two kernels; half the bytes)
positions: torch.cumsum(mask, dim=1) * mask - 1, mask bool [65536, 4095], int64 result
  (tests/corpus/scan_mask_positions.py; GPU record: 0.26 of the floor, 2.24x eager)
  int64 w8    - the base form: tl.cumsum in int64 (1429 PTX instructions a thread, 102 registers)
  int32 w8    - the new form: int32 accumulation, widened after (821 instructions, 85 registers)
  int32 w4, int32 w16 - the same on 4 / 16 warps (not what tritonize picks: how far the warps matter)

    python3 tests/gpu/scanmask_experiment.py [--json OUT.json] [--dry]

--dry runs every variant once at small shapes through Triton's interpreter (on the CPU) and checks its values.
"""
import argparse
import json
import os
import sys

if "--dry" in sys.argv:  # (before triton is imported)
    os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl
from triton.testing import do_bench

BANDWIDTH = 4.25e12


@triton.jit
def pointwise_mul_kernel(x_ptr, mask_ptr, buf0_ptr, N: tl.constexpr, D: tl.constexpr, BLOCK: tl.constexpr):
    # the base form's first kernel (its N is a multiple of BLOCK at the corpus shape; masked here for --dry)
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    i1 = offs // D
    x = tl.load(x_ptr + offs, mask=offs < N).to(tl.float32)
    mask = tl.load(mask_ptr + i1, mask=offs < N)
    tl.store(buf0_ptr + offs, (x * mask.to(tl.float32)).to(buf0_ptr.dtype.element_ty), mask=offs < N)


@triton.jit
def scan_cumsum_kernel(buf0_ptr, buf1_ptr, R: tl.constexpr, BLOCK_R: tl.constexpr, I: tl.constexpr,
                       BLOCK_I: tl.constexpr):
    # the base form's scan: ATen's column order, a sequential fold per column
    outer = tl.program_id(0) // tl.cdiv(I, BLOCK_I)
    cols = tl.program_id(0) % tl.cdiv(I, BLOCK_I) * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    acc = tl.full([1, BLOCK_I], 0.0, dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        r_mask = r < R
        if I % BLOCK_I != 0:  # (the corpus shape has no column mask)
            r_mask = r_mask & (cols < I)
        buf0 = tl.load(buf0_ptr + (outer * R * I + r * I + cols), mask=r_mask).to(tl.float32)
        scan_in = tl.where(r_mask, buf0, 0.0)
        cumsum = tl.zeros([BLOCK_R, BLOCK_I], dtype=tl.float32)
        for k in tl.static_range(BLOCK_R):
            acc = acc + tl.sum(tl.where(tl.arange(0, BLOCK_R)[:, None] == k, scan_in, 0.0), axis=0, keep_dims=True)
            cumsum = tl.where(tl.arange(0, BLOCK_R)[:, None] == k, acc, cumsum)
        tl.store(buf1_ptr + (outer * R * I + r * I + cols), cumsum.to(buf1_ptr.dtype.element_ty), mask=r_mask)


@triton.jit
def fused_mul_cumsum_kernel(x_ptr, mask_ptr, buf0_ptr, R: tl.constexpr, BLOCK_R: tl.constexpr, I: tl.constexpr,
                            BLOCK_I: tl.constexpr):
    # the new form (tritonize's output for the corpus problem, sizes as constexprs)
    outer = tl.program_id(0) // tl.cdiv(I, BLOCK_I)
    cols = tl.program_id(0) % tl.cdiv(I, BLOCK_I) * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    acc = tl.full([1, BLOCK_I], 0.0, dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        r_mask = r < R
        if I % BLOCK_I != 0:  # (the corpus shape has no column mask)
            r_mask = r_mask & (cols < I)
        r_line = r0 + tl.arange(0, BLOCK_R)
        r_line_mask = r_line < R
        x = tl.load(x_ptr + (outer * R * I + r * I + cols), mask=r_mask).to(tl.float32)
        mask = tl.load(mask_ptr + (outer * R + r_line), mask=r_line_mask)[:, None]
        mul = x * mask.to(tl.float32)
        scan_in = tl.where(r_mask, mul, 0.0)
        cumsum = tl.zeros([BLOCK_R, BLOCK_I], dtype=tl.float32)
        for k in tl.static_range(BLOCK_R):
            acc = acc + tl.sum(tl.where(tl.arange(0, BLOCK_R)[:, None] == k, scan_in, 0.0), axis=0, keep_dims=True)
            cumsum = tl.where(tl.arange(0, BLOCK_R)[:, None] == k, acc, cumsum)
        tl.store(buf0_ptr + (outer * R * I + r * I + cols), cumsum.to(buf0_ptr.dtype.element_ty), mask=r_mask)


@triton.jit
def fused_cumsum_mul_sub_kernel(mask_ptr, buf0_ptr, R: tl.constexpr, BLOCK_R: tl.constexpr, ACC: tl.constexpr):
    # both forms of positions: ACC = tl.int64 (base) or tl.int32 (new), widened to int64 after the scan
    rows = tl.program_id(0) + tl.arange(0, 1)[:, None]
    r = tl.arange(0, BLOCK_R)[None, :]
    r_mask = r < R
    mask = tl.load(mask_ptr + (rows * R + r), mask=r_mask)
    cumsum = tl.cumsum(tl.where(r_mask, mask.to(ACC), 0), axis=1).to(tl.int64)
    sub = cumsum * mask.to(tl.int64) - 1
    tl.store(buf0_ptr + (rows * R + r), sub.to(tl.int64), mask=r_mask)


def masked_two_kernels(x, mask):
    B, T, D = x.shape
    buf0, buf1 = torch.empty_like(x), torch.empty_like(x)
    pointwise_mul_kernel[(triton.cdiv(x.numel(), 1024),)](x, mask, buf0, x.numel(), D, 1024, num_warps=4)
    scan_cumsum_kernel[(B * triton.cdiv(D, 128),)](buf0, buf1, T, 32, D, 128, num_warps=1, enable_fp_fusion=False)
    return buf1


def masked_fused(x, mask):
    B, T, D = x.shape
    out = torch.empty_like(x)
    fused_mul_cumsum_kernel[(B * triton.cdiv(D, 128),)](x, mask, out, T, 32, D, 128, num_warps=1,
                                                        enable_fp_fusion=False)
    return out


def positions(acc, warps):
    def run(mask):
        M, R = mask.shape
        out = torch.empty((M, R), device=mask.device, dtype=torch.int64)
        fused_cumsum_mul_sub_kernel[(M,)](mask, out, R, triton.next_power_of_2(R), acc, num_warps=warps)
        return out
    return run


def masked_eager(x, mask):
    return torch.cumsum(x * mask.unsqueeze(-1), dim=1)


def positions_eager(mask):
    return torch.cumsum(mask, dim=1) * mask - 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--dry", action="store_true")
    a = ap.parse_args()
    dev = "cpu" if a.dry else "cuda"
    B, T, D = (3, 41, 131) if a.dry else (64, 2047, 4096)
    M, R = (23, 517) if a.dry else (65536, 4095)
    torch.manual_seed(0)
    x = torch.randn(B, T, D, device=dev)
    mask = torch.rand(B, T, device=dev) < 0.7
    pmask = torch.randint(0, 2, (M, R), device=dev).bool()
    problems = [
        ("masked", (x, mask), masked_eager, 2 * x.numel() * 4 + mask.numel(),
         [("two kernels", masked_two_kernels), ("fused", masked_fused)]),
        ("positions", (pmask,), positions_eager, pmask.numel() * (1 + 8),
         [("int64 w8", positions(tl.int64, 8)), ("int32 w8", positions(tl.int32, 8)),
          ("int32 w4", positions(tl.int32, 4)), ("int32 w16", positions(tl.int32, 16))]),
    ]
    results = []
    for name, args, eager, nbytes, variants in problems:
        ref = eager(*args)
        base = None
        for label, fn in variants:
            y = fn(*args)
            base = y if base is None else base
            # (on the CPU the float reference scans in another order: close to eager, bit-equal to the base form)
            same = torch.equal(y, base)
            close = torch.equal(y, ref) if y.dtype == torch.int64 else torch.allclose(y, ref, 1e-4, 1e-4)
            if a.dry:
                print(f"dry {name:10s} {label:12s} values {'ok' if same and close else 'WRONG'}", flush=True)
                continue
            ms = do_bench(lambda: fn(*args), warmup=25, rep=100, return_mode="median")
            r = {"problem": name, "variant": label, "ms": ms, "floor_fraction": nbytes / BANDWIDTH / (ms * 1e-3),
                 "equal_to_eager": torch.equal(y, ref), "same_as_base": same, "close": close}
            results.append(r)
            print(f"{name:10s} {label:12s} {ms:.4f} ms  {r['floor_fraction']:.2f} of the floor  equal to eager "
                  f"{r['equal_to_eager']}  same as base {same}", flush=True)
            del y
        if not a.dry:
            for label, fn in (("eager", eager), ("compile", torch.compile(eager))):
                fn(*args)
                ms = do_bench(lambda: fn(*args), warmup=25, rep=100, return_mode="median")
                results.append({"problem": name, "variant": label, "ms": ms,
                                "floor_fraction": nbytes / BANDWIDTH / (ms * 1e-3)})
                print(f"{name:10s} {label:12s} {ms:.4f} ms  {nbytes / BANDWIDTH / (ms * 1e-3):.2f} of the floor",
                      flush=True)
        del ref, base
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
