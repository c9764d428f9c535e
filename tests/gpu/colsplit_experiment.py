"""Softmax / log_softmax over columns with few column blocks (a measurement for the device tool).

The column kernel of tests/corpus/log_softmax_rows_cols_fp16.py (fp16 x [13411, 10007], log_softmax of x.t() over
dim 0 = over x's rows, stored transposed: y[i, j] = x[j, i] - lse(x[j, :])) runs tritonize's online column form on
13411 / 128 = 105 column blocks, one program each: fewer programs than the H200 has multiprocessors. Forms, on a
[BLOCK_R, BLOCK_I] tile (axis 0 the reduced dim, axis 1 the kept columns), every index by strides so one kernel
serves both layouts:
  online - what tritonize emits: one program per column block, a running max and rescaled sum of exp per lane over
           [32, BLOCK_I] chunks, then a pass that writes (two reads, one write);
  coop   - tritonize's cooperative column blocks (fp32 only today): the block split over G programs that run at once,
           each holding [CHUNK, BLOCK_I] in registers, one exchange of (max, sum of exp), then the write from
           registers (one read, one write);
  split  - the block split over PARTS programs of CHUNK rows in two launches: the first stores each part's online
           (max, sum of exp) by lane, the second combines the [PARTS, BLOCK_I] partials and writes its CHUNK rows
           (two reads, one write, no program waits for another).
Shapes: cols16 - the corpus kernel above; bf16d1 - log_softmax over dim 1 of bf16 [32, 1024, 4096]
(tests/corpus/log_softmax_dim1_bf16.py, 1024 column blocks); f16few - fp16 [4, 4096, 4096] over dim 1 (128 blocks).
Each variant's max error against a float32 torch reference; floor = (read + write) / 4.25 TB/s.

    python3 tests/gpu/colsplit_experiment.py [--only cols16,bf16d1] [--dry] [--probe DIR]

What tritonize emits now (branch colsoftmax): cols16 coop {CHUNK 256, BLOCK_I 32, 8 warps} (rows of 10007 fp16 are
not 16-byte aligned), f16few coop {128, 64, 4}; bf16d1 stays online {32, 128, 8}.

--probe DIR times each launcher of the generated files in DIR (tritonize convert output named after the corpus
problem, with the corpus file beside it as P_src.py) and eager: for P in ...; do build/tritonize convert
tests/corpus/$P.py -o DIR/$P.py; cp tests/corpus/$P.py DIR/${P}_src.py; done
--dry runs every variant once under TRITON_INTERPRET=1 at small shapes.
"""
import argparse
import importlib.util
import os
import sys

if "--dry" in sys.argv:
    os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl

FLOOR_BPS = 4.25e12


@triton.jit
def _nan_max(a, b):
    return tl.maximum(a, b, propagate_nan=tl.PropagateNan.ALL)


@triton.jit
def online(x_ptr, y_ptr, R: tl.constexpr, I: tl.constexpr, SO: tl.constexpr, SR: tl.constexpr, SC: tl.constexpr,
           YO: tl.constexpr, YR: tl.constexpr, YC: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    IB: tl.constexpr = (I + BLOCK_I - 1) // BLOCK_I
    pid = tl.program_id(0)
    outer = pid // IB
    cols = pid % IB * BLOCK_I + tl.arange(0, BLOCK_I)[None, :]
    cm = cols < I
    m = tl.full([BLOCK_R, BLOCK_I], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK_R, BLOCK_I], tl.float32)
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        msk = (r < R) & cm
        x = tl.load(x_ptr + outer * SO + r * SR + cols * SC, mask=msk).to(tl.float32)
        y = tl.where(msk, x, float("-inf"))
        e = tl.exp(tl.where(y == m, 0.0, tl.minimum(y, m) - tl.maximum(y, m)))
        s = tl.where(y > m, s * e + 1.0, s + e)
        m = tl.maximum(m, y)
    mx = tl.reduce(m, 0, _nan_max, keep_dims=True)
    lse = mx + tl.log(tl.sum(s * tl.exp(tl.where(m == mx, 0.0, m - mx)), axis=0, keep_dims=True))
    for r0 in range(0, R, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        msk = (r < R) & cm
        x = tl.load(x_ptr + outer * SO + r * SR + cols * SC, mask=msk).to(tl.float32)
        tl.store(y_ptr + outer * YO + r * YR + cols * YC, (x - lse).to(y_ptr.dtype.element_ty), mask=msk)


@triton.jit
def coop(x_ptr, y_ptr, work_ptr, count_ptr, TILES: tl.constexpr, R: tl.constexpr, I: tl.constexpr,
         SO: tl.constexpr, SR: tl.constexpr, SC: tl.constexpr, YO: tl.constexpr, YR: tl.constexpr,
         YC: tl.constexpr, CHUNK: tl.constexpr, BLOCK_I: tl.constexpr, G: tl.constexpr, GP: tl.constexpr):
    IB: tl.constexpr = (I + BLOCK_I - 1) // BLOCK_I
    for t in range(tl.program_id(0), TILES * G, tl.num_programs(0)):
        tile = t // G
        part = t % G
        outer = tile // IB
        c = tl.arange(0, BLOCK_I)[None, :]
        cols = (tile % IB) * BLOCK_I + c
        r = part * CHUNK + tl.arange(0, CHUNK)[:, None]
        mask = (r < R) & (cols < I)
        x = tl.load(x_ptr + outer * SO + r * SR + cols * SC, mask=mask).to(tl.float32)
        pm = tl.reduce(tl.where(mask, x, float("-inf")), 0, _nan_max, keep_dims=True)
        ps = tl.sum(tl.where(mask, tl.exp(tl.where(x == pm, 0.0, x - pm)), 0.0), axis=0, keep_dims=True)
        slot = work_ptr + ((tile * G + part) * 2) * BLOCK_I + c
        tl.store(slot, pm)
        tl.store(slot + BLOCK_I, ps)
        tl.debug_barrier()
        seen = tl.atomic_add(count_ptr + tile, 1, sem="acq_rel") + 1
        while seen < G:
            seen = tl.atomic_add(count_ptr + tile, 0, sem="acquire")
        tl.debug_barrier()
        g = tl.arange(0, GP)[:, None]
        slots = work_ptr + ((tile * G + g) * 2) * BLOCK_I + c
        ms = tl.load(slots, mask=g < G, other=float("-inf"), volatile=True)
        ss = tl.load(slots + BLOCK_I, mask=g < G, other=0.0, volatile=True)
        mx = tl.reduce(ms, 0, _nan_max, keep_dims=True)
        lse = mx + tl.log(tl.sum(ss * tl.exp(tl.where(ms == mx, 0.0, ms - mx)), axis=0, keep_dims=True))
        tl.store(y_ptr + outer * YO + r * YR + cols * YC, (x - lse).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def split_stats(x_ptr, work_ptr, R: tl.constexpr, I: tl.constexpr, SO: tl.constexpr, SR: tl.constexpr,
                SC: tl.constexpr, PARTS: tl.constexpr, CHUNK: tl.constexpr, BLOCK_R: tl.constexpr,
                BLOCK_I: tl.constexpr):
    IB: tl.constexpr = (I + BLOCK_I - 1) // BLOCK_I
    pid = tl.program_id(0)
    block = pid // PARTS
    part = pid % PARTS
    outer = block // IB
    lanes = tl.arange(0, BLOCK_I)[None, :]
    cols = block % IB * BLOCK_I + lanes
    cm = cols < I
    m = tl.full([BLOCK_R, BLOCK_I], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK_R, BLOCK_I], tl.float32)
    for r0 in range(part * CHUNK, part * CHUNK + CHUNK, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        msk = (r < R) & cm
        x = tl.load(x_ptr + outer * SO + r * SR + cols * SC, mask=msk).to(tl.float32)
        y = tl.where(msk, x, float("-inf"))
        e = tl.exp(tl.where(y == m, 0.0, tl.minimum(y, m) - tl.maximum(y, m)))
        s = tl.where(y > m, s * e + 1.0, s + e)
        m = tl.maximum(m, y)
    pm = tl.reduce(m, 0, _nan_max, keep_dims=True)
    ps = tl.sum(s * tl.exp(tl.where(m == pm, 0.0, m - pm)), axis=0, keep_dims=True)
    slot = work_ptr + ((block * PARTS + part) * 2) * BLOCK_I + lanes
    tl.store(slot, pm)
    tl.store(slot + BLOCK_I, ps)


@triton.jit
def split_write(x_ptr, y_ptr, work_ptr, R: tl.constexpr, I: tl.constexpr, SO: tl.constexpr, SR: tl.constexpr,
                SC: tl.constexpr, YO: tl.constexpr, YR: tl.constexpr, YC: tl.constexpr, PARTS: tl.constexpr,
                PARTS_P2: tl.constexpr, CHUNK: tl.constexpr, BLOCK_R: tl.constexpr, BLOCK_I: tl.constexpr):
    IB: tl.constexpr = (I + BLOCK_I - 1) // BLOCK_I
    pid = tl.program_id(0)
    block = pid // PARTS
    part = pid % PARTS
    outer = block // IB
    lanes = tl.arange(0, BLOCK_I)[None, :]
    cols = block % IB * BLOCK_I + lanes
    cm = cols < I
    g = tl.arange(0, PARTS_P2)[:, None]
    slots = work_ptr + ((block * PARTS + g) * 2) * BLOCK_I + lanes
    ms = tl.load(slots, mask=g < PARTS, other=float("-inf"))
    ss = tl.load(slots + BLOCK_I, mask=g < PARTS, other=0.0)
    mx = tl.reduce(ms, 0, _nan_max, keep_dims=True)
    lse = mx + tl.log(tl.sum(ss * tl.exp(tl.where(ms == mx, 0.0, ms - mx)), axis=0, keep_dims=True))
    for r0 in range(part * CHUNK, part * CHUNK + CHUNK, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)[:, None]
        msk = (r < R) & cm
        x = tl.load(x_ptr + outer * SO + r * SR + cols * SC, mask=msk).to(tl.float32)
        tl.store(y_ptr + outer * YO + r * YR + cols * YC, (x - lse).to(y_ptr.dtype.element_ty), mask=msk)


def shapes(dry):
    """name: (x, y, M, R, I, x strides (outer, r, col), y strides, reference)"""
    out = {}
    n_img, n_txt = (67, 131) if dry else (10007, 13411)
    out["cols16"] = (n_txt, n_img, torch.float16, "t")
    b, c, p = (2, 37, 53) if dry else (32, 1024, 4096)
    out["bf16d1"] = (b, c, p, torch.bfloat16, "d1")
    b, c, p = (2, 300, 100) if dry else (4, 4096, 4096)
    out["f16few"] = (b, c, p, torch.float16, "d1")
    return out


def make(spec, dev):
    if spec[-1] == "t":  # x [J, I] contiguous; y[i, j] = log_softmax(x, dim=1)[j, i]
        J, Ii, dt, _ = spec
        x = torch.randn(J, Ii, device=dev, dtype=dt)
        y = torch.empty(Ii, J, device=dev, dtype=dt)
        ref = lambda: torch.log_softmax(x.float(), dim=1).t()
        return x, y, dict(M=1, R=Ii, I=J, SO=0, SR=1, SC=Ii, YO=0, YR=J, YC=1), ref
    B, C, P, dt, _ = spec
    x = torch.randn(B, C, P, device=dev, dtype=dt)
    y = torch.empty_like(x)
    ref = lambda: torch.log_softmax(x.float(), dim=1)
    return x, y, dict(M=B, R=C, I=P, SO=C * P, SR=P, SC=1, YO=C * P, YR=P, YC=1), ref


def variants(dry):
    v = [("online", dict(BLOCK_R=32, BLOCK_I=128, warps=8)), ("online", dict(BLOCK_R=32, BLOCK_I=64, warps=4))]
    for chunk, bi, w in [(128, 64, 4), (256, 64, 8), (128, 128, 8), (256, 32, 8), (512, 32, 8), (256, 64, 4)]:
        v.append(("coop", dict(CHUNK=chunk, BLOCK_I=bi, warps=w)))
    for parts_target, br, bi, w in [(2048, 32, 128, 8), (4096, 32, 64, 4), (2048, 32, 64, 4), (1024, 32, 128, 8),
                                    (4096, 64, 64, 8), (8192, 32, 64, 4)]:
        v.append(("split", dict(TARGET=parts_target, BLOCK_R=br, BLOCK_I=bi, warps=w)))
    if dry:
        v = [(f, {**k, **({"CHUNK": min(k["CHUNK"], 64)} if "CHUNK" in k else {})}) for f, k in v]
    return v


def runner(form, cfg, x, y, st, sms, dry):
    M, R, I = st["M"], st["R"], st["I"]
    common = {k: st[k] for k in ("R", "I", "SO", "SR", "SC")}
    ycommon = {k: st[k] for k in ("YO", "YR", "YC")}
    bi, w = cfg["BLOCK_I"], cfg["warps"]
    blocks = M * triton.cdiv(I, bi)
    if form == "online":
        meta = dict(**common, **ycommon, BLOCK_R=cfg["BLOCK_R"], BLOCK_I=bi, num_warps=w)
        return (lambda: online[(blocks,)](x, y, **meta)), f"{blocks} programs"
    if form == "split":
        parts = max(1, triton.cdiv(cfg["TARGET"], blocks))
        chunk = max(triton.cdiv(R, parts), 4 * cfg["BLOCK_R"])
        chunk = triton.cdiv(chunk, cfg["BLOCK_R"]) * cfg["BLOCK_R"]
        parts = triton.cdiv(R, chunk)
        work = torch.empty(blocks * parts * 2 * bi, device=x.device, dtype=torch.float32)
        m1 = dict(**common, PARTS=parts, CHUNK=chunk, BLOCK_R=cfg["BLOCK_R"], BLOCK_I=bi, num_warps=w)
        m2 = dict(**common, **ycommon, PARTS=parts, PARTS_P2=triton.next_power_of_2(parts), CHUNK=chunk,
                  BLOCK_R=cfg["BLOCK_R"], BLOCK_I=bi, num_warps=w)

        def run():
            split_stats[(blocks * parts,)](x, work, **m1)
            split_write[(blocks * parts,)](x, y, work, **m2)
        return run, f"{blocks * parts} programs, {parts} parts of {chunk}"
    chunk = cfg["CHUNK"]
    G = triton.cdiv(R, chunk)
    if dry:
        chunk, G = triton.next_power_of_2(R), 1
    work = torch.empty(blocks * G * 2 * bi, device=x.device, dtype=torch.float32)
    count = torch.zeros(blocks, device=x.device, dtype=torch.int32)
    meta = dict(TILES=blocks, **common, **ycommon, CHUNK=chunk, BLOCK_I=bi, G=G, GP=triton.next_power_of_2(G),
                num_warps=w)
    if dry:
        programs, info = 1, "1 program (interpreter)"
    else:
        compiled = coop.warmup(x, y, work, count, grid=(1,), **meta)
        compiled._init_handles()
        props = torch.cuda.get_device_properties(x.device)
        threads = 32 * w
        per_sm = min(4, props.regs_per_multiprocessor // (-(-max(compiled.n_regs, 1) // 8) * 8 * threads),
                     props.max_threads_per_multi_processor // threads,
                     props.shared_memory_per_multiprocessor // (compiled.metadata.shared + 1024))
        programs = min(blocks * G, per_sm * sms // G * G)
        info = f"{G} groups, {programs} resident programs, {compiled.n_regs} regs, {compiled.n_spills} spills"
        if programs == 0:
            return None, info + ": does not fit"

    def run():
        count.zero_()
        coop[(programs,)](x, y, work, count, **meta)
    return run, info


def experiment(args):
    dev = "cpu" if args.dry else "cuda"
    sms = 1 if args.dry else torch.cuda.get_device_properties(0).multi_processor_count
    for name, spec in shapes(args.dry).items():
        if args.only and name not in args.only.split(","):
            continue
        torch.manual_seed(0)
        x, y, st, ref = make(spec, dev)
        expect = ref()
        floor = 2 * x.numel() * x.element_size() / FLOOR_BPS * 1e3
        if not args.dry:
            eager_in = x.t() if spec[-1] == "t" else x
            d = 0 if spec[-1] == "t" else 1
            t = triton.testing.do_bench(lambda: torch.log_softmax(eager_in, dim=d), rep=200)
            print(f"{name} eager {t:.3f} ms ({floor / t:.2f} of floor {floor:.3f} ms)", flush=True)
        for form, cfg in variants(args.dry):
            run, info = runner(form, cfg, x, y, st, sms, args.dry)
            if run is None:
                print(f"{name} {form} {cfg}: {info}", flush=True)
                continue
            y.fill_(float("nan"))
            run()
            err = (y.float() - expect).abs().max().item()
            t = float("nan") if args.dry else triton.testing.do_bench(run, rep=200)
            print(f"{name} {form:6s} {cfg} {t:.3f} ms ({floor / t:.2f} of floor) err {err:.2e} [{info}]", flush=True)


def probe(args):
    """Each launcher of the generated files in DIR, timed alone, and eager."""
    for f in sorted(os.listdir(args.probe)):
        if not f.endswith(".py") or f.endswith("_src.py"):
            continue
        name = f[:-3]
        gen = _load(os.path.join(args.probe, f), name + "_gen")
        src = _load(os.path.join(args.probe, name + "_src.py"), name + "_src")
        torch.manual_seed(0)
        dtype = None
        txt = open(os.path.join(args.probe, name + "_src.py")).read()
        for tag, dt in (("# dtype: fp16", torch.float16), ("# dtype: bf16", torch.bfloat16)):
            if tag in txt:
                dtype = dt
        inputs = [i.cuda() if dtype is None else i.cuda().to(dtype) for i in src.get_inputs()]
        model, new = src.Model().cuda(), gen.ModelNew().cuda()
        calls = []
        for attr in dir(gen):
            fn = getattr(gen, attr)
            if attr.startswith("fused_") and callable(fn) and not isinstance(fn, triton.runtime.JITFunction):
                def wrap(*a, _fn=fn, _n=attr, **k):
                    calls.append((_n, _fn, a, k))
                    return _fn(*a, **k)
                setattr(gen, attr, wrap)
        with torch.no_grad():
            out = new(*inputs)
            ref = model(*inputs)
        err = (out.float() - ref.float()).abs().max().item()
        t_all = triton.testing.do_bench(lambda: new(*inputs), rep=300)
        t_eager = triton.testing.do_bench(lambda: model(*inputs), rep=300)
        print(f"{name}: ours {t_all:.3f} ms, eager {t_eager:.3f} ms, err {err:.2e}", flush=True)
        for n, fn, a, k in calls:
            t = triton.testing.do_bench(lambda: fn(*a, **k), rep=300)
            print(f"  {n}: {t:.3f} ms", flush=True)


def _load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="")
    ap.add_argument("--dry", action="store_true")
    ap.add_argument("--probe", default="")
    args = ap.parse_args()
    if args.probe:
        probe(args)
    else:
        experiment(args)


if __name__ == "__main__":
    main()
