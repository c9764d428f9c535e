"""fp32 GEMM accuracy and speed experiment on the GPU (not a test: a measurement, run through the device tool).

Question 1 (accuracy): for unit-variance inputs with large K, how far is each way of computing an fp32 GEMM from
the exact product (float64), and does it pass KernelBench's check (allclose atol = rtol = 1e-4) against
PyTorch's own fp32 result (cuBLAS)? Ways compared: cuBLAS fp32, the exact product rounded to fp32, and Triton
kernels that accumulate
  chain    - one tf32x3 tl.dot chain into the accumulator (what tritonize emitted until now),
  chunk    - tf32x3 dots summed over CHUNK K-blocks, each chunk added to the accumulator on the CUDA cores,
  ieee     - tl.dot with input_precision="ieee" (fp32 FMA, no tensor cores).
Question 2 (speed): median time of each, and of tile configurations for the batched product of gemm_bmm.

    python3 tests/gpu/gemm_experiment.py [--json OUT.json]
"""
import argparse
import json

import torch
import triton
import triton.language as tl
from triton.testing import do_bench


@triton.jit
def bmm_kernel(
    a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
    sab: tl.constexpr, sam: tl.constexpr, sak: tl.constexpr,
    sbb: tl.constexpr, sbk: tl.constexpr, sbn: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
    MODE: tl.constexpr, CHUNK: tl.constexpr, PRECISION: tl.constexpr,
):
    pid = tl.program_id(0)
    grid_m: tl.constexpr = (M + BLOCK_M - 1) // BLOCK_M
    grid_n: tl.constexpr = (N + BLOCK_N - 1) // BLOCK_N
    in_group = GROUP_M * grid_n
    first_m = pid // in_group * GROUP_M
    group_rows = min(grid_m - first_m, GROUP_M)
    pid_m = first_m + pid % in_group % group_rows
    pid_n = pid % in_group // group_rows
    bidx = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + bidx * sab + (rm % M)[:, None] * sam + rk[None, :] * sak
    b_ptrs = b_ptr + bidx * sbb + rk[:, None] * sbk + (rn % N)[None, :] * sbn
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    if MODE == 0:
        for k0 in range(0, K, BLOCK_K):
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
            acc = tl.dot(a, b, acc, input_precision=PRECISION)
            a_ptrs += BLOCK_K * sak
            b_ptrs += BLOCK_K * sbk
    else:
        for k0 in range(0, K, BLOCK_K * CHUNK):
            part = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
            for kc in range(CHUNK):
                a = tl.load(a_ptrs)
                b = tl.load(b_ptrs)
                part = tl.dot(a, b, part, input_precision=PRECISION)
                a_ptrs += BLOCK_K * sak
                b_ptrs += BLOCK_K * sbk
            acc += part
    c_ptrs = c_ptr + bidx * M * N + rm[:, None] * N + rn[None, :]
    tl.store(c_ptrs, acc, mask=(rm < M)[:, None] & (rn < N)[None, :])


def run_kernel(a, b, cfg):
    batched = a.dim() == 3
    a3 = a if batched else a.unsqueeze(0)
    b3 = b if batched else b.unsqueeze(0)
    B, M, K = a3.shape
    N = b3.shape[2]
    c = torch.empty((B, M, N), device=a.device, dtype=torch.float32)
    bm, bn, bk, warps, stages, mode, chunk, prec = cfg
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn), B)
    bmm_kernel[grid](
        a3, b3, c, M, N, K, a3.stride(0), a3.stride(1), a3.stride(2), b3.stride(0), b3.stride(1), b3.stride(2),
        BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, MODE=mode, CHUNK=chunk, PRECISION=prec,
        num_warps=warps, num_stages=stages,
    )
    return c if batched else c[0]


def fails(x, ref):
    return int((~torch.isclose(x, ref, atol=1e-4, rtol=1e-4)).sum().item())


def accuracy(name, shape_a, shape_b, results):
    torch.manual_seed(0)
    a = torch.randn(*shape_a, device="cuda")
    b = torch.randn(*shape_b, device="cuda")
    exact = torch.matmul(a.double(), b.double())
    cublas = torch.matmul(a, b)
    ways = {"cublas": cublas, "exact_rounded": exact.float()}
    configs = {
        "chain_tf32x3": (128, 128, 32, 8, 3, 0, 1, "tf32x3"),
        "chunk4_tf32x3": (128, 128, 32, 8, 3, 1, 4, "tf32x3"),
        "chunk1_tf32x3": (128, 128, 32, 8, 3, 1, 1, "tf32x3"),
        "ieee": (64, 64, 32, 4, 3, 0, 1, "ieee"),
    }
    for key, cfg in configs.items():
        ways[key] = run_kernel(a, b, cfg)
    for key, x in ways.items():
        err = (x.double() - exact).abs()
        row = {
            "problem": name, "way": key,
            "max_err_vs_exact": err.max().item(), "mean_err_vs_exact": err.mean().item(),
            "fails_vs_cublas": fails(x, cublas), "fails_vs_exact": fails(x, exact.float()),
        }
        if key in configs:
            row["ms"] = do_bench(lambda: run_kernel(a, b, configs[key]), warmup=25, rep=100)
        elif key == "cublas":
            row["ms"] = do_bench(lambda: torch.matmul(a, b), warmup=25, rep=100)
        results.append(row)
        print(json.dumps(row), flush=True)


def speed(name, shape_a, shape_b, results):
    torch.manual_seed(0)
    a = torch.randn(*shape_a, device="cuda")
    b = torch.randn(*shape_b, device="cuda")
    cublas_ms = do_bench(lambda: torch.matmul(a, b), warmup=25, rep=100)
    results.append({"problem": name, "way": "cublas", "ms": cublas_ms})
    print(json.dumps(results[-1]), flush=True)
    for bm, bn, bk, warps, stages in [
        (128, 128, 32, 8, 3), (128, 128, 32, 4, 3), (128, 128, 32, 8, 4), (128, 256, 32, 8, 3),
        (256, 128, 32, 8, 3), (128, 128, 64, 8, 2), (64, 128, 32, 4, 4), (128, 64, 32, 4, 4),
    ]:
        for mode, chunk in [(0, 1), (1, 4)]:
            cfg = (bm, bn, bk, warps, stages, mode, chunk, "tf32x3")
            try:
                ms = do_bench(lambda: run_kernel(a, b, cfg), warmup=25, rep=100)
            except Exception as e:  # out of shared memory for this tile: record and go on
                ms = None
                print(f"{cfg}: {type(e).__name__}: {str(e)[:120]}", flush=True)
            results.append({"problem": name, "way": "cfg", "cfg": list(cfg), "ms": ms,
                            "vs_cublas": (cublas_ms / ms) if ms else None})
            print(json.dumps(results[-1]), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    args = ap.parse_args()
    results = []
    accuracy("matmul_4096", (4096, 4096), (4096, 4096), results)
    accuracy("matmul_k16384", (1024, 16384), (16384, 1024), results)
    speed("bmm_64x1024x768x1024", (64, 1024, 768), (64, 768, 1024), results)
    speed("matmul_4096", (4096, 4096), (4096, 4096), results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
