"""Statistics of normalisations whose reduced run is, in memory, columns (a measurement for the device tool): kernel
time after an L2 flush (triton.testing.do_bench, median), as a fraction of the bandwidth floor of one read of x
(bytes / 4.25 TB/s).

  bn    - F.batch_norm(x.permute(0, 3, 1, 2), training=True) of fp32 NHWC [128, 112, 112, 256]
          (norm_batch_norm_functional): the statistics per channel over N * H * W rows of 256 channels.
  inorm - nn.InstanceNorm1d over x.transpose(1, 2) of fp32 [64, 4096, 512] (norm_instancenorm1d_affine_transposed):
          per (batch, channel) over 4096 rows of 512 channels.

Forms:
  looped - what tritonize emitted before (session 13): one program per (group, 64-column block), looping over the
           group's rows twice, [64, 64] on 8 warps (sum, then the centered sum of squares: two reads of x).
  held R/B/W - what it emits now (passes/decompose.cpp, moments: chunks sized by the column tile): each program holds
           a chunk of R rows x B columns in registers (tile [next_pow2(R), B], W warps) and writes the chunk's mean and
           centered sum of squares (one read of x); a small kernel combines the chunks (not timed: 0.1% of the bytes).
           tritonize's choice is marked *: bn 224/64/4, inorm 256/64/4.
Eager's whole F.batch_norm / instance norm forward beside (it reads x twice and writes once: not comparable to the
statistics alone, printed for scale).

    python3 tests/gpu/norm_columns_experiment.py [--json OUT.json] [--dry]

--dry runs every form once at small shapes through Triton's interpreter (on the CPU: checks the kernels' results
against torch, times nothing).
"""
import argparse
import json
import os
import sys

if "--dry" in sys.argv:  # (before triton is imported)
    os.environ["TRITON_INTERPRET"] = "1"

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

BANDWIDTH = 4.25e12


@triton.jit
def stats_looped(x_ptr, mean_ptr, m2_ptr, GROUP_ROWS: tl.constexpr, C: tl.constexpr, BLOCK_R: tl.constexpr,
                 BLOCK_I: tl.constexpr):
    # x viewed [groups, GROUP_ROWS, C]; one program per (group, column block); two passes over the group's rows
    group = tl.program_id(0) // (C // BLOCK_I)
    cols = tl.program_id(0) % (C // BLOCK_I) * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    acc = tl.zeros([BLOCK_R, BLOCK_I], dtype=tl.float32)
    for r0 in range(0, GROUP_ROWS, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        acc += tl.load(x_ptr + group * GROUP_ROWS * C + r * C + cols)
    mean = tl.sum(acc, axis=0, keep_dims=True) / GROUP_ROWS
    acc = tl.zeros([BLOCK_R, BLOCK_I], dtype=tl.float32)
    for r0 in range(0, GROUP_ROWS, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        d = tl.load(x_ptr + group * GROUP_ROWS * C + r * C + cols) - mean
        acc += d * d
    m2 = tl.sum(acc, axis=0, keep_dims=True)
    tl.store(mean_ptr + group * C + cols, mean)
    tl.store(m2_ptr + group * C + cols, m2)


@triton.jit
def stats_held(x_ptr, mean_ptr, m2_ptr, ROWS: tl.constexpr, CHUNKS: tl.constexpr, C: tl.constexpr,
               BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    # x viewed [CHUNKS, ROWS, C]; one program per (chunk, column block), the chunk held; partials stored [C, CHUNKS]
    # as tritonize's kernel stores them (the kept channel outermost)
    chunk = tl.program_id(0) // (C // BLOCK_I)
    cols = tl.program_id(0) % (C // BLOCK_I) * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    r = tl.arange(0, BLOCK_R)[:, None]
    mask = r < ROWS
    x = tl.load(x_ptr + chunk * ROWS * C + r * C + cols, mask=mask)
    mean = tl.sum(tl.where(mask, x, 0.0), axis=0, keep_dims=True) / ROWS
    d = x - mean
    m2 = tl.sum(tl.where(mask, d * d, 0.0), axis=0, keep_dims=True)
    tl.store(mean_ptr + cols * CHUNKS + chunk, mean)
    tl.store(m2_ptr + cols * CHUNKS + chunk, m2)


def combine(mean, m2, rows, groups_of_chunks):
    # chunk partials [C, CHUNKS] -> per (group, C) mean and biased variance (Chan), in torch (checking only)
    c, chunks = mean.shape
    mean = mean.reshape(c, groups_of_chunks, chunks // groups_of_chunks)
    m2 = m2.reshape(c, groups_of_chunks, chunks // groups_of_chunks)
    mu = mean.mean(-1, keepdim=True)
    var = (m2 + rows * (mean - mu) ** 2).sum(-1) / (rows * mean.shape[-1])
    return mu.squeeze(-1).t(), var.t()  # [stat groups, C]


def run_case(name, x, group_rows, groups_per_stat, held_forms, eager, dry, results):
    # x: [rows_total, C] in memory; a statistic is over groups_per_stat consecutive groups of group_rows rows
    total_rows, c = x.shape
    stats_groups = total_rows // (group_rows * groups_per_stat)
    ref = x.double().reshape(stats_groups, group_rows * groups_per_stat, c)
    ref_mean, ref_var = ref.mean(1), ref.var(1, unbiased=False)
    floor = x.numel() * x.element_size() / BANDWIDTH * 1e3
    print(f"{name}: x {tuple(x.shape)}, floor of one read {floor:.3f} ms")

    def report(label, fn, mean_var):
        fn()
        mean, var = mean_var()
        err = max((mean.double() - ref_mean).abs().max().item(), (var.double() - ref_var).abs().max().item())
        ms = None if dry else triton.testing.do_bench(fn, warmup=25, rep=200, return_mode="median")
        frac = None if ms is None else floor / ms
        print(f"  {label:28s} " + ("" if ms is None else f"{ms:8.3f} ms  {frac:5.2f} of floor  ") + f"max err {err:.2e}")
        results.append(dict(case=name, form=label, ms=ms, fraction=frac, err=err))

    groups = total_rows // group_rows
    mean_g = torch.empty(groups, c, device=x.device)
    m2_g = torch.empty(groups, c, device=x.device)
    grid = (groups * (c // 64),)
    report("looped [64, 64] w8 (before)",
           lambda: stats_looped[grid](x, mean_g, m2_g, GROUP_ROWS=group_rows, C=c, BLOCK_R=64, BLOCK_I=64,
                                      num_warps=8),
           lambda: combine(mean_g.t().contiguous(), m2_g.t().contiguous(), group_rows, stats_groups))
    for rows, block_i, warps, chosen in held_forms:
        chunks = total_rows // rows
        mean_c = torch.empty(c, chunks, device=x.device)
        m2_c = torch.empty(c, chunks, device=x.device)
        grid_c = (chunks * (c // block_i),)
        report(f"held {rows}/{block_i}/{warps}" + (" *" if chosen else ""),
               lambda rows=rows, block_i=block_i, warps=warps, chunks=chunks, mean_c=mean_c, m2_c=m2_c, grid_c=grid_c:
               stats_held[grid_c](x, mean_c, m2_c, ROWS=rows, CHUNKS=chunks, C=c, BLOCK_R=triton.next_power_of_2(rows),
                                  BLOCK_I=block_i, num_warps=warps),
               lambda rows=rows, mean_c=mean_c, m2_c=m2_c: combine(mean_c, m2_c, rows, stats_groups))
    if not dry:
        ms = triton.testing.do_bench(eager, warmup=25, rep=200, return_mode="median")
        print(f"  {'eager (whole forward)':28s} {ms:8.3f} ms")
        results.append(dict(case=name, form="eager", ms=ms))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json")
    ap.add_argument("--dry", action="store_true")
    args = ap.parse_args()
    device = "cpu" if args.dry else "cuda"
    torch.manual_seed(0)
    results = []
    # bn: NHWC [N, H, W, C]; a statistic per channel over all N * H * W rows; groups (looped) of one image
    n, h, w, c = (3, 8, 16, 128) if args.dry else (128, 112, 112, 256)
    x = torch.randn(n * h * w, c, device=device) * 2 + 1
    bn_forms = [(2 * w, 64, 4, True), (2 * w, 64, 8, False), (w, 64, 4, False), (w, 64, 2, False), (4 * w, 64, 8, False),
                (2 * w, 32, 2, False)]
    x4 = x.view(n, h, w, c).permute(0, 3, 1, 2)
    run_case("bn", x, h * w, n, bn_forms, lambda: F.batch_norm(x4, None, None, training=True), args.dry, results)
    del x, x4
    # inorm: [B, L, C]; a statistic per (batch, channel) over L rows
    b, length, c = (2, 512, 128) if args.dry else (64, 4096, 512)
    x = torch.randn(b * length, c, device=device) * 2 + 1
    in_forms = [(256, 64, 4, True), (256, 64, 8, False), (128, 64, 4, False), (128, 64, 2, False), (512, 64, 8, False),
                (256, 32, 2, False)]
    xt = x.view(b, length, c).transpose(1, 2)
    run_case("inorm", x, length, 1, in_forms, lambda: F.instance_norm(xt), args.dry, results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
