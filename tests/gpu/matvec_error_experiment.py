"""Error and time of mat-vec forms against cuBLAS and the exact (fp64) product (a measurement for the device tool).

    python3 tests/gpu/matvec_error_experiment.py DIR [SEEDS]

DIR holds generated files of tests/corpus/gemm_mv.py (torch.mv over [24001, 40009] fp32): old.py and new.py (two
compilers' outputs, e.g. from scripts/ab_prepare.sh), and hand-edited variants of new.py (the peeled [1, 2048]
form): new64.py (lane accumulators in fp64, fp32 products), new64x.py (fp64 products too), new64g{4,8,16}.py
(each lane's groups of G products summed in fp32, the groups accumulated in fp64). Per seed: each form's max and
mean error against the fp64 product, and how many outputs miss KernelBench's tolerance (1e-4 + 1e-4 * |cuBLAS|)
against cuBLAS ("exact" is the fp64 product rounded to fp32: what a perfect kernel would score); then kernel times
(triton.testing.do_bench, median). Session 13 (2026-12-04): docs/RESULTS.md.
"""
import importlib.util, sys, torch
def load(p):
    s = importlib.util.spec_from_file_location(p, p); m = importlib.util.module_from_spec(s); s.loader.exec_module(m); return m
d = sys.argv[1]
old, new = load(d + '/old.py').ModelNew().cuda(), load(d + '/new.py').ModelNew().cuda()
new64 = load(d + '/new64.py').ModelNew().cuda()
new64x = load(d + '/new64x.py').ModelNew().cuda()
g4, g8, g16 = (load(d + f'/new64g{G}.py').ModelNew().cuda() for G in (4, 8, 16))
tot = {"old": 0, "new": 0, "new64": 0, "new64x": 0, "g4": 0, "g8": 0, "g16": 0, "exact": 0}
for seed in range(int(sys.argv[2]) if len(sys.argv) > 2 else 5):
    torch.manual_seed(seed)
    A = torch.randn(24001, 40009, device='cuda'); x = torch.randn(40009, device='cuda')
    exact = (A.double() @ x.double())
    res = {'cublas': torch.mv(A, x), 'old': old(A, x), 'new': new(A, x), 'new64': new64(A, x), 'new64x': new64x(A, x), 'g4': g4(A, x), 'g8': g8(A, x), 'g16': g16(A, x), 'exact': exact.float()}
    line = []
    for k, v in res.items():
        e = (v.double() - exact).abs()
        line.append(f"{k}: max {e.max().item():.2e} mean {e.mean().item():.2e}")
    for k in ('old', 'new', 'new64', 'new64x', 'g4', 'g8', 'g16', 'exact'):
        ok = torch.allclose(res[k], res['cublas'], atol=1e-4, rtol=1e-4)
        bad = ((res[k] - res['cublas']).abs() > 1e-4 + 1e-4 * res['cublas'].abs()).sum().item()
        line.append(f"{k} vs cublas ok={ok} bad={bad}"); tot[k] += bad
    print(seed, ' | '.join(l for l in line if 'max' in l or 'ok=False' in l), flush=True)
print("total bad", tot)

from triton.testing import do_bench
for k, f in (('cublas', lambda: torch.mv(A, x)), ('old', lambda: old(A, x)), ('new', lambda: new(A, x)), ('new64', lambda: new64(A, x)), ('new64x', lambda: new64x(A, x)), ('g4', lambda: g4(A, x)), ('g8', lambda: g8(A, x)), ('g16', lambda: g16(A, x))):
    print(k, 'ms', do_bench(f, warmup=25, rep=200, return_mode='median'))
