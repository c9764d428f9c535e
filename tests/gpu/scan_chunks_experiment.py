"""Row scans in ATen's order with several of ATen's 32-element tiles loaded per loop step (a measurement for the device
tool), kernel time after an L2 flush (triton.testing.do_bench, median), as a fraction of the bandwidth floor
(bytes read and written / 4.25 TB/s), and whether the result is bit-identical to torch.cumsum.

tritonize's row scan (lower_scan.cpp, AtenRows with ATen's tiles of 32) walks each row one tile per loop step:
[BLOCK_M = 16, 32] on 4 warps (fp32) or 8 (16-bit). A thread then holds 16 bytes (fp32) or 4 bytes (16-bit) of
each step's load, and the next load waits for the carry's chain of shuffles: with a grid of M / 16 programs
(2048 for 32768 rows, 15.5 per multiprocessor) about 31 KB are in flight per SM for fp32 and 8 KB for fp16
(8 programs of 8 warps resident), where the H200 needs 40+ KB. The form here loads CHUNKS tiles of each row at
the top of a step (CHUNKS separate loads, issued together), then runs them through ATen's levels one after the
other, the carry chained as before: the order of operations is unchanged, only more bytes are in flight.

  chunks x1 - tritonize's form on main (one tile per step)
  chunks xU - U tiles per step, U = 2, 4, 8; tritonize's rule (lower_scan.cpp, kChunkInFlightBytes) now picks
              x2 for the fp32 cases, x8 for fp16, and keeps x1 for the strided bf16 rows (marked "<- tritonize")

Cases: fp32 [32768, 8191] (rows not 16-byte aligned: scalar loads; scan_reverse_flip's shape), fp16 [262144, 2047]
(scan_cumsum_fp16), fp32 [65536, 4000] (aligned, scan_cumsum_lastdim), and bf16 rows that are strided (the scanned
dim of x.T, x [4096, 4099]: scan_stack_bf16's scan, [BLOCK_M = 16 contiguous rows, 32] tiles, 257 programs).

    python3 tests/gpu/scan_chunks_experiment.py [--json OUT.json] [--dry]

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
def _aten_scan_tile(x, ROWS: tl.constexpr, TILE: tl.constexpr, LEVELS: tl.constexpr, ROUND: tl.constexpr):
    # tritonize's helper (forward cumsum, narrow tiles): Sklansky's levels as ATen's ScanUtils.cuh runs them.
    pos = tl.arange(0, TILE)[None, :]
    for m in tl.static_range(LEVELS):
        src = (pos & ~((2 << m) - 1)) | ((1 << m) - 1)
        low = tl.gather(x, tl.broadcast_to(src, [ROWS, TILE]), 1)
        upper = (pos & (1 << m)) != 0
        x = tl.where(upper, (x + low).to(ROUND).to(tl.float32), x)
    return x


@triton.jit
def _load(x_ptr, rows, r0, R: tl.constexpr, M: tl.constexpr, SM: tl.constexpr, SR: tl.constexpr,
          BLOCK_R: tl.constexpr):
    r = r0 + tl.arange(0, BLOCK_R)[None, :]
    mask = (r < R) & (rows < M)
    return tl.where(mask, tl.load(x_ptr + (rows * SM + r * SR), mask=mask).to(tl.float32), 0.0)


@triton.jit
def _step(x_ptr, y_ptr, x, carry, rows, r0, R: tl.constexpr, M: tl.constexpr, SM: tl.constexpr, SR: tl.constexpr,
          BLOCK_R: tl.constexpr, BLOCK_M: tl.constexpr, ROUND: tl.constexpr):
    local = tl.arange(0, BLOCK_R)[None, :]
    first = local == 0
    cumsum = _aten_scan_tile(tl.where(first, (x + carry).to(ROUND).to(tl.float32), x), BLOCK_M, BLOCK_R, 5, ROUND)
    r = r0 + local
    mask = (r < R) & (rows < M)
    tl.store(y_ptr + (rows * SM + r * SR), cumsum.to(y_ptr.dtype.element_ty), mask=mask)
    return tl.gather(cumsum, tl.full([BLOCK_M, BLOCK_R], BLOCK_R - 1, dtype=tl.int32), 1)


@triton.jit
def cumsum_rows_chunks(x_ptr, y_ptr, R: tl.constexpr, M: tl.constexpr, SM: tl.constexpr, SR: tl.constexpr,
                       BLOCK_M: tl.constexpr, CHUNKS: tl.constexpr, ROUND: tl.constexpr):
    BLOCK_R: tl.constexpr = 32
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)[:, None]
    carry = tl.full([BLOCK_M, BLOCK_R], 0.0, dtype=tl.float32)
    for r0 in range(0, R, BLOCK_R * CHUNKS):
        x0 = _load(x_ptr, rows, r0, R, M, SM, SR, BLOCK_R)
        if CHUNKS >= 2:
            x1 = _load(x_ptr, rows, r0 + BLOCK_R, R, M, SM, SR, BLOCK_R)
        if CHUNKS >= 4:
            x2 = _load(x_ptr, rows, r0 + 2 * BLOCK_R, R, M, SM, SR, BLOCK_R)
            x3 = _load(x_ptr, rows, r0 + 3 * BLOCK_R, R, M, SM, SR, BLOCK_R)
        if CHUNKS >= 8:
            x4 = _load(x_ptr, rows, r0 + 4 * BLOCK_R, R, M, SM, SR, BLOCK_R)
            x5 = _load(x_ptr, rows, r0 + 5 * BLOCK_R, R, M, SM, SR, BLOCK_R)
            x6 = _load(x_ptr, rows, r0 + 6 * BLOCK_R, R, M, SM, SR, BLOCK_R)
            x7 = _load(x_ptr, rows, r0 + 7 * BLOCK_R, R, M, SM, SR, BLOCK_R)
        carry = _step(x_ptr, y_ptr, x0, carry, rows, r0, R, M, SM, SR, BLOCK_R, BLOCK_M, ROUND)
        if CHUNKS >= 2:
            carry = _step(x_ptr, y_ptr, x1, carry, rows, r0 + BLOCK_R, R, M, SM, SR, BLOCK_R, BLOCK_M, ROUND)
        if CHUNKS >= 4:
            carry = _step(x_ptr, y_ptr, x2, carry, rows, r0 + 2 * BLOCK_R, R, M, SM, SR, BLOCK_R, BLOCK_M, ROUND)
            carry = _step(x_ptr, y_ptr, x3, carry, rows, r0 + 3 * BLOCK_R, R, M, SM, SR, BLOCK_R, BLOCK_M, ROUND)
        if CHUNKS >= 8:
            carry = _step(x_ptr, y_ptr, x4, carry, rows, r0 + 4 * BLOCK_R, R, M, SM, SR, BLOCK_R, BLOCK_M, ROUND)
            carry = _step(x_ptr, y_ptr, x5, carry, rows, r0 + 5 * BLOCK_R, R, M, SM, SR, BLOCK_R, BLOCK_M, ROUND)
            carry = _step(x_ptr, y_ptr, x6, carry, rows, r0 + 6 * BLOCK_R, R, M, SM, SR, BLOCK_R, BLOCK_M, ROUND)
            carry = _step(x_ptr, y_ptr, x7, carry, rows, r0 + 7 * BLOCK_R, R, M, SM, SR, BLOCK_R, BLOCK_M, ROUND)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--dry", action="store_true")
    a = ap.parse_args()
    dev = "cpu" if a.dry else "cuda"
    # (name, dtype, x's shape, transposed: scan the last dim of x.T, warps of tritonize's form, its CHUNKS)
    # (scan_stack_bf16 scans x.float(): its kernel is fp32 on 4 warps; here the bf16 scan itself, on 8)
    cases = [("fp32 [32768, 8191]", torch.float32, (32768, 8191), False, 4, 2),
             ("fp16 [262144, 2047]", torch.float16, (262144, 2047), False, 8, 8),
             ("fp32 [65536, 4000]", torch.float32, (65536, 4000), False, 4, 2),
             ("bf16 x.T, x [4096, 4099]", torch.bfloat16, (4096, 4099), True, 8, 1)]
    if a.dry:
        cases = [("fp32 [40, 200]", torch.float32, (40, 200), False, 4, 2),
                 ("fp16 [40, 300]", torch.float16, (40, 300), False, 8, 8),
                 ("bf16 x.T, x [300, 37]", torch.bfloat16, (300, 37), True, 8, 1)]
    results = []
    torch.manual_seed(0)
    for name, dtype, shape, transposed, warps, picked in cases:
        x = torch.rand(shape, device=dev, dtype=dtype) if dtype != torch.float32 else torch.randn(shape, device=dev)
        xs = x.t() if transposed else x
        M, R = xs.shape
        SM, SR = xs.stride()
        ref = torch.cumsum(xs, dim=1)
        rnd = {torch.float32: tl.float32, torch.float16: tl.float16, torch.bfloat16: tl.bfloat16}[dtype]
        nbytes = 2 * x.numel() * x.element_size()
        for chunks in (1, 2, 4, 8):
            y = torch.empty_strided(xs.shape, xs.stride(), device=dev, dtype=dtype)

            def launch():
                cumsum_rows_chunks[(triton.cdiv(M, 16),)](x, y, R, M, SM, SR, 16, chunks, rnd, num_warps=warps,
                                                           enable_fp_fusion=False)
            launch()
            if chunks == 1:
                before = y.clone()
            if a.dry:
                # On the CPU the reference accumulates differently (a 16-bit cumsum in fp32, where ATen's CUDA
                # scan rounds every add to 16 bits): compare fp32 closely with it, and every variant bit for bit
                # with the form before (chunks x1).
                ok = torch.equal(y, before) and (dtype != torch.float32 or torch.allclose(y, ref, 1e-4, 1e-4))
                print(f"dry {name:26s} chunks x{chunks}  values {'ok' if ok else 'WRONG'}", flush=True)
                continue
            ms = do_bench(launch, warmup=25, rep=100, return_mode="median")
            r = {"case": name, "chunks": chunks, "warps": warps, "tritonize": chunks == picked, "ms": ms,
                 "floor_fraction": nbytes / BANDWIDTH / (ms * 1e-3), "exact": torch.equal(y, ref),
                 "same_as_x1": torch.equal(y, before)}
            results.append(r)
            print(f"{name:26s} chunks x{chunks} w{warps}  {ms:.4f} ms  {r['floor_fraction']:.2f} of the floor  "
                  f"exact {r['exact']}  same as x1 {r['same_as_x1']}{'  <- tritonize' if chunks == picked else ''}",
                  flush=True)
        if not a.dry:
            ms = do_bench(lambda: torch.cumsum(xs, dim=1), warmup=25, rep=100, return_mode="median")
            print(f"{name:26s} eager          {ms:.4f} ms  {nbytes / BANDWIDTH / (ms * 1e-3):.2f}", flush=True)
        del x, xs, ref
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
