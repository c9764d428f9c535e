"""Seeded random nn.Module sources for differential testing (test_random_modules.py), and a bulk runner.

generate(seed) writes a KernelBench-format problem (module-level sizes, class Model, get_inputs,
get_init_inputs) from the operators tritonize supports: pointwise chains, broadcasting between operands of
different rank, views before and after reductions, reductions over random dims, softmax/log_softmax, matmul and
linear layers, fp32/fp16/bf16 casts, odd sizes, permuted (non-contiguous) inputs; normalisations (layer, group,
instance and batch norm in eval and training mode with buffers, F.normalize, vector norms, RMS norm); max/avg
and adaptive pooling in 1-3 dims; reverse, exclusive and near-1 product scans; strided slices and selections,
max/min with indices; activations; losses (mse, l1, smooth l1, huber, cross entropy with class-index inputs,
kl_div, cosine similarity, triplet margin); small convolutions and transposed convolutions; attention (causal,
bool-mask inputs, float masks, scale); since version 2 (VERSION) also computed values with their dims merged,
split (unflatten) or regrouped (between permutes) and then reduced, softmaxed, scanned, tril'd, flipped, sliced, catted or
expanded, tril/triu with diagonals, nested reductions and two reductions of one value over different axes,
keepdim mixtures, var/std, bool/int masks (&, |, ~, where, masked_fill, integer cumsum and counts); since version 3
the shape functions and the newer reductions and losses on computed values (after a permute, on 16-bit values,
with negative dims, read at once by a reduction, softmax, matmul or view): chunk / split / unbind pieces (combined,
catted back in another order, stacked along another dim), F.pad in its four modes (constant with negative pads),
roll, repeat, tile, arange in forward (float steps, dtype=, masks from two aranges), F.one_hot (of an argmax, of
class-index inputs, a permutation matrix), count_nonzero, outer / ger / dot / inner, logsumexp, var_mean /
std_mean, softmin, GLU, threshold, nll_loss, binary_cross_entropy (with logits, weight, pos_weight), as functions
and nn modules. Every statement is run in eager PyTorch while it is generated, on a few
input draws, and kept only when it is valid and its values stay in a safe range, so that a mismatch against the
generated kernels is a bug, not rounding noise:

- values stay within +-VALUE_LIMIT (12 in 16-bit tensors), no NaN or inf: logs and square roots of |v| + 1,
  divisions by |v| + 1;
- comparisons (where) only test exact values (inputs and what neg/abs/relu/max/min/views make of them), so that
  an ulp of difference never flips a branch;
- a 16-bit value that an operation rounded is only viewed, cast or returned, never computed with again
  (written when tritonize rounded at explicit casts and stores only; since session 10 it rounds every 16-bit
  result as eager does, docs/NUMERICS.md, but composite ops' formulas may still differ from eager's by an fp32
  ulp, which more arithmetic could amplify past the tolerance);
- square roots of |v| + 0.05 (near 0 the root amplifies a last-bit difference past 1e-4);
- a module that casts to 16-bit has a 16-bit input or output, so the protocol compares it with 1e-2.
- an fp32 statement is kept only when it is well conditioned: its fp32 value is within COND_TOL * (1 + |v|) of
  the same statement in float64, both on the values as they are and on the values that are not exact moved by
  a few ulps and by up to their own error bound (the largest difference seen when they were made): a layer norm
  of a nearly constant row, a cosine of near-zero vectors, a cancelling sum or the sign of rounding noise are not;
- integer and bool inputs (cross-entropy targets, attention masks) are drawn so that no trial can ignore every
  target or mask a whole row.

Bulk runs, outside CI (convert all, then the protocol in-process, a batch per subprocess):

    .venv/bin/python tests/numerics/random_modules.py 0:2000 [--jobs 2] [--out /tmp/rand]
    .venv/bin/python tests/numerics/random_modules.py --show SEED       # print one seed's source
"""

import random
import re
import subprocess
import sys
import types
import warnings
from pathlib import Path

VALUE_LIMIT = 60.0
LOWP_LIMIT = 12.0
MAX_NUMEL = 6144
SIZES = [1, 1, 2, 3, 3, 4, 5, 7, 7, 8, 16, 17, 17, 33]
LOWP = ("torch.float16", "torch.bfloat16")
EVAL_DRAWS = 3
# Conditioning (Generator.conditioned): fp32 within COND_TOL * (1 + |exact|) of float64, also with the values
# that are not exact moved by COND_PERTURB relative (4 ulps) and by their error bound; the protocol's tolerance is 1e-4 * (1 + |ref|).
COND_TOL = 2e-5
COND_PERTURB = 2.0 ** -22
# One seed in BIG_EVERY starts from one of these: rows long enough to loop (> 16384), columns of 257+ rows (the
# cooperative column blocks), still quick for the interpreter.
BIG_SHAPES = [[2, 16411], [16411], [300, 64], [3, 257, 33], [20000, 1], [1, 17000], [2, 130, 129]]
BIG_EVERY = 12
# Since version 2 also these: rows of 65536+ elements in fewer than 256 rows, which passes/split_reduce.cpp splits
# into [P, R/P] partial reductions (nothing smaller reaches that path).
HUGE_SHAPES = [[2, 65557], [66000], [3, 96, 700], [1, 257, 256]]
HUGE_NUMEL = 140000
# Version 2 added op_regroup, op_tri, op_reduce2 and op_mask (every seed's source changed); `--version 1` (or
# generate(seed, 1)) writes the sources that seeds named before it (seed 2607, 4680, ...) had. Version 3 added the
# op_*3 operators (shape functions, logsumexp & co, nll / BCE losses); `--version 2` writes version 2's sources.
VERSION = 3
BIG_NUMEL = 40000

# A clean rejection: `file:line:col: error: ...`, and nothing that says it is the compiler's own bug.
CLEAN_ERROR = re.compile(r"^\S+:\d+:\d+: error: (.*)$", re.MULTILINE)
INTERNAL = re.compile(r"internal error|terminate called|Segmentation fault|Aborted")


class Var:
    def __init__(self, name, value_samples, exact, lowp_ops):
        self.name = name
        self.samples = value_samples  # one tensor per eval draw
        self.exact = exact  # bit-identical in any correct implementation (for comparisons)
        self.lowp_ops = lowp_ops  # rounded 16-bit operations since the last exact 16-bit value
        # A 16-bit value that an operation rounded: eager and tritonize both round it, but from fp32 values that
        # composite formulas may compute an ulp apart, so it may only be viewed, cast and returned: any further
        # arithmetic (a cancelling subtraction, an exp) could amplify a flipped rounding past the tolerance.
        self.terminal = False
        self.err = 0.0  # a bound on its difference from the exact value (Generator.conditioned)
        self.aux = False  # an input that is not a float randn (class indices, a bool mask): read by its op only

    @property
    def shape(self):
        return tuple(self.samples[0].shape)

    @property
    def dtype(self):
        return self.samples[0].dtype

    @property
    def rank(self):
        return len(self.shape)

    @property
    def numel(self):
        return self.samples[0].numel()

    @property
    def lowp(self):
        import torch
        return self.dtype in (torch.float16, torch.bfloat16)


class Generator:
    def __init__(self, seed, version=None):
        import torch
        self.version = VERSION if version is None else version
        self.torch = torch
        self.rng = random.Random(seed)
        self.seed = seed
        self.sizes = {}  # value -> module-level name
        self.inputs = []  # (name, shape, dtype expression, get_inputs expression or None for randn)
        self.params = []  # (__init__ line, name)
        self.lines = []  # forward statements
        self.vars = []
        self.n = 0
        self.uses_lowp_cast = False
        self.pcount = 0
        self.max_numel = MAX_NUMEL

    # ------------------------------------------------------------------------------------------- helpers
    def size_name(self, v):
        if v not in self.sizes:
            self.sizes[v] = f"d{len(self.sizes)}"
        return self.sizes[v]

    def shape_expr(self, shape):
        return ", ".join(self.size_name(s) for s in shape)

    def random_shape(self, rank, limit=MAX_NUMEL // 2):
        r = self.rng
        while True:
            shape = [r.choice(SIZES) for _ in range(rank)]
            n = 1
            for s in shape:
                n *= s
            if n <= limit and (n >= 8 or rank <= 1 or r.random() < 0.2):
                return shape

    def env(self, draw):
        env = {"torch": self.torch, "F": self.torch.nn.functional}
        for v in self.vars:
            env[v.name] = v.samples[draw]
        env["self"] = types.SimpleNamespace(**{k: p.clone() if isinstance(p, self.torch.Tensor) else p
                                                for k, p in self.param_values[draw].items()})
        return env

    def try_add(self, expr, exact=False, lowp_step=True):
        """Evaluates `expr` on every draw; adds `tK = expr` when it is valid and safe. Returns the Var or None."""
        torch = self.torch
        samples = []
        for d in range(EVAL_DRAWS):
            try:
                with torch.no_grad(), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    value = eval(expr, self.env(d))
            except Exception:
                return None
            if not isinstance(value, torch.Tensor) or not value.is_floating_point():
                return None
            if value.numel() == 0 or value.numel() > self.max_numel or value.dim() > 5:
                return None
            if value.dtype == torch.float64:
                return None
            v = value.float()
            if not torch.isfinite(v).all():
                return None
            limit = LOWP_LIMIT if value.dtype in (torch.float16, torch.bfloat16) else VALUE_LIMIT
            if v.abs().max().item() > limit:
                return None
            samples.append(value)
        used = [v for v in self.vars if re.search(rf"\b{v.name}\b", expr)]
        err = self.conditioned(expr, samples, used)
        if err is None:
            return None
        name = f"t{self.n}"
        self.n += 1
        lowp_ops = 0
        if samples[0].dtype in (torch.float16, torch.bfloat16):
            used = [v for v in self.vars if re.search(rf"\b{v.name}\b", expr)]
            lowp_ops = max([v.lowp_ops for v in used if v.lowp] + [0]) + (1 if lowp_step else 0)
        var = Var(name, samples, exact, lowp_ops)
        var.err = 0.0 if exact else err
        used = [v for v in self.vars if re.search(rf"\b{v.name}\b", expr)]
        var.terminal = any(v.terminal for v in used) or (var.lowp and lowp_ops > 0)
        self.lines.append(f"{name} = {expr}")
        self.vars.append(var)
        return var

    def env64(self, draw, perturb):
        """env(draw) in float64; with perturb, every value that is not exact moved by a few fp32 ulps and by up
        to its error bound (Var.err)."""
        import copy
        torch = self.torch
        gen = torch.Generator().manual_seed(7919 * self.seed + draw)
        env = {"torch": torch, "F": torch.nn.functional}
        for v in self.vars:
            t = v.samples[draw]
            if t.is_floating_point():
                t = t.double()
                if perturb and not v.exact:
                    t = t * (1 + COND_PERTURB * torch.randn(t.shape, generator=gen, dtype=torch.float64))
                    if v.err:
                        t = t + v.err * (2 * torch.rand(t.shape, generator=gen, dtype=torch.float64) - 1)
            env[v.name] = t
        params = {}
        for k, p in self.param_values[draw].items():
            if isinstance(p, torch.Tensor):
                params[k] = p.double() if p.is_floating_point() else p.clone()
            else:
                params[k] = copy.deepcopy(p).double()
        env["self"] = types.SimpleNamespace(**params)
        return env

    def conditioned(self, expr, samples, used):
        """Whether fp32 `expr` is within COND_TOL of the same expression in float64, on the values as they are
        and on the values that are not exact moved by a few ulps and by up to their own error bound: a statement
        that is not (a cancellation, a norm of a nearly constant row, a division by a small norm, the sign of a
        value that is rounding noise) could differ between two correct fp32 implementations by more than the
        protocol's tolerance. Returns None when it is not, else the result's error bound (the largest
        difference seen, in absolute terms)."""
        torch = self.torch
        if any(s.dtype != torch.float32 for s in samples) or any(v.lowp for v in used):
            return 0.0  # 16-bit values follow the terminal rule instead
        err = 0.0
        for d in range(EVAL_DRAWS):
            got = samples[d].double()
            for perturb in (False, True):
                try:
                    with torch.no_grad(), warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        ref = eval(expr, self.env64(d, perturb))
                except Exception:
                    return None
                if not isinstance(ref, torch.Tensor) or ref.shape != got.shape:
                    return None
                ref = ref.double()
                if not torch.isfinite(ref).all() or ((got - ref).abs() > COND_TOL * (1 + ref.abs())).any():
                    return None
                if got.numel():
                    err = max(err, (got - ref).abs().max().item())
        return err

    def pick(self, pred=lambda v: True, recent=True, terminal=False):
        cands = [v for v in self.vars if not v.aux and pred(v) and (terminal or not v.terminal)]
        if not cands:
            return None
        if recent and self.rng.random() < 0.7:
            return cands[-1]
        return self.rng.choice(cands)

    def fp32(self, v):
        """v itself, or v cast to fp32 when it has had its share of rounded 16-bit operations."""
        if v is not None and v.lowp and v.lowp_ops >= 2:
            w = self.try_add(f"{v.name}.float()", exact=v.exact)
            return w or v
        return v

    # ------------------------------------------------------------------------------------------ inputs
    def make_inputs(self):
        r = self.rng
        torch = self.torch
        self.param_values = [{} for _ in range(EVAL_DRAWS)]
        rank = r.choice([1, 2, 2, 3, 3, 3, 4, 4])
        base = self.random_shape(rank)
        if r.randrange(BIG_EVERY) == 0:
            base = list(r.choice(BIG_SHAPES + (HUGE_SHAPES if self.version >= 2 else [])))
            self.max_numel = BIG_NUMEL if base in BIG_SHAPES else HUGE_NUMEL
        n_inputs = r.choice([1, 1, 2, 2, 3])
        shapes = [base]
        for _ in range(n_inputs - 1):
            kind = r.random()
            if kind < 0.35:  # same shape
                shapes.append(list(base))
            elif kind < 0.8:  # a suffix, some dims 1 (broadcasts against the base)
                k = r.randint(1, len(base))
                suffix = [s if r.random() < 0.6 else 1 for s in base[len(base) - k:]]
                if r.random() < 0.3:
                    suffix = [1] * r.randint(0, 1) + suffix
                shapes.append(suffix)
            else:  # unrelated
                shapes.append(self.random_shape(r.choice([1, 2, 3])))
        draws = [torch.Generator().manual_seed(1000 * self.seed + d) for d in range(EVAL_DRAWS)]
        for i, shape in enumerate(shapes):
            dtype = "torch.float32"
            if r.random() < 0.15:
                dtype = r.choice(LOWP)
            # non-contiguous input: passed in a permuted layout, permuted back first thing in forward
            perm = None
            if len(shape) >= 2 and r.random() < 0.25:
                perm = list(range(len(shape)))
                while perm == sorted(perm):
                    r.shuffle(perm)
            stored = list(shape) if perm is None else [shape[p] for p in _inverse(perm)]
            name = "xyzw"[i]
            self.inputs.append((name, stored, dtype, None))
            samples = [torch.randn(*stored, generator=g).to(eval(dtype, {"torch": torch})) for g in draws]
            self.vars.append(Var(name, samples, exact=True, lowp_ops=0))
            if perm is not None:  # the stored layout stays usable too
                self.try_add(f"{name}.permute({', '.join(map(str, perm))})", exact=True, lowp_step=False)

    # ---------------------------------------------------------------------------------------- operators
    def op_unary(self):
        r = self.rng
        v = self.pick()
        v = self.fp32(v)
        a = v.name
        c = round(r.uniform(0.25, 2.5), 2)
        forms = [
            (f"-{a}", v.exact), (f"torch.abs({a})", v.exact), (f"torch.relu({a})", v.exact),
            (f"torch.exp({a})", False), (f"torch.log(torch.abs({a}) + 1)", False),
            (f"torch.sqrt(torch.abs({a}) + 0.05)", False), (f"torch.tanh({a})", False), (f"torch.sigmoid({a})", False),
            (f"F.gelu({a})", False), (f"F.gelu({a}, approximate='tanh')", False), (f"F.silu({a})", False),
            (f"torch.clamp({a}, min=-{c}, max={c})", v.exact), (f"{a}.clamp(min={-c / 2})", v.exact),
            (f"{a} * {c}", False), (f"{a} + {c}", False), (f"{c} - {a}", False), (f"{a} / {c}", False),
            (f"{c} / (torch.abs({a}) + 1)", False), (f"{a} ** 2", False), (f"{a} ** 3", False),
            (f"torch.pow(torch.abs({a}) + 0.5, {r.choice([0.5, 1.5, -1.0, 2.0, -0.5])})", False),
            (f"(torch.abs({a}) + 0.05) ** 0.5", False), (f"torch.square({a})", False),
            (f"torch.rsqrt(torch.abs({a}) + 1)", False), (f"torch.reciprocal(torch.abs({a}) + 1)", False),
            (f"torch.sin({a})", False), (f"torch.erf({a})", False),
            (f"torch.maximum({a}, torch.zeros_like({a}))", v.exact),
            (f"F.leaky_relu({a}, 0.1)", False), (f"F.elu({a})", False), (f"F.hardtanh({a})", v.exact),
            (f"F.softplus({a})", False), (f"F.hardswish({a})", False), (f"F.mish({a})", False),
            (f"F.relu6({a})", v.exact), (f"torch.clamp_min({a}, 0.2)", v.exact),
        ]
        expr, exact = r.choice(forms)
        return self.try_add(expr, exact=exact)

    def broadcast_partner(self, v):
        """A var whose shape broadcasts with v's (other than v itself, unless nothing else does)."""
        torch = self.torch
        cands = []
        for w in self.vars:
            if w.terminal or w.aux:
                continue
            try:
                shape = torch.broadcast_shapes(v.shape, w.shape)
            except RuntimeError:
                continue
            n = 1
            for s in shape:
                n *= s
            if n <= self.max_numel:
                cands.append(w)
        others = [w for w in cands if w is not v]
        return self.rng.choice(others) if others and self.rng.random() < 0.85 else v

    def op_binary(self):
        r = self.rng
        a = self.fp32(self.pick())
        b = self.fp32(self.broadcast_partner(a))
        x, y = (a.name, b.name) if r.random() < 0.7 else (b.name, a.name)
        both_exact = a.exact and b.exact
        forms = [
            (f"{x} + {y}", False), (f"{x} - {y}", False), (f"{x} * {y}", False),
            (f"{x} / (torch.abs({y}) + 1)", False), (f"torch.maximum({x}, {y})", both_exact),
            (f"torch.minimum({x}, {y})", both_exact), (f"torch.add({x}, {y}, alpha=0.5)", False),
            (f"torch.sub({x}, {y})", False), (f"torch.mul({x}, {y})", False),
        ]
        exact_vars = [v for v in self.vars if v.exact and not v.lowp and not v.terminal]
        if exact_vars and r.random() < 0.25:
            c = self.rng.choice(exact_vars)
            t = round(r.uniform(-0.5, 0.5), 1)
            forms = [(f"torch.where({c.name} > {t}, {x}, {y})", False),
                     (f"({c.name} > {t}).float() * {x}", False), (f"{x} * ({c.name} <= {t})", False),
                     (f"torch.where({c.name} < {t}, {x}, 0.0)", False),
                     (f"{x}.masked_fill({c.name} > {t}, 0.0)", False)]
        expr, exact = r.choice(forms)
        return self.try_add(expr, exact=exact)

    def op_param(self):
        """A parameter (a bias or scale over the trailing dims), combined with a var."""
        r = self.rng
        v = self.fp32(self.pick())
        k = r.randint(1, v.rank) if v.rank else 0
        shape = list(v.shape[v.rank - k:]) if k else [1]
        shape = [s if r.random() < 0.7 else 1 for s in shape]
        name = self.param_name()
        init = f"nn.Parameter(torch.randn({self.shape_expr(shape)}) * 0.5)"
        vals = self.torch.randn(*shape) * 0.5
        for d in range(EVAL_DRAWS):
            self.param_values[d][name] = vals
        op = r.choice(["+", "*", "-"])
        var = self.try_add(f"{v.name} {op} self.{name}")
        if var is not None:
            self.params.append((f"self.{name} = {init}", name))
        return var

    def op_view(self):
        r = self.rng
        v = self.pick(terminal=True)
        a, shape, rank = v.name, v.shape, v.rank
        choice = r.random()
        if rank >= 2 and choice < 0.2:
            perm = list(range(rank))
            while perm == sorted(perm):
                r.shuffle(perm)
            expr = r.choice([f"{a}.permute({', '.join(map(str, perm))})",
                             f"torch.permute({a}, ({', '.join(map(str, perm))},))"])
        elif rank >= 2 and choice < 0.35:
            i, j = r.sample(range(rank), 2)
            if r.random() < 0.3:
                i, j = i - rank, j
            expr = r.choice([f"{a}.transpose({i}, {j})", f"torch.transpose({a}, {i}, {j})"])
            if rank == 2 and r.random() < 0.3:
                expr = f"{a}.t()"
        elif choice < 0.45 and rank < 5:
            expr = f"{a}.unsqueeze({r.randint(-rank - 1, rank)})"
        elif choice < 0.55 and 1 in shape:
            d = r.choice([i for i, s in enumerate(shape) if s == 1])
            expr = f"{a}.squeeze({d})" if r.random() < 0.7 else f"torch.squeeze({a})"
        elif choice < 0.62 and 1 in shape:
            new = [s if s != 1 or r.random() < 0.3 else r.choice([2, 3, 5]) for s in shape]
            expr = f"{a}.expand({', '.join(map(str, new))})"
        elif choice < 0.72 and rank >= 2:
            s = r.randint(0, rank - 2)
            e = r.randint(s + 1, rank - 1)
            expr = f"{a}.flatten({s}, {e})" if r.random() < 0.6 else f"torch.flatten({a}, {s})"
        elif choice < 0.78:
            expr = f"{a}.contiguous()"
        else:  # view/reshape: merge or split adjacent dims
            new = list(shape)
            if rank >= 2 and r.random() < 0.5:
                i = r.randint(0, rank - 2)
                new[i:i + 2] = [new[i] * new[i + 1]]
            else:
                splittable = [(i, s) for i, s in enumerate(new) if any(s % f == 0 for f in (2, 3) if f < s)]
                if splittable:
                    i, s = r.choice(splittable)
                    f = r.choice([f for f in (2, 3) if s % f == 0 and f < s])
                    new[i:i + 1] = [f, s // f]
            if r.random() < 0.3 and new:
                new[r.randrange(len(new))] = -1
            fn = r.choice(["view", "reshape", "reshape"])
            expr = f"{a}.{fn}({', '.join(map(str, new))})" if new else f"{a}.{fn}(1)"
        return self.try_add(expr, exact=v.exact, lowp_step=False)

    def op_reduce(self):
        r = self.rng
        v = self.fp32(self.pick(lambda v: v.numel > 1))
        if v is None:
            return None
        a, rank = v.name, v.rank
        if rank == 0:
            return None
        dims = sorted(r.sample(range(rank), r.randint(1, min(rank, 2))))
        if r.random() < 0.3:
            dims = [d - rank for d in dims]
        dim = str(dims[0]) if len(dims) == 1 else f"({', '.join(map(str, dims))})"
        keep = r.random() < 0.5
        kd = ", keepdim=True" if keep else ""
        one = dims[0]
        c = r.random()
        if c < 0.22:
            expr = r.choice([f"{a}.sum(dim={dim}{kd})", f"torch.sum({a}, {dim}{kd})"])
            exact = False
        elif c < 0.4:
            expr = r.choice([f"{a}.mean(dim={dim}{kd})", f"torch.mean({a}, dim={dim}{kd})"])
            exact = False
        elif c < 0.55:
            fn = r.choice(["amax", "amin"])
            expr = f"torch.{fn}({a}, dim={dim}{kd})" if r.random() < 0.5 else f"{a}.{fn}(dim={dim}{kd})"
            exact = v.exact
        elif c < 0.62:
            fn = r.choice(["max", "min"])
            expr = f"torch.{fn}({a}, dim={one}{kd}).values" if r.random() < 0.5 else f"{a}.{fn}({one}{kd})[0]"
            exact = v.exact
        elif c < 0.68:
            expr = f"{a}.prod(dim={one}{kd})" if r.random() < 0.5 else f"torch.prod({a}, {one}{kd})"
            exact = False
        elif c < 0.72:
            expr = r.choice([f"{a}.sum()", f"{a}.mean()", f"torch.amax({a})"])
            exact = False
        elif c < 0.88:
            fn = r.choice(["torch.softmax", "F.softmax", "torch.log_softmax", "F.log_softmax"])
            expr = f"{fn}({a}, dim={one})"
            exact = False
        else:  # a reduction broadcast back: normalisation-like patterns
            red = r.choice(["mean", "amax", "sum"])
            expr = f"{a} - {a}.{red}(dim={dim}, keepdim=True)"
            if red == "sum":
                expr = f"{a} / ({a}.abs().sum(dim={dim}, keepdim=True) + 1)"
            exact = False
        return self.try_add(expr, exact=exact)

    def op_matmul(self):
        r = self.rng
        v = self.fp32(self.pick(lambda v: v.rank >= 1 and v.shape[-1] <= 64))
        if v is None:
            return None
        k = v.shape[-1]
        n = r.choice([1, 3, 5, 8, 16, 17])
        torch = self.torch
        pname = self.param_name()
        c = r.random()
        if c < 0.45:  # nn.Linear
            bias = r.random() < 0.7
            init = f"nn.Linear({self.size_name(k)}, {self.size_name(n)}{'' if bias else ', bias=False'})"
            lin = torch.nn.Linear(k, n, bias=bias)
            for d in range(EVAL_DRAWS):
                self.param_values[d][pname] = lin
            expr = f"self.{pname}({v.name})"
        else:
            w = torch.randn(k, n) / (k ** 0.5)
            init = f"nn.Parameter(torch.randn({self.size_name(k)}, {self.size_name(n)}) / {k ** 0.5:.4f})"
            for d in range(EVAL_DRAWS):
                self.param_values[d][pname] = w
            if c < 0.7:
                expr = f"torch.matmul({v.name}, self.{pname})"
            elif c < 0.85:
                expr = f"{v.name} @ self.{pname}"
            else:
                expr = f"F.linear({v.name}, self.{pname}.t())"
        if v.lowp:
            dt = "torch.float16" if v.dtype == torch.float16 else "torch.bfloat16"
            expr = expr.replace(f"self.{pname}", f"self.{pname}.to({dt})", 1) if "Linear" not in init else \
                f"self.{pname}({v.name}.float())"
        var = self.try_add(expr)
        if var is not None:
            self.params.append((f"self.{pname} = {init}", pname))
        return var

    def op_matmul_vars(self):
        """A product of two computed values: [.., m, k] @ [.., k, n] from a var and a transposed var."""
        v = self.fp32(self.pick(lambda v: v.rank >= 2 and v.shape[-1] <= 64 and not v.lowp))
        if v is None:
            return None
        w = self.pick(lambda w: w.rank >= 2 and w.shape[-1] == v.shape[-1] and not w.lowp, recent=False)
        if w is None:
            return None
        return self.try_add(f"torch.matmul({v.name}, {w.name}.transpose(-2, -1))")

    def op_slice(self):
        """Slices, narrow, select, flip and cat: views with offsets, negative strides and pads."""
        r = self.rng
        v = self.pick(lambda v: v.rank >= 1 and max(v.shape) >= 2, terminal=True)
        if v is None:
            return None
        a, shape, rank = v.name, v.shape, v.rank
        d = r.choice([i for i, s in enumerate(shape) if s >= 2])
        n = shape[d]
        c = r.random()
        pre = ":, " * d
        if c < 0.25:
            lo = r.randint(0, n - 1)
            hi = r.randint(lo + 1, n)
            expr = f"{a}[{pre}{lo}:{hi}]"
        elif c < 0.4:
            lo = r.randint(0, n - 1)
            expr = f"{a}.narrow({d}, {lo}, {r.randint(1, n - lo)})"
        elif c < 0.5 and rank >= 2:
            expr = r.choice([f"{a}.select({d}, {r.randrange(n)})", f"{a}[{pre}{r.randrange(n)}]"])
        elif c < 0.65:
            expr = r.choice([f"{a}.flip({d})", f"torch.flip({a}, dims=({d},))"])
        elif c < 0.85:  # cat with a same-shaped var (or itself, transformed)
            same = [w for w in self.vars if not w.aux and w.shape == shape and w.dtype == v.dtype and w.terminal == v.terminal]
            w = r.choice(same)
            fn = r.choice(["torch.cat", "torch.concat"])
            expr = f"{fn}([{a}, {w.name}], dim={d})" if r.random() < 0.7 else f"{fn}([{a}, -{w.name}, {a}], dim={d})"
        else:
            same = [w for w in self.vars if not w.aux and w.shape == shape and w.dtype == v.dtype and w.terminal == v.terminal]
            w = r.choice(same)
            expr = f"torch.stack([{a}, {w.name}], dim={r.randint(0, rank)})"
        return self.try_add(expr, exact=v.exact, lowp_step=False)

    def op_scan(self):
        r = self.rng
        v = self.fp32(self.pick(lambda v: v.rank >= 1 and not v.lowp))
        if v is None:
            return None
        d = r.randrange(v.rank)
        if r.random() < 0.7:
            return self.try_add(f"torch.cumsum({v.name}, dim={d})" if r.random() < 0.5 else f"{v.name}.cumsum({d})")
        return self.try_add(f"torch.cumprod(torch.sigmoid({v.name}) + 0.5, dim={d})")

    def op_arg(self):
        """argmax/argmin of an exact value, used as a float (an index can only be compared exactly)."""
        r = self.rng
        v = self.pick(lambda v: v.exact and v.rank >= 1 and v.numel > 1 and not v.lowp)
        if v is None:
            return None
        d = r.randrange(v.rank)
        fn = r.choice(["argmax", "argmin"])
        kd = ", keepdim=True" if r.random() < 0.5 else ""
        return self.try_add(f"torch.{fn}({v.name}, dim={d}{kd}).float() * 0.25", exact=True)

    # ------------------------------------------------------------------------- parameters, buffers, aux inputs
    def param_name(self):
        self.pcount += 1
        return f"p{self.pcount - 1}"

    def affine_params(self, channels, lines):
        """A normalisation's weight (near 1) and bias: new parameters, their __init__ lines appended to lines."""
        weight, weight_line = self.new_param([channels], 0.3, 1.0)
        bias, bias_line = self.new_param([channels], 0.3)
        lines += [weight_line, bias_line]
        return weight, bias

    def new_param(self, shape, scale=0.5, offset=0.0, kind="parameter"):
        """A parameter (or buffer) of `shape` drawn as randn * scale + offset (rand when kind='rand_buffer');
        returns (name, __init__ line). The line is kept only when the statement is (commit)."""
        torch = self.torch
        name = self.param_name()
        sh = self.shape_expr(shape)
        if kind == "buffer":
            value = torch.randn(*shape) * scale + offset
            line = f'self.register_buffer("{name}", torch.randn({sh}) * {scale} + {offset})'
        elif kind == "var_buffer":  # positive, as a running variance
            value = torch.rand(*shape) * scale + offset
            line = f'self.register_buffer("{name}", torch.rand({sh}) * {scale} + {offset})'
        else:
            value = torch.randn(*shape) * scale + offset
            line = f"self.{name} = nn.Parameter(torch.randn({sh}) * {scale}{f' + {offset}' if offset else ''})"
        for d in range(EVAL_DRAWS):
            self.param_values[d][name] = value
        return name, line

    def new_module(self, ctor, init):
        """An nn module `init` (its source) built as `ctor()` for the eager evaluation; returns (name, line)."""
        name = self.param_name()
        module = ctor()
        for d in range(EVAL_DRAWS):
            self.param_values[d][name] = module
        return name, f"self.{name} = {init}"

    def add_with(self, expr, lines=(), aux=(), exact=False):
        """try_add(expr) with the parameters `lines` and the aux inputs `aux` ((Var, input entry)) it needs."""
        for var, _ in aux:
            self.vars.append(var)
        out = self.try_add(expr, exact=exact)
        for var, _ in aux:
            self.vars.remove(var)
        if out is not None:
            for var, entry in aux:
                self.vars.append(var)
                self.inputs.append(entry)
            self.params.extend((line, None) for line in lines)
        return out

    def aux_input(self, prefix, shape, make, expr):
        """An input other than randn (class indices, a bool mask): make(generator) draws one; expr is its
        get_inputs spelling. Returns (Var, input entry) for add_with."""
        torch = self.torch
        name = f"{prefix}{len(self.inputs)}"
        samples = [make(torch.Generator().manual_seed(1000 * self.seed + 500 + 10 * len(self.inputs) + d))
                   for d in range(EVAL_DRAWS)]
        var = Var(name, samples, exact=True, lowp_ops=0)
        var.aux = True
        return var, (name, list(shape), str(samples[0].dtype), expr)

    def partner(self, v, same_shape=True):
        """Another fp32 var of v's shape (v itself when there is none)."""
        cands = [w for w in self.vars if w is not v and not w.terminal and not w.aux and not w.lowp
                 and w.shape == v.shape]
        return self.rng.choice(cands) if cands and self.rng.random() < 0.9 else v

    # ---------------------------------------------------------------------------------------- normalisations
    def op_norm(self):
        r = self.rng
        v = self.fp32(self.pick(lambda v: v.rank >= 1 and v.numel > 1 and not v.lowp))
        if v is None:
            return None
        a, shape, rank = v.name, v.shape, v.rank
        eps = r.choice(["", ", eps=1e-5", ", eps=1e-3"])
        c = r.random()
        lines = []
        if c < 0.22:  # layer_norm over 1 or 2 trailing dims, with or without weight and bias
            k = r.randint(1, min(2, rank))
            ns = list(shape[rank - k:])
            nsx = f"({ns[0]},)" if k == 1 else f"({ns[0]}, {ns[1]})"
            if r.random() < 0.25:
                aff = r.random() < 0.6
                bias = r.random() < 0.7
                torch = self.torch
                name, line = self.new_module(
                    lambda: torch.nn.LayerNorm(ns, elementwise_affine=aff, bias=bias),
                    f"nn.LayerNorm({nsx}{'' if aff else ', elementwise_affine=False'}{'' if bias else ', bias=False'})")
                return self.add_with(f"self.{name}({a})", [line])
            w = b = "None"
            if r.random() < 0.6:
                w, line = self.new_param(ns, 0.3, 1.0)
                lines.append(line)
                w = f"self.{w}"
            if r.random() < 0.6:
                b, line = self.new_param(ns, 0.3)
                lines.append(line)
                b = f"self.{b}"
            expr = r.choice([f"F.layer_norm({a}, {nsx}, {w}, {b}{eps})", f"F.layer_norm({a}, {nsx}{eps})"
                             if w == b == "None" else f"F.layer_norm({a}, {nsx}, weight={w}, bias={b}{eps})"])
            return self.add_with(expr, lines)
        if c < 0.34 and rank >= 2:  # group_norm
            ch = shape[1]
            g = r.choice([d for d in range(1, ch + 1) if ch % d == 0])  # (C groups of [N, C]: single values)
            w = b = ""
            if r.random() < 0.6:
                wn, bn = self.affine_params(ch, lines)
                w = f", self.{wn}, self.{bn}"
            return self.add_with(f"F.group_norm({a}, {g}{w}{eps})", lines)
        if c < 0.42 and rank >= 3:  # instance_norm
            ch = shape[1]
            w = ""
            if r.random() < 0.5:
                wn, bn = self.affine_params(ch, lines)
                w = f", weight=self.{wn}, bias=self.{bn}"
            return self.add_with(f"F.instance_norm({a}{w}{eps})", lines)
        if c < 0.58 and 2 <= rank <= 5:  # batch_norm: eval with running buffers, or training
            ch = shape[1]
            rm, l1 = self.new_param([ch], 0.2, 0.0, kind="buffer")
            rv, l2 = self.new_param([ch], 1.0, 0.5, kind="var_buffer")
            lines += [l1, l2]
            w = ""
            if r.random() < 0.6:
                wn, bn = self.affine_params(ch, lines)
                w = f", self.{wn}, self.{bn}"
            if r.random() < 0.5:
                return self.add_with(f"F.batch_norm({a}, self.{rm}, self.{rv}{w}, training=False{eps})", lines)
            if r.random() < 0.3:
                torch = self.torch
                cls = {2: "BatchNorm1d", 3: "BatchNorm1d", 4: "BatchNorm2d", 5: "BatchNorm3d"}[rank]
                mom = r.choice([None, 0.1, 0.3])
                name, line = self.new_module(lambda: getattr(torch.nn, cls)(ch, momentum=mom),
                                             f"nn.{cls}({self.size_name(ch)}, momentum={mom})")
                return self.add_with(f"self.{name}({a})", [line])
            mom = r.choice(["", ", momentum=0.3", ", momentum=0.05"])
            return self.add_with(f"F.batch_norm({a}, self.{rm}, self.{rv}{w}, training=True{mom}{eps})", lines)
        d = r.randrange(rank) - (rank if r.random() < 0.3 else 0)
        kd = ", keepdim=True" if r.random() < 0.5 else ""
        if c < 0.7:
            p = r.choice(["1", "2", "2.0", "1.0", "3"])
            return self.try_add(r.choice([f"F.normalize({a}, p={p}, dim={d})", f"F.normalize({a}, dim={d})"]))
        if c < 0.85:
            p = r.choice(["1", "2", "3", "float('inf')"])
            dims = f"({d}, {(d + 1) % rank - rank})" if rank >= 2 and r.random() < 0.3 and (d + 1) % rank != d % rank else f"{d}"
            if p == "float('inf')" or p == "3" or r.random() < 0.5:
                expr = f"torch.linalg.vector_norm({a}, ord={p}, dim={dims}{kd})"
            else:
                expr = r.choice([f"torch.norm({a}, p={p}, dim={dims}{kd})", f"{a}.norm(p={p}, dim={dims}{kd})",
                                 f"torch.norm({a})"])
            return self.try_add(expr)
        # hand-written RMS norm (or F.rms_norm) over the last dim
        n = shape[-1]
        wn, line = self.new_param([n], 0.3, 1.0)
        e = r.choice(["1e-6", "1e-5"])
        expr = r.choice([f"{a} * torch.rsqrt({a}.pow(2).mean(-1, keepdim=True) + {e}) * self.{wn}",
                         f"{a} / torch.sqrt(torch.mean({a} * {a}, dim=-1, keepdim=True) + {e}) * self.{wn}",
                         f"F.rms_norm({a}, ({n},), self.{wn}, eps={e})"])
        return self.add_with(expr, [line])

    # ---------------------------------------------------------------------------------------------- pooling
    def op_pool(self):
        r = self.rng
        nd = r.choice([1, 1, 2, 2, 3])
        v = self.pick(lambda v: nd + 1 <= v.rank <= nd + 2 and not v.aux)
        if v is None:
            return None
        v = self.fp32(v)
        a = v.name
        spatial = v.shape[v.rank - nd:]

        def per_dim(fn):
            vals = [fn(s) for s in spatial]
            return str(vals[0]) if nd == 1 or (len(set(vals)) == 1 and r.random() < 0.5) else f"({', '.join(map(str, vals))})"
        c = r.random()
        if c < 0.3:  # adaptive
            fn = r.choice(["adaptive_avg_pool", "adaptive_max_pool"])
            out = per_dim(lambda s: r.randint(1, s))
            expr = f"F.{fn}{nd}d({a}, {out})"
            if fn == "adaptive_max_pool" and r.random() < 0.2:
                return self.try_add(f"F.{fn}{nd}d({a}, {out}, return_indices=True)[1].float() * 0.25", exact=True)
            return self.try_add(expr, exact=v.exact and fn == "adaptive_max_pool", lowp_step=fn != "adaptive_max_pool")
        ks = [r.randint(1, min(4, s)) for s in spatial]
        k = str(ks[0]) if nd == 1 or len(set(ks)) == 1 else f"({', '.join(map(str, ks))})"
        args = [a, k]
        if r.random() < 0.6:
            args.append(f"stride={r.choice([1, 2, 2, 3])}")
        if r.random() < 0.4:
            args.append(f"padding={r.randint(0, min(ks) // 2)}")
        if c < 0.65:  # max
            if r.random() < 0.3:
                args.append(f"dilation={r.choice([1, 2])}")
            if r.random() < 0.3:
                args.append("ceil_mode=True")
            if r.random() < 0.15:
                return self.try_add(f"F.max_pool{nd}d({', '.join(args)}, return_indices=True)[1].float() * 0.25",
                                    exact=True)
            return self.try_add(f"F.max_pool{nd}d({', '.join(args)})", exact=v.exact, lowp_step=False)
        if r.random() < 0.3:
            args.append("ceil_mode=True")
        if r.random() < 0.3:
            args.append("count_include_pad=False")
        if nd > 1 and r.random() < 0.2:
            args.append(f"divisor_override={r.randint(1, 5)}")
        return self.try_add(f"F.avg_pool{nd}d({', '.join(args)})")

    # ------------------------------------------------------------------------------------------- scans
    def op_scan2(self):
        """Reverse and exclusive scans, cumprod near 1."""
        r = self.rng
        v = self.fp32(self.pick(lambda v: v.rank >= 1 and not v.lowp and not v.aux))
        if v is None:
            return None
        a = v.name
        d = r.randrange(v.rank)
        c = r.random()
        if c < 0.3:
            expr = f"torch.flip(torch.cumsum(torch.flip({a}, dims=[{d}]), dim={d}), dims=[{d}])" if r.random() < 0.5 \
                else f"{a}.flip({d}).cumsum({d}).flip({d})"
        elif c < 0.5:
            expr = f"torch.cumsum({a}, dim={d}) - {a}"
        elif c < 0.75 and v.shape[d] >= 2:
            pre = ":, " * d
            expr = (f"torch.cat([torch.zeros_like({a}[{pre}:1]), torch.cumsum({a}, dim={d})[{pre}:-1]], dim={d})")
        else:
            s = r.choice(["0.05", "0.1", "0.2"])
            expr = r.choice([f"torch.cumprod(1 + {s} * torch.tanh({a}), dim={d})",
                             f"torch.cumprod(1 + {s} * torch.tanh({a}).flip({d}), dim={d}).flip({d})"])
        return self.try_add(expr)

    # ------------------------------------------------------------------------------------------- selections
    def op_select(self):
        """Strided slices, x[..., i], and torch.max/min with a dim (values and indices)."""
        r = self.rng
        v = self.pick(lambda v: v.rank >= 1 and max(v.shape) >= 2 and not v.aux, terminal=True)
        if v is None:
            return None
        a, shape, rank = v.name, v.shape, v.rank
        c = r.random()
        if c < 0.35:
            d = r.choice([i for i, s in enumerate(shape) if s >= 2])
            pre = ":, " * d
            lo = r.randint(0, shape[d] - 1)
            step = r.choice([2, 3])
            expr = r.choice([f"{a}[{pre}{lo}::{step}]", f"{a}[{pre}::{step}]", f"{a}[{pre}{lo}:{shape[d]}:{step}]"])
            return self.try_add(expr, exact=v.exact, lowp_step=False)
        if c < 0.6 and rank >= 2:
            i = r.randrange(shape[-1])
            expr = r.choice([f"{a}[..., {i}]", f"{a}[..., {i - shape[-1]}]", f"{a}[..., {i}:]", f"{a}[..., None, {i}]"])
            return self.try_add(expr, exact=v.exact, lowp_step=False)
        if v.terminal or v.numel < 2:
            return None
        v = self.fp32(v)
        d = r.randrange(rank) - (rank if r.random() < 0.3 else 0)
        fn = r.choice(["max", "min"])
        kd = ", keepdim=True" if r.random() < 0.5 else ""
        if not v.exact:
            return self.try_add(f"torch.{fn}({a}, dim={d}{kd}).values", exact=False)
        expr = r.choice([f"torch.{fn}({a}, dim={d}{kd})[1].float() * 0.5",
                         f"torch.{fn}({a}, {d}{kd}).indices.float() - 1",
                         f"{a}.arg{fn}({d}{kd}).float()",
                         f"torch.{fn}({a}, dim={d}{kd})[0] + torch.{fn}({a}, dim={d}{kd})[1].float()"])
        return self.try_add(expr, exact=True)

    # ------------------------------------------------------------------------------------------- activations
    def op_act(self):
        r = self.rng
        v = self.fp32(self.pick(lambda v: not v.aux))
        if v is None:
            return None
        a = v.name
        al = round(r.uniform(0.2, 2.0), 2)
        lo = -round(r.uniform(0.1, 2.0), 2)
        hi = round(r.uniform(0.1, 2.0), 2)
        forms = [(f"F.leaky_relu({a}, negative_slope={al / 4})", False), (f"F.leaky_relu({a})", False),
                 (f"F.elu({a}, alpha={al})", False), (f"F.selu({a})", False), (f"F.celu({a}, alpha={al})", False),
                 (f"F.celu({a})", False), (f"torch.selu({a})", False),
                 (f"F.softplus({a}, beta={al}, threshold={r.choice([1, 5, 20])})", False),
                 (f"F.softplus({a}, beta=2)", False), (f"F.hardtanh({a}, {lo}, {hi})", v.exact),
                 (f"F.hardtanh({a}, min_val={lo}, max_val={hi})", v.exact), (f"F.hardsigmoid({a})", False),
                 (f"F.hardswish({a})", False), (f"F.mish({a})", False), (f"F.softsign({a})", False),
                 (f"F.gelu({a}, approximate='tanh')", False), (f"F.relu6({a})", v.exact),
                 (f"torch.nn.functional.relu6({a} * 4)", False)]
        expr, exact = r.choice(forms)
        return self.try_add(expr, exact=exact)

    # ---------------------------------------------------------------------------------------------- losses
    def op_loss(self):
        r = self.rng
        torch = self.torch
        v = self.fp32(self.pick(lambda v: v.rank >= 1 and not v.lowp and not v.aux))
        if v is None:
            return None
        a, shape, rank = v.name, v.shape, v.rank
        red = r.choice(["", ", reduction='mean'", ", reduction='sum'", ", reduction='none'"])
        c = r.random()
        b = self.partner(v).name
        if c < 0.3:
            forms = [f"F.mse_loss({a}, {b}{red})", f"F.l1_loss({a}, {b}{red})",
                     f"F.smooth_l1_loss({a}, {b}{red})", f"F.smooth_l1_loss({a}, {b}{red}, beta={r.choice([0.5, 2.0, 0.0])})",
                     f"F.huber_loss({a}, {b}{red})", f"F.huber_loss({a}, {b}{red}, delta={r.choice([0.5, 2.0])})"]
            return self.try_add(r.choice(forms))
        if c < 0.55 and 2 <= rank <= 4 and shape[1] >= 2:  # cross_entropy with class indices
            n_cls = shape[1]
            tshape = [shape[0]] + list(shape[2:])
            tnumel = 1
            for s in tshape:
                tnumel *= s
            ts = f"({self.shape_expr(tshape)},)" if len(tshape) == 1 else f"({self.shape_expr(tshape)})"
            aux = self.aux_input("lab", tshape,
                                 lambda g: torch.randint(0, n_cls, tshape, generator=g),
                                 f"torch.randint(0, {self.size_name(n_cls)}, {ts})")
            extra = ""
            if r.random() < 0.4:
                # an ignore_index that occurs: a mean over few targets could ignore them all (NaN)
                extra += f", ignore_index={r.randrange(n_cls)}" if tnumel >= 12 and n_cls >= 3 else \
                    ", ignore_index=-100"
            if r.random() < 0.4:
                extra += f", label_smoothing={r.choice([0.05, 0.1, 0.3])}"
            return self.add_with(f"F.cross_entropy({a}, {aux[0].name}{extra}{red})", aux=[aux])
        if c < 0.62 and rank >= 2:  # cross_entropy with probabilities
            d = 1
            return self.try_add(f"F.cross_entropy({a}, torch.softmax({b}, dim={d}){red})")
        if c < 0.75:  # kl_div
            d = r.randrange(rank)
            kred = r.choice([red, ", reduction='batchmean'"])
            if r.random() < 0.5:
                return self.try_add(f"F.kl_div(F.log_softmax({a}, dim={d}), F.log_softmax({b}, dim={d}){kred}, log_target=True)")
            tgt = r.choice([f"torch.softmax({b}, dim={d})", f"torch.relu({b})" if self.partner(v).exact else f"torch.sigmoid({b})"])
            return self.try_add(f"F.kl_div(F.log_softmax({a}, dim={d}), {tgt}{kred})")
        if c < 0.87:
            d = r.randrange(rank) - (rank if r.random() < 0.3 else 0)
            eps = r.choice(["", ", eps=1e-6"])
            return self.try_add(r.choice([f"F.cosine_similarity({a}, {b}, dim={d}{eps})",
                                          f"torch.cosine_similarity({a}, {b}, dim={d})"]))
        if rank in (1, 2):
            cands = [w for w in self.vars if not w.terminal and not w.aux and not w.lowp and w.shape == shape]
            n = r.choice(cands).name
            margin = r.choice(["", ", margin=0.5", ", margin=2.0"])
            p = r.choice(["", ", p=1", ", p=3"])
            swap = r.choice(["", "", ", swap=True"])
            return self.try_add(f"F.triplet_margin_loss({a}, {b}, {n}{margin}{p}{swap}{red})")
        return None

    # ------------------------------------------------------------------------------------------ convolutions
    def op_conv(self):
        r = self.rng
        nd = r.choice([1, 1, 2])
        v = self.pick(lambda v: v.rank == nd + 2 and v.shape[1] <= 17 and not v.lowp and not v.aux
                      and all(s >= 2 for s in v.shape[2:]))
        if v is None:
            v = self.pick(lambda v: v.rank == nd + 1 and v.shape[0] <= 17 and not v.lowp and not v.aux and
                          all(s >= 2 for s in v.shape[1:]))
            if v is None or r.random() < 0.5:
                return None
        v = self.fp32(v)
        cin = v.shape[-nd - 1]
        g = r.choice([d for d in range(1, cin + 1) if cin % d == 0]) if r.random() < 0.4 else 1
        cout = g * r.choice([1, 2, 3, 4, 8])
        ks = [r.randint(1, min(3, s)) for s in v.shape[-nd:]]
        transposed = r.random() < 0.3
        if transposed:
            wshape = [cin, cout // g] + ks
        else:
            wshape = [cout, cin // g] + ks
        fan = (cin // g) * (1 if not ks else __import__("math").prod(ks))
        w, lines = self.new_param(wshape, round(1 / fan ** 0.5, 4))
        lines = [lines]
        args = [v.name, f"self.{w}"]
        if r.random() < 0.5:
            bn, line = self.new_param([cout], 0.1)
            lines.append(line)
            args.append(f"self.{bn}")
        stride = r.choice([1, 1, 2, 3])
        dil = r.choice([1, 1, 2])
        if stride > 1:
            args.append(f"stride={stride}")
        if transposed:
            pad = r.randint(0, dil * (min(ks) - 1))
            if pad:
                args.append(f"padding={pad}")
            op = r.randrange(max(stride, dil)) if r.random() < 0.3 else 0
            if op:
                args.append(f"output_padding={op}")
        else:
            pad = r.choice([0, 0, 1, 2])
            if pad:
                args.append(f"padding={pad}")
        if g > 1:
            args.append(f"groups={g}")
        if dil > 1:
            args.append(f"dilation={dil}")
        fn = f"F.conv_transpose{nd}d" if transposed else f"F.conv{nd}d"
        return self.add_with(f"{fn}({', '.join(args)})", lines)

    # ------------------------------------------------------------------------------------------- attention
    def op_sdpa(self):
        r = self.rng
        torch = self.torch
        # one program per (query block, batch element): the interpreter takes about a millisecond per program
        q = self.fp32(self.pick(lambda v: v.rank in (3, 4) and v.shape[-1] <= 33 and not v.lowp and not v.aux
                                and v.numel // (v.shape[-1] * v.shape[-2]) <= 64))
        if q is None:
            return None
        batch, e = q.shape[:-2], q.shape[-1]
        ks = [w for w in self.vars if not w.terminal and not w.aux and not w.lowp and w.rank == q.rank
              and w.shape[:-2] == batch and w.shape[-1] == e]
        k = r.choice(ks) if r.random() < 0.7 else q
        vs = [w for w in self.vars if not w.terminal and not w.aux and not w.lowp and w.rank == q.rank
              and w.shape[:-1] == k.shape[:-1]]
        val = r.choice(vs) if r.random() < 0.7 else k
        L, S = q.shape[-2], k.shape[-2]
        args = [q.name, k.name, val.name]
        c = r.random()
        aux, lines = [], []
        if c < 0.25:
            args.append("is_causal=True")
        elif c < 0.45 and S >= 10:
            aux = [self.aux_input("msk", [L, S], lambda g: torch.rand(L, S, generator=g) > 0.3,
                                  f"torch.rand({self.size_name(L)}, {self.size_name(S)}) > 0.3")]
            args.append(f"attn_mask={aux[0][0].name}")
        elif c < 0.6:
            m, line = self.new_param([L, S], 1.0)
            lines.append(line)
            args.append(f"attn_mask=self.{m}")
        if r.random() < 0.3:
            args.append(f"scale={r.choice([0.1, 0.25, 0.5])}")
        return self.add_with(f"F.scaled_dot_product_attention({', '.join(args)})", lines, aux)


    # ------------------------------------------------------------------ version 2: views of computed values
    def regroup(self, shape):
        """Another shape of the same numel: adjacent dims merged, a dim split, or every dim regrouped (the
        boundaries move: [6, 4] -> [3, 8]), with a unit dim now and then; None when there is none."""
        r = self.rng
        shape = list(shape)
        n = 1
        for s in shape:
            n *= s
        c = r.random()
        new = list(shape)
        if c < 0.3 and len(shape) >= 2:
            i = r.randint(0, len(shape) - 2)
            j = r.randint(i + 1, len(shape) - 1)
            merged = 1
            for s in shape[i:j + 1]:
                merged *= s
            new[i:j + 1] = [merged]
        elif c < 0.55:
            splittable = [(i, s) for i, s in enumerate(shape) if _factors(s)]
            if splittable:
                i, s = r.choice(splittable)
                f = r.choice(_factors(s))
                new[i:i + 1] = [f, s // f]
        else:
            primes = _primes(n)
            r.shuffle(primes)
            k = r.randint(1, min(4, max(1, len(primes))))
            cuts = sorted(r.sample(range(1, len(primes)), k - 1)) if len(primes) >= k else []
            bounds = [0] + cuts + [len(primes)]
            new = []
            for a, b in zip(bounds, bounds[1:]):
                m = 1
                for p in primes[a:b]:
                    m *= p
                new.append(m)
        if r.random() < 0.15 and len(new) < 5:
            new.insert(r.randint(0, len(new)), 1)
        if new == shape or len(new) > 5:
            return None
        return new

    def view_expr(self, a, shape, new):
        """`a` viewed as `new` (shape is a's): reshape, view (eager rejects it where the strides do not allow it),
        flatten or a -1."""
        r = self.rng
        new = list(new)
        # flatten(s, e) when new merges one run of shape's dims
        for s in range(len(shape)):
            for e in range(s + 1, len(shape)):
                m = 1
                for x in shape[s:e + 1]:
                    m *= x
                if new == list(shape[:s]) + [m] + list(shape[e + 1:]) and r.random() < 0.4:
                    return f"{a}.flatten({s}, {e})" if r.random() < 0.7 else f"torch.flatten({a}, {s}, {e})"
        # unflatten(i, (f, s / f)) when new splits one of shape's dims
        for i in range(len(shape)):
            if (len(new) == len(shape) + 1 and new[:i] == list(shape[:i]) and new[i + 2:] == list(shape[i + 1:])
                    and new[i] * new[i + 1] == shape[i] and r.random() < 0.4):
                sizes = [new[i], new[i + 1]] if r.random() < 0.7 else [new[i], -1]
                return f"{a}.unflatten({i}, ({sizes[0]}, {sizes[1]}))" if r.random() < 0.6 else \
                    f"torch.unflatten({a}, {i - len(shape) if r.random() < 0.3 else i}, ({sizes[0]}, {sizes[1]}))"
        if r.random() < 0.25 and new:
            new[r.randrange(len(new))] = -1
        fn = r.choice(["reshape", "reshape", "view", "torch.reshape"])
        if fn == "torch.reshape":
            return f"torch.reshape({a}, ({', '.join(map(str, new))},))"
        return f"{a}.{fn}({', '.join(map(str, new)) or '1'})"

    def op_regroup(self):
        """A computed value (not only an input) with its dims merged, split or regrouped, then an op that reads
        the new dims: pointwise with a broadcast partner, a reduction over merged dims, softmax, a scan, tril/triu,
        flip, a slice, cat/stack, expand; sometimes viewed back to the old shape and combined with the old value;
        sometimes between two permutes."""
        r = self.rng
        computed = lambda v: v.name.startswith("t") and v.numel > 1
        v = self.pick(computed if r.random() < 0.8 else (lambda v: v.numel > 1))
        if v is None:
            return None
        v = self.fp32(v)
        a, shape = v.name, v.shape
        pre = ""
        if len(shape) >= 2 and r.random() < 0.3:  # permute first: the reshape reads a transposed value
            perm = list(range(len(shape)))
            while perm == sorted(perm):
                r.shuffle(perm)
            a = f"{a}.permute({', '.join(map(str, perm))})"
            shape = tuple(shape[p] for p in perm)
            pre = "p"
        new = self.regroup(shape)
        if new is None:
            return None
        R = self.view_expr(a if not pre else f"{a}", shape, new)
        if pre and R.startswith(a + ".view"):
            R = R.replace(".view(", ".reshape(", 1)
        rank = len(new)
        exact = v.exact
        c = r.random()
        big = [i for i, s in enumerate(new) if s >= 2]
        d = r.choice(big) if big else 0
        lowp_step = True
        if c < 0.14:  # pointwise, with a parameter over the trailing dims or a scalar
            k = r.randint(1, rank)
            pshape = [s if r.random() < 0.7 else 1 for s in new[rank - k:]]
            name, line = self.new_param(pshape, 0.5)
            op = r.choice(["+", "*", "-"])
            expr = r.choice([f"{R} {op} self.{name}", f"torch.tanh({R}) {op} self.{name}",
                             f"({R} * 2 + 1) {op} self.{name}"])
            return self.add_with(expr, [line])
        if c < 0.3:  # reductions over (merged) dims
            dims = sorted(r.sample(range(rank), r.randint(1, min(rank, 2))))
            dim = str(dims[0]) if len(dims) == 1 else f"({', '.join(map(str, dims))})"
            kd = r.choice(["", ", keepdim=True"])
            fn = r.choice(["sum", "mean", "amax", "amin", "sum"])
            expr = f"{R}.{fn}(dim={dim}{kd})"
            exact = exact and fn in ("amax", "amin")
            if r.random() < 0.2:
                expr = r.choice([f"{R}.sum()", f"{R}.amax()", f"{R}.view(-1).sum(0)" if ".view" not in R else f"{R}.sum()"])
                exact = False if "sum" in expr else exact
        elif c < 0.42:
            fn = r.choice(["torch.softmax", "F.softmax", "torch.log_softmax"])
            expr = f"{fn}({R}, dim={d - (rank if r.random() < 0.3 else 0)})"
            exact = False
        elif c < 0.5:
            if v.lowp:  # (as op_scan: 16-bit scans round every partial sum)
                return None
            expr = r.choice([f"torch.cumsum({R}, dim={d})", f"{R}.cumsum({d})",
                             f"torch.cumprod(1 + 0.1 * torch.tanh({R}), dim={d})"])
            exact = False
        elif c < 0.62 and rank >= 2:
            fn = r.choice(["tril", "triu"])
            k = r.choice([0, 0, 1, -1, 2, -2, 5])
            diag = "" if k == 0 and r.random() < 0.5 else r.choice([f", {k}", f", diagonal={k}"])
            expr = r.choice([f"torch.{fn}({R}{diag})", f"{R}.{fn}({diag[2:]})"])
            lowp_step = False
        elif c < 0.7:
            expr = r.choice([f"{R}.flip({d})", f"torch.flip({R}, dims=({d},))",
                             f"{R}.flip({', '.join(map(str, range(rank)))})"])
            lowp_step = False
        elif c < 0.78 and new[d] >= 2:
            lo = r.randint(0, new[d] - 1)
            hi = r.randint(lo + 1, new[d])
            step = r.choice(["", "", ":2"])
            expr = f"{R}[{':, ' * d}{lo}:{hi}{step}]"
            lowp_step = False
        elif c < 0.86:
            fn = r.choice(["cat", "stack"])
            other = r.choice([f"-{R}", R, f"{R} * 0.5"])
            if other != R:
                exact = exact and other.startswith("-")
            expr = f"torch.{fn}([{R}, {other}], dim={r.randint(0, rank - (1 if fn == 'cat' else 0))})"
            lowp_step = other != R and not other.startswith("-")
        elif c < 0.93 and rank < 5:  # expand over a new dim, broadcast against a partner
            i = r.randint(0, rank)
            e = list(new)
            e.insert(i, r.choice([2, 3]))
            expr = f"{R}.unsqueeze({i}).expand({', '.join(map(str, e))})"
            w = self.broadcast_partner(types.SimpleNamespace(shape=tuple(e)))
            if isinstance(w, Var) and w.name != v.name and r.random() < 0.7:
                expr = f"{expr} * {w.name}"
                exact = False
            else:
                lowp_step = False
        else:  # a chain of views: regroup, permute, regroup again
            if rank < 2:
                return None
            perm = list(range(rank))
            while perm == sorted(perm):
                r.shuffle(perm)
            mid = tuple(new[p] for p in perm)
            nxt = self.regroup(mid) or list(mid)
            expr = f"{R}.permute({', '.join(map(str, perm))}).reshape({', '.join(map(str, nxt))})"
            if r.random() < 0.5:
                expr = f"{expr} * 2 - 1"
                exact = False
            else:
                lowp_step = False
        out = self.try_add(expr, exact=exact, lowp_step=lowp_step)
        if out is None or r.random() > 0.3 or pre or out.shape != tuple(new) or out.terminal:
            return out
        # back to the old shape, combined with the old value: the two index maps meet in one statement
        back = self.try_add(f"{out.name}.reshape({', '.join(map(str, v.shape)) or '1'}) + {v.name}", exact=False)
        return back or out

    def op_tri(self):
        """tril/triu with diagonals of permuted, transposed or sliced values."""
        r = self.rng
        v = self.pick(lambda v: v.rank >= 2, terminal=True)
        if v is None:
            return None
        a, rank = v.name, v.rank
        c = r.random()
        if c < 0.3:
            i, j = r.sample(range(rank), 2)
            a = f"{a}.transpose({i}, {j})"
        elif c < 0.45:
            a = f"{a}.t()" if rank == 2 else f"{a}.transpose(-2, -1)"
        elif c < 0.6:
            a = f"{a}[..., 1:, :]" if v.shape[-2] >= 2 else a
        fn = r.choice(["tril", "triu"])
        k = r.choice([0, 1, -1, 2, -3, 4])
        expr = r.choice([f"torch.{fn}({a}, diagonal={k})", f"{a}.{fn}({k})", f"torch.{fn}({a})"])
        return self.try_add(expr, exact=v.exact, lowp_step=False)

    def op_reduce2(self):
        """Nested reductions (min of min, sum of sum over different dims), two reductions of one value over
        different axes, keepdim mixtures, var/std."""
        r = self.rng
        v = self.fp32(self.pick(lambda v: v.rank >= 2 and v.numel > 1))
        if v is None:
            return None
        a, rank = v.name, v.rank
        d1, d2 = r.sample(range(rank), 2)
        e2 = d2 - (1 if d2 > d1 else 0)  # d2 after d1 is gone
        f1, f2 = r.choice(["sum", "amax", "amin", "mean"]), r.choice(["sum", "amax", "amin", "mean"])
        exact = v.exact and f1 in ("amax", "amin") and f2 in ("amax", "amin")
        c = r.random()
        if c < 0.3:  # nested
            forms = [f"{a}.{f1}({d1}).{f2}({e2})", f"{a}.{f1}({d1}, keepdim=True).{f2}({d2})",
                     f"{a}.{f1}(dim={d1}).{f2}(dim={e2}, keepdim=True)",
                     f"torch.{f1}(torch.{f2}({a}, dim={d1}, keepdim=True), dim={d2}, keepdim=True)"]
            if r.random() < 0.3:
                fn = r.choice(["min", "max"])
                forms = [f"{a}.{fn}({d1})[0].{fn}({e2})[0]", f"torch.{fn}({a}.{fn}(dim={d1}, keepdim=True).values, dim={d2}).values"]
                exact = v.exact
            return self.try_add(r.choice(forms), exact=exact)
        if c < 0.55:  # two reductions of the same value over different axes, broadcast together
            op = r.choice(["+", "-", "*"])
            forms = [f"{a}.{f1}({d1}, keepdim=True) {op} {a}.{f2}({d2}, keepdim=True)",
                     f"{a} - {a}.{f1}({d1}, keepdim=True) - {a}.{f2}({d2}, keepdim=True)",
                     f"{a}.{f1}({d1}, keepdim=True) * {a} + {a}.{f2}(dim=({d1}, {d2}), keepdim=True)"]
            return self.try_add(r.choice(forms))
        if c < 0.75:  # keepdim mixtures: a reduced value squeezed / unsqueezed against a kept one
            forms = [f"{a}.{f1}({d1}).unsqueeze({d1}) - {a}.{f2}({d1}, keepdim=True)",
                     f"{a}.{f1}({d1}, keepdim=True).squeeze({d1}) + {a}.{f2}({d1})",
                     f"{a}.{f1}({d1}) * {a}.{f2}({d1}, keepdim=True)",
                     f"{a}.{f1}({d1}, keepdim=True) + {a}.{f2}({d1})"]
            return self.try_add(r.choice(forms))
        unb = r.choice(["", ", unbiased=False", ", correction=0"])
        fn = r.choice(["var", "std"])
        kd = r.choice(["", ", keepdim=True"])
        dim = d1 if r.random() < 0.6 else f"({min(d1, d2)}, {max(d1, d2)})"
        return self.try_add(r.choice([f"{a}.{fn}(dim={dim}{unb}{kd})", f"torch.{fn}({a}, dim={dim}{kd})"]))

    def op_mask(self):
        """int and bool masks: comparisons combined with &, |, ~; as ints in arithmetic, in where and masked_fill;
        integer cumsum and counts of a mask. Comparisons only test exact values."""
        r = self.rng
        cands = [v for v in self.vars if v.exact and not v.lowp and not v.terminal and not v.aux]
        if not cands:
            return None
        c1 = r.choice(cands)
        t1 = round(r.uniform(-0.8, 0.8), 1)
        m = f"({c1.name} {r.choice(['>', '<', '>=', '<='])} {t1})"
        if r.random() < 0.4:
            c2 = self.broadcast_partner(c1)
            if c2.exact and not c2.lowp:
                t2 = round(r.uniform(-0.8, 0.8), 1)
                m2 = f"({c2.name} {r.choice(['>', '<'])} {t2})"
                m = r.choice([f"({m} & {m2})", f"({m} | {m2})", f"torch.logical_and({m}, {m2})",
                              f"({m} ^ {m2})", f"torch.logical_or({m}, ~{m2})"])
        if r.random() < 0.2:
            m = f"(~{m})"
        shape = c1.shape
        c = r.random()
        d = r.randrange(len(shape)) if shape else 0
        if c < 0.35:
            x = self.fp32(self.broadcast_partner(c1))
            y = self.fp32(self.broadcast_partner(x))
            forms = [(f"torch.where({m}, {x.name}, {y.name})", x.exact and y.exact),
                     (f"torch.where({m}, {x.name}, -{x.name})", x.exact),
                     (f"torch.where({m}.int() == 1, {x.name}, 0.5)", x.exact),
                     (f"{x.name}.masked_fill(~{m}, -1.0)", x.exact),
                     (f"{x.name} * {m}.int()", x.exact), (f"{x.name} * {m}.float() + {y.name} * (~{m}).float()", False),
                     (f"torch.where({m}, {x.name} * 2, {y.name} - 1)", False)]
            expr, exact = r.choice(forms)
            return self.try_add(expr, exact=exact)
        if not shape:
            return self.try_add(f"{m}.float() * 0.5", exact=True)
        if c < 0.6:  # integer scans of a mask
            forms = [f"torch.cumsum({m}.int(), dim={d}).float() * 0.125", f"{m}.long().cumsum({d}).float() * 0.125",
                     f"(torch.cumsum({m}, dim={d}) * 2 - {m}.int()).float() * 0.125",
                     f"torch.cumsum({m}.int(), dim={d}).flip({d}).float() * 0.125"]
            return self.try_add(r.choice(forms), exact=True)
        if c < 0.8:  # counts and integer reductions of a mask
            forms = [(f"{m}.sum(dim={d}).float() * 0.25", True), (f"{m}.int().sum({d}, keepdim=True).float() * 0.25", True),
                     (f"{m}.float().mean(dim={d})", False), (f"{m}.int().amax({d}).float()", True),
                     (f"({m}.int() * 3 - 1).float()", True), (f"{m}.any(dim={d}).float()", True) ,
                     (f"{m}.all(dim={d}).float()", True)]
            expr, exact = r.choice(forms)
            return self.try_add(expr, exact=exact)
        # a count compared again: where over the rows with more than k set
        x = self.fp32(self.broadcast_partner(c1))
        k = r.randint(0, max(1, shape[d] // 2))
        return self.try_add(f"torch.where({m}.sum(dim={d}, keepdim=True) > {k}, {x.name}, -{x.name})", exact=x.exact)

    # ------------------------------------------------- version 3: shape functions, new reductions and losses
    def operand3(self, pred, terminal=False, permute=0.3, cast=True):
        """A value for a version-3 operator: a computed one (8 in 10), sometimes cast to 16 bits (cast) or read
        through a permute first. Returns (Var, its expression, the expression's shape), or (None, None, None)."""
        r = self.rng
        computed = lambda v: v.name.startswith("t") and pred(v)
        v = self.pick(computed if r.random() < 0.8 else pred, terminal=terminal) or self.pick(pred, terminal=terminal)
        if v is None:
            return None, None, None
        if cast and not v.lowp and not v.terminal and r.random() < 0.12 and v.numel and \
                v.samples[0].abs().max().item() <= LOWP_LIMIT:  # more 16-bit operands: a cast first
            w = self.try_add(f"{v.name}.to({r.choice(LOWP)})", exact=False, lowp_step=False)
            if w is not None:
                w.lowp_ops = 0  # (as op_cast: the cast rounds the same way in both)
                self.uses_lowp_cast = True
                v = w
        a, shape = v.name, tuple(v.shape)
        if len(shape) >= 2 and r.random() < permute:
            perm = list(range(len(shape)))
            while perm == sorted(perm):
                r.shuffle(perm)
            a = f"{a}.permute({', '.join(map(str, perm))})"
            shape = tuple(shape[p] for p in perm)
        return v, a, shape

    def dim3(self, d, rank):
        """d, or its negative spelling."""
        return d - rank if self.rng.random() < 0.35 else d

    def consume3(self, out):
        """Now and then a statement that reads a version-3 result at once: a reduction, softmax, logsumexp, a
        matmul with itself, a view."""
        r = self.rng
        if out is None or r.random() < 0.6 or out.aux:
            return out
        a, shape, rank = out.name, out.shape, out.rank
        if rank == 0:
            return out
        d = self.dim3(r.randrange(rank), rank)
        forms = [(f"{a}.flatten()", out.exact, False), (f"{a}.reshape(-1, {shape[-1]})", out.exact, False)]
        if rank >= 2:
            forms.append((f"{a}.transpose(0, -1)", out.exact, False))
        if not out.terminal:
            forms += [(f"{a}.sum(dim={d})", False, True), (f"{a}.amax(dim={d}, keepdim=True)", out.exact, True),
                      (f"{a}.mean(dim={d})", False, True), (f"torch.softmax({a}, dim={d})", False, True),
                      (f"torch.logsumexp({a}, dim={d})", False, True), (f"F.log_softmax({a}, {d})", False, True)]
            if rank >= 2 and shape[-1] <= 64 and not out.lowp:
                forms.append((f"{a} @ {a}.transpose(-2, -1)", False, True))
        expr, exact, step = r.choice(forms)
        return self.try_add(expr, exact=exact, lowp_step=step) or out

    def op_split3(self):
        """chunk / split (int or sizes) / unbind of a computed value: a piece, two pieces combined (GLU-like), the
        pieces catted back in another order, unbind stacked along another dim (a transpose)."""
        r = self.rng
        v, a, shape = self.operand3(lambda v: v.rank >= 1 and max(v.shape) >= 2, terminal=True)
        if v is None:
            return None
        rank = len(shape)
        d = r.choice([i for i, s in enumerate(shape) if s >= 2])
        n = shape[d]
        D = self.dim3(d, rank)
        c = r.random()
        exact, step = v.exact, False
        # at most 32 pieces (a cat of thousands of pieces is a chain of as many adds: REGRESSIONS cat_many_pieces)
        least = max(1, -(-n // 32))
        if c < 0.2:
            k = r.randint(2, 4)
            size = -(-n // k)
            i = r.randrange(-(-n // size))
            expr = r.choice([f"{a}.chunk({k}, {D})[{i}]", f"torch.chunk({a}, {k}, dim={D})[{i}]",
                             f"torch.chunk({a}, chunks={k}, dim={D})[{i - (-(-n // size))}]"])
        elif c < 0.4 and least < n:
            s = r.randint(least, n - 1)
            i = r.randrange(-(-n // s))
            expr = r.choice([f"torch.split({a}, {s}, dim={D})[{i}]", f"{a}.split({s}, {D})[{i}]",
                             f"{a}.split(split_size={s}, dim={D})[{i}]"])
        elif c < 0.55:
            parts = sorted(r.sample(range(1, n), min(n - 1, r.randint(1, 2))))
            sizes = [b - a_ for a_, b in zip([0] + parts, parts + [n])]
            i = r.randrange(len(sizes))
            lst = r.choice([f"[{', '.join(map(str, sizes))}]", f"({', '.join(map(str, sizes))},)"])
            expr = r.choice([f"{a}.split({lst}, {D})[{i}]", f"torch.split({a}, {lst}, dim={D})[{i}]",
                             f"torch.split({a}, split_size_or_sections={lst}, dim={D})[{i}]"])
        elif c < 0.65 and n <= 32:
            i = r.randrange(n)
            expr = r.choice([f"{a}.unbind({D})[{i}]", f"torch.unbind({a}, dim={D})[{i}]"])
        elif c < 0.78 and n % 2 == 0 and not v.terminal:  # two halves combined (a GLU by hand)
            h = r.choice([f"{a}.chunk(2, {D})", f"torch.split({a}, {n // 2}, dim={D})"])
            expr = r.choice([f"{h}[0] * torch.sigmoid({h}[1])", f"{h}[1] - {h}[0]", f"torch.maximum({h}[0], {h}[1])"])
            exact = exact and "maximum" in expr
            step = not exact
        elif c < 0.9 and least < n:  # the pieces back together in another order
            s = r.randint(least, n - 1)
            fn = r.choice(["torch.cat", "torch.concat"])
            expr = r.choice([f"{fn}({a}.split({s}, {D})[::-1], dim={D})", f"{fn}(torch.chunk({a}, 2, {D})[::-1], {D})",
                             f"{fn}({a}.split({s}, {D})[1:], dim={D})"])
        elif n <= 32:  # unbind stacked along another dim
            e = r.randint(0, rank - 1)
            expr = r.choice([f"torch.stack({a}.unbind({D}), dim={e})", f"torch.stack(torch.unbind({a}, {D})[1:], {e})"])
        else:
            return None
        return self.consume3(self.try_add(expr, exact=exact, lowp_step=step))

    def op_pad3(self):
        """F.pad: constant (a value, negative pads that crop), reflect, replicate, circular."""
        r = self.rng
        v, a, shape = self.operand3(lambda v: v.rank >= 1, terminal=True)
        if v is None:
            return None
        rank = len(shape)
        modes = [k for k in (1, 2, 3) if rank in (k + 1, k + 2)]
        if r.random() < 0.55 or not modes:
            k = r.randint(1, min(rank, 3))
            pads = []
            for s in reversed(shape[rank - k:]):
                lo, hi = r.randint(-2, 3), r.randint(-2, 3)
                while s + lo + hi < 1 or lo <= -s or hi <= -s:
                    lo, hi = r.randint(-1, 3), r.randint(-1, 3)
                pads += [lo, hi]
            val = r.choice(["", ", value=0.5", ", value=-1.5", ", 'constant', -1.0", ", mode='constant'",
                            ", mode='constant', value=2.0", ", value=0.0"])
            expr = f"F.pad({a}, ({', '.join(map(str, pads))}){val})"
        else:
            k = r.choice(modes)
            mode = r.choice(["reflect", "replicate", "circular"])
            pads = []
            for s in reversed(shape[rank - k:]):
                top = {"reflect": s - 1, "circular": s, "replicate": 3}[mode]
                pads += [r.randint(0, min(3, top)), r.randint(0, min(3, top))]
            pl = f"({', '.join(map(str, pads))})" if r.random() < 0.7 else f"[{', '.join(map(str, pads))}]"
            expr = r.choice([f"F.pad({a}, {pl}, mode='{mode}')", f"F.pad({a}, {pl}, '{mode}')"])
        return self.consume3(self.try_add(expr, exact=v.exact, lowp_step=False))

    def op_roll3(self):
        """torch.roll (flattened, one dim, several dims), Tensor.repeat, torch.tile."""
        r = self.rng
        v, a, shape = self.operand3(lambda v: v.rank >= 1, terminal=True)
        if v is None:
            return None
        rank = len(shape)
        if r.random() < 0.55:
            d = r.randrange(rank)
            s = r.randint(-2 * shape[d] - 1, 2 * shape[d] + 1)
            c = r.random()
            if c < 0.2:
                expr = f"torch.roll({a}, {r.randint(-40, 40)})"
            elif c < 0.6:
                expr = r.choice([f"{a}.roll({s}, {self.dim3(d, rank)})",
                                 f"torch.roll({a}, {s}, dims={self.dim3(d, rank)})",
                                 f"{a}.roll(({s},), ({self.dim3(d, rank)},))"])
            elif rank >= 2:
                d1, d2 = r.sample(range(rank), 2)
                expr = (f"torch.roll({a}, shifts=({r.randint(-3, 5)}, {r.randint(-3, 5)}), "
                        f"dims=({self.dim3(d1, rank)}, {self.dim3(d2, rank)}))")
            else:
                expr = f"{a}.roll({s})"
        else:
            reps = [r.choice([1, 1, 2, 3]) for _ in range(rank)]
            if r.random() < 0.3:
                reps.insert(0, r.choice([2, 3]))
            if r.random() < 0.5:
                rs = ", ".join(map(str, reps))
                expr = r.choice([f"{a}.repeat({rs})", f"{a}.repeat(({rs},))"])
            else:
                if len(reps) > 1 and r.random() < 0.4:  # fewer dims than the value: tile pads with leading 1s
                    reps = reps[r.randint(1, len(reps) - 1):]
                rs = ", ".join(map(str, reps))
                expr = r.choice([f"torch.tile({a}, ({rs},))", f"{a}.tile({rs})", f"torch.tile({a}, dims=({rs},))"])
        return self.consume3(self.try_add(expr, exact=v.exact, lowp_step=False))

    def op_arange3(self):
        """torch.arange in forward: along the last dim or another dim of a value, float steps, dtype=, masks from
        comparing two aranges (causal-like)."""
        r = self.rng
        v, a, shape = self.operand3(lambda v: v.rank >= 1)
        if v is None:
            return None
        w = self.fp32(v)
        if w is not v:
            v, a, shape = w, w.name, w.shape
        rank = len(shape)
        d = r.randrange(rank)
        n = shape[d]
        dt = {self.torch.float16: "torch.float16", self.torch.bfloat16: "torch.bfloat16"}.get(v.dtype, "torch.float32")
        c = r.random()
        if c < 0.3:
            step = r.choice([0.25, 0.5, -0.25, 0.1, 0.125])
            start = r.choice([0.0, 0.5, -1.0, -2.5])
            ar = r.choice([f"torch.arange({n})", f"torch.arange({n}, 0, -1)", f"torch.arange(1, {n + 1}, dtype={dt})",
                           f"torch.arange({start}, {start + n * step}, {step})" if step > 0 else
                           f"torch.arange({start}, {start + n * step}, {step}, dtype={dt})",
                           f"torch.arange(start={r.randint(-3, 3)}, end={n + 5}, step={r.randint(1, 3)})[:{n}]",
                           f"torch.arange({n}, device={v.name}.device)"])
            scale = r.choice(["", " * 0.25", " * 0.5"])
            if d != rank - 1:
                ar = f"{ar}.view({n}{', 1' * (rank - 1 - d)})" if r.random() < 0.5 else \
                    f"{ar}[:{', None' * (rank - 1 - d)}]"
            expr = r.choice([f"{a} + {ar}{scale}", f"{a} * ({ar}{scale})", f"({ar}{scale}) - {a}"])
            return self.consume3(self.try_add(expr))
        if c < 0.6 and rank >= 2:  # a mask from aranges over the last two dims (a causal mask by hand)
            m, k = shape[-2], shape[-1]
            off = r.randint(-2, 2)
            cmp = r.choice([">=", ">", "<=", "<"])
            mask = f"(torch.arange({m})[:, None] {cmp} torch.arange({k}) + {off})" if off else \
                f"(torch.arange({m}).unsqueeze(1) {cmp} torch.arange({k}))"
            fill = r.choice(["0.0", "-1.0"])
            forms = [(f"torch.where({mask}, {a}, {fill})", v.exact), (f"{a}.masked_fill(~{mask}, {fill})", v.exact),
                     (f"{a} * {mask}", v.exact)]
            if not v.lowp:
                forms.append((f"torch.softmax({a}.masked_fill({mask}, -30.0), dim=-1)", False))
            expr, exact = r.choice(forms)
            return self.consume3(self.try_add(expr, exact=exact))
        # an arange compared with a value's argmax (a one-hot by hand) or counted
        if not v.exact or v.lowp:
            return None
        D = self.dim3(d, rank)
        along = f".view({n}{', 1' * (rank - 1 - d)})" if d != rank - 1 else ""
        expr = f"(torch.argmax({a}, dim={D}, keepdim=True) == torch.arange({n}){along}).float()"
        return self.consume3(self.try_add(expr, exact=True))

    def op_onehot3(self):
        """F.one_hot of an argmax (an exact index), of class-index inputs, of a flipped arange (a permutation
        matrix); read as floats, as a gather (one-hot times a value, summed) or through a matmul."""
        r = self.rng
        torch = self.torch
        c = r.random()
        if c < 0.5:
            v, a, shape = self.operand3(lambda v: v.exact and not v.lowp and v.rank >= 1 and v.numel > 1, cast=False)
            if v is None:
                return None
            rank = len(shape)
            d = r.randrange(rank)
            n = shape[d] + r.choice([0, 0, 0, 1, 3])
            idx = r.choice([f"torch.argmax({a}, dim={self.dim3(d, rank)})", f"{a}.argmin({self.dim3(d, rank)})"])
            oh = r.choice([f"F.one_hot({idx}, {n})", f"F.one_hot({idx}, num_classes={n})"])
            w = self.pick(lambda w: not w.lowp and w.rank >= 1 and w.shape[-1] == n and not w.exact)
            forms = [(f"{oh}.float() * 0.5", True), (f"{oh}.sum(dim=0).float() * 0.25", True)]
            if w is not None:
                wt = f"{w.name}.transpose(-2, -1)" if w.rank >= 2 else w.name
                forms += [(f"({oh} * {w.name}).sum(-1)", False), (f"{oh}.float() @ {wt}", False)]
            expr, exact = r.choice(forms)
            return self.consume3(self.try_add(expr, exact=exact))
        v, a, shape = self.operand3(lambda v: v.rank >= 1 and v.shape[-1] >= 2 and not v.aux)
        if v is None:
            return None
        v = self.fp32(v)
        a, shape = v.name, v.shape
        n = shape[-1]
        if c < 0.75:  # a permutation matrix from an arange: a @ P flips or rotates the last dim
            perm = r.choice([f"torch.arange({n}).flip(0)", f"torch.arange({n}).roll({r.randint(1, n)})",
                             f"torch.arange({n - 1}, -1, -1)"])
            dt = "torch.float32" if not v.lowp else str(v.dtype)
            return self.consume3(self.try_add(f"{a} @ F.one_hot({perm}, {n}).to({dt})", exact=v.exact and not v.lowp))
        lead = list(shape[:-1]) or [1]
        lshape = [lead[-1]] if r.random() < 0.5 else lead
        ls = f"({self.shape_expr(lshape)},)" if len(lshape) == 1 else f"({self.shape_expr(lshape)})"
        aux = self.aux_input("lab", lshape, lambda g: torch.randint(0, n, lshape, generator=g),
                             f"torch.randint(0, {self.size_name(n)}, {ls})")
        lab = aux[0].name
        expr = r.choice([f"F.one_hot({lab}, {n}) * {a}", f"{a} - F.one_hot({lab}, num_classes={n}).float() * 2",
                         f"(F.one_hot({lab}, {n}) * {a}).sum(dim=-1)"])
        return self.consume3(self.add_with(expr, aux=[aux], exact=v.exact and "sum" not in expr and "* 2" not in expr))

    def op_count3(self):
        """count_nonzero of exact values (what relu, threshold and comparisons leave as zeros)."""
        r = self.rng
        v, a, shape = self.operand3(lambda v: v.exact and v.rank >= 1 and v.numel > 1 and not v.aux, cast=False)
        if v is None:
            return None
        rank = len(shape)
        d = self.dim3(r.randrange(rank), rank)
        t = round(r.uniform(-0.5, 0.5), 1)
        srcs = [f"torch.relu({a})", f"torch.tril({a})" if rank >= 2 else a]
        if not v.lowp:  # (a comparison of 16-bit values with a scalar that 16 bits round: as op_mask)
            srcs += [f"({a} > {t})", f"F.threshold({a}, {t}, 0.0)"]
        src = r.choice(srcs)
        dims = str(d) if rank < 2 or r.random() < 0.6 else f"({d}, {self.dim3((d + 1) % rank, rank)})"
        cnt = r.choice([f"torch.count_nonzero({src}, dim={dims})", f"{src}.count_nonzero(dim={dims})",
                        f"torch.count_nonzero({src}, {dims})", f"torch.count_nonzero({src})"])
        return self.consume3(self.try_add(f"{cnt}.float() * 0.125", exact=True))

    def as_vector(self, v):
        """A 1-D spelling of v (its flattening or a reduction to its last dim), with its length."""
        r = self.rng
        if v.rank == 1:
            return v.name, v.shape[0]
        if v.rank == 0:
            return f"{v.name}.view(1)", 1
        if v.numel <= 80 and r.random() < 0.5:
            return f"{v.name}.flatten()", v.numel
        fn = r.choice(["sum", "amax", "mean"])
        return f"{v.name}.{fn}(dim=({', '.join(map(str, range(v.rank - 1)))},))", v.shape[-1]

    def op_products3(self):
        """torch.outer / ger, torch.dot, torch.inner of computed values."""
        r = self.rng
        v = self.fp32(self.pick(lambda v: v.name.startswith("t") and not v.aux and v.numel > 1)
                      or self.pick(lambda v: not v.aux))
        if v is None:
            return None
        c = r.random()
        a, n = self.as_vector(v)
        if c < 0.4:
            w = self.fp32(self.pick(lambda w: not w.aux and w.dtype == v.dtype, recent=False))
            b, m = self.as_vector(w)
            fn = r.choice([f"torch.outer({a}, {b})", f"torch.ger({a}, {b})", f"({a}).outer({b})",
                           f"({a}).ger(vec2={b})"])
            return self.consume3(self.try_add(fn))
        if c < 0.7:
            ws = [w for w in self.vars if not w.aux and not w.terminal and w.dtype == v.dtype and w.rank == 1
                  and w.shape[0] == n]
            b = r.choice(ws).name if ws and r.random() < 0.7 else r.choice([f"torch.sigmoid({a})", f"({a}).flip(0)", a])
            fn = r.choice([f"torch.dot({a}, {b})", f"({a}).dot({b})", f"torch.inner({a}, {b})"])
            expr = fn
            # the scalar used again: a projection-like update of the value
            if v.rank >= 1 and r.random() < 0.5:
                expr = f"{v.name} - {fn} * 0.1"
            return self.consume3(self.try_add(expr))
        if v.rank < 1:
            return None
        k = v.shape[-1]
        ws = [w for w in self.vars if not w.aux and not w.terminal and w.dtype == v.dtype and w.rank >= 1
              and w.shape[-1] == k]
        w = r.choice(ws)
        return self.consume3(self.try_add(r.choice([f"torch.inner({v.name}, {w.name})", f"{v.name}.inner({w.name})"])))

    def op_red3(self):
        """logsumexp, var_mean / std_mean, softmin, GLU, threshold (of exact values), as functions and modules."""
        r = self.rng
        v, a, shape = self.operand3(lambda v: v.rank >= 1 and v.numel > 1 and not v.aux)
        if v is None:
            return None
        w = self.fp32(v)
        if w is not v:
            v, a, shape = w, w.name, w.shape
        rank = len(shape)
        d = r.randrange(rank)
        D = self.dim3(d, rank)
        kd = r.choice(["", ", keepdim=True"])
        c = r.random()
        exact = False
        if c < 0.25:
            dims = str(D) if rank < 2 or r.random() < 0.6 else \
                f"({', '.join(str(self.dim3(i, rank)) for i in sorted(r.sample(range(rank), 2)))})"
            expr = r.choice([f"torch.logsumexp({a}, dim={dims}{kd})", f"{a}.logsumexp({dims}{kd})",
                             f"torch.logsumexp({a}, {dims})", f"{a} - torch.logsumexp({a}, dim={D}, keepdim=True)",
                             f"torch.special.logsumexp({a}, {dims}{kd})"])
        elif c < 0.45:
            fn = r.choice(["var_mean", "std_mean"])
            dims = str(D) if rank < 2 or r.random() < 0.6 else f"({D}, {self.dim3((d + 1) % rank, rank)})"
            unb = r.choice(["", ", correction=0", ", unbiased=False", ", correction=2"])
            # (the variance beside a mean that is read alone still divides by count - correction: tritonize
            # refuses a division by zero or less, eager returns inf or nan there)
            count = shape[d] * (shape[(d + 1) % rank] if dims.startswith("(") else 1)
            if count <= {"": 1, ", correction=2": 2}.get(unb, 0):
                unb = ", correction=0"
            call = r.choice([f"torch.{fn}({a}, dim={dims}{unb}{kd})", f"torch.{fn}({a}, {dims}{unb}{kd})"])
            forms = [f"{call}[0]", f"{call}[1]", f"{call}[0] + {call}[1]",
                     f"({a} - torch.var_mean({a}, {D}, keepdim=True)[1]) / "
                     f"torch.sqrt(torch.var_mean({a}, {D}, keepdim=True)[0] + 1e-3)"]
            if rank == 1 or r.random() < 0.15:
                forms.append(f"torch.{fn}({a}{unb})[{r.randint(0, 1)}]")
            expr = r.choice(forms)
        elif c < 0.6:
            if r.random() < 0.25:
                name, line = self.new_module(lambda: self.torch.nn.Softmin(dim=D), f"nn.Softmin(dim={D})")
                return self.consume3(self.add_with(f"self.{name}({a})", [line]))
            expr = r.choice([f"F.softmin({a}, dim={D})", f"F.softmin({a}, {D})",
                             f"F.softmin({a}, dim={D}, dtype=torch.float32)" if v.lowp else f"F.softmin({a} * 2, {D})"])
        elif c < 0.78:
            even = [i for i, s in enumerate(shape) if s % 2 == 0]
            if not even:
                return None
            d = r.choice(even)
            D = self.dim3(d, rank)
            if r.random() < 0.25:
                name, line = self.new_module(lambda: self.torch.nn.GLU(dim=D),
                                             f"nn.GLU({'' if D == -1 else f'dim={D}'})")
                return self.consume3(self.add_with(f"self.{name}({a})", [line]))
            expr = r.choice([f"F.glu({a}, dim={D})", f"F.glu({a}, {D})"] +
                            ([f"F.glu({a})"] if D in (-1, rank - 1) else []))
        else:  # threshold compares: exact values only; thresholds and values exact in 16 bits
            if not v.exact:
                return None
            th = r.choice([0.0, 0.5, -0.25, 0.125, -1.0, 1.5])
            val = r.choice([0.0, -1.0, 2.0, 0.5, 20.0 if not v.lowp else 8.0])
            if r.random() < 0.25:
                name, line = self.new_module(lambda: self.torch.nn.Threshold(th, val), f"nn.Threshold({th}, {val})")
                return self.consume3(self.add_with(f"self.{name}({a})", [line], exact=True))
            expr = r.choice([f"F.threshold({a}, {th}, {val})", f"torch.threshold({a}, {th}, {val})",
                             f"F.threshold({a}, threshold={th}, value={val})"])
            exact = True
        return self.consume3(self.try_add(expr, exact=exact, lowp_step=not exact))

    def op_loss3(self):
        """F.nll_loss / nn.NLLLoss (weight, ignore_index, class-index inputs or the argmax of an exact value),
        F.binary_cross_entropy / nn.BCELoss of probabilities, F.binary_cross_entropy_with_logits /
        nn.BCEWithLogitsLoss (weight, pos_weight)."""
        r = self.rng
        torch = self.torch
        v, a, shape = self.operand3(lambda v: v.rank >= 1 and not v.aux, permute=0.2)
        if v is None:
            return None
        w = self.fp32(v)
        if w is not v:
            v, a, shape = w, w.name, w.shape
        rank = len(shape)
        red = r.choice(["", ", reduction='mean'", ", reduction='sum'", ", reduction='none'"])
        cast = "" if not v.lowp else (".half()" if v.dtype == torch.float16 else ".bfloat16()")
        c = r.random()
        if c < 0.4 and 2 <= rank <= 4 and shape[1] >= 2:  # nll_loss
            n_cls = shape[1]
            tshape = [shape[0]] + list(shape[2:])
            tnumel = 1
            for s in tshape:
                tnumel *= s
            inp = r.choice([f"F.log_softmax({a}, 1)", f"F.log_softmax({a}, dim=1)", a,
                            f"torch.log_softmax({a}, -{rank - 1})"])
            lines, aux = [], []
            exacts = [u for u in self.vars if u.exact and not u.lowp and not u.aux and u.shape == tuple(shape)]
            if exacts and r.random() < 0.4:
                tgt = f"torch.argmax({r.choice(exacts).name}, dim=1)"
            else:
                ts = f"({self.shape_expr(tshape)},)" if len(tshape) == 1 else f"({self.shape_expr(tshape)})"
                aux = [self.aux_input("lab", tshape, lambda g: torch.randint(0, n_cls, tshape, generator=g),
                                      f"torch.randint(0, {self.size_name(n_cls)}, {ts})")]
                tgt = aux[0][0].name
            ign = ""
            if r.random() < 0.4 and tnumel >= 12 and n_cls >= 3 and aux:
                ign = f", ignore_index={r.randrange(n_cls)}"
            if r.random() < 0.3:
                wt = f"torch.rand({n_cls}) + 0.5" if r.random() < 0.6 else "None"
                red_m = red.replace(", ", "")
                name, line = self.new_module(
                    lambda: torch.nn.NLLLoss(weight=torch.rand(n_cls) + 0.5 if wt != "None" else None,
                                             ignore_index=int(ign.split("=")[1]) if ign else -100,
                                             reduction=eval(red_m.split("=")[1]) if red_m else "mean"),
                    f"nn.NLLLoss(weight={wt}{ign}{red})" if wt != "None" else f"nn.NLLLoss({(ign + red)[2:]})")
                lines.append(line)
                expr = f"self.{name}({inp}{'.float()' if cast and wt != 'None' else ''}, {tgt})"
            else:
                wt = ""
                if r.random() < 0.5:
                    wn, line = self.new_param([n_cls], 1.0, 0.5, kind="var_buffer")
                    lines.append(line)
                    wt = f", weight=self.{wn}{cast}"
                expr = f"F.nll_loss({inp}, {tgt}{wt}{ign}{red})"
            return self.consume3(self.add_with(expr, lines, aux))
        # targets in [0, 1]: a sigmoid of another value of the shape, or a rand input
        partner = self.partner(v) if not v.lowp else v
        tgt = f"torch.sigmoid({partner.name if partner.shape == tuple(shape) else a})"
        aux = []
        if r.random() < 0.3:
            aux = [self.aux_input("tgt", list(shape), lambda g: torch.rand(*shape, generator=g).to(v.dtype),
                                  f"torch.rand({self.shape_expr(shape)}{', dtype=' + str(v.dtype) if v.lowp else ''})")]
            tgt = aux[0][0].name
        lines = []
        wt = ""
        if r.random() < 0.3:
            k = r.randint(1, rank)
            wshape = [s if r.random() < 0.7 else 1 for s in shape[rank - k:]]
            wn, line = self.new_param(wshape, 1.0, 0.2, kind="var_buffer")
            lines.append(line)
            wt = f", weight=self.{wn}{cast}"
        if c < 0.7:  # binary_cross_entropy of probabilities
            p = r.choice([f"torch.sigmoid({a})", f"torch.softmax({a}, dim={self.dim3(r.randrange(rank), rank)})",
                          f"torch.sigmoid({a}) * 0.9 + 0.05"])
            if r.random() < 0.2 and not wt:
                red_m = red.replace(", ", "")
                name, line = self.new_module(
                    lambda: torch.nn.BCELoss(reduction=eval(red_m.split("=")[1]) if red_m else "mean"),
                    f"nn.BCELoss({red[2:]})")
                return self.consume3(self.add_with(f"self.{name}({p}, {tgt})", [line], aux))
            return self.consume3(self.add_with(f"F.binary_cross_entropy({p}, {tgt}{wt}{red})", lines, aux))
        pw = ""
        n = shape[-1]
        if r.random() < 0.5:
            if r.random() < 0.3 and not wt:
                red_m = red.replace(", ", "")
                name, line = self.new_module(
                    lambda: torch.nn.BCEWithLogitsLoss(pos_weight=torch.rand(n) * 2 + 0.1,
                                                       reduction=eval(red_m.split("=")[1]) if red_m else "mean"),
                    f"nn.BCEWithLogitsLoss(pos_weight=torch.rand({self.size_name(n)}) * 2 + 0.1{red})")
                cast_in = ".float()" if v.lowp else ""
                return self.consume3(self.add_with(f"self.{name}({a}{cast_in}, {tgt}{cast_in})", [line], aux))
            pn, line = self.new_param([n], 2.0, 0.1, kind="var_buffer")
            lines.append(line)
            pw = f", pos_weight=self.{pn}{cast}"
        return self.consume3(self.add_with(f"F.binary_cross_entropy_with_logits({a}, {tgt}{wt}{pw}{red})", lines, aux))

    def op_cast(self):
        r = self.rng
        v = self.pick(terminal=True)
        if v.lowp:
            expr = r.choice([f"{v.name}.float()", f"{v.name}.to(torch.float32)"])
            return self.try_add(expr, exact=v.exact, lowp_step=False)
        if v.numel and v.samples[0].abs().max().item() > LOWP_LIMIT:
            return None
        dt = r.choice(LOWP)
        expr = r.choice([f"{v.name}.to({dt})", f"{v.name}.half()" if dt == "torch.float16" else
                         f"{v.name}.bfloat16()"])
        var = self.try_add(expr, exact=False, lowp_step=False)
        if var is not None:
            var.lowp_ops = 0  # the cast itself rounds the same way in both
            self.uses_lowp_cast = True
        return var

    # ------------------------------------------------------------------------------------------ driver
    def build(self):
        r = self.rng
        self.make_inputs()
        ops = [(self.op_unary, 6), (self.op_binary, 6), (self.op_view, 6), (self.op_reduce, 5),
               (self.op_param, 1), (self.op_matmul, 1), (self.op_matmul_vars, 0.5), (self.op_cast, 1.5),
               (self.op_slice, 2), (self.op_scan, 0.5), (self.op_arg, 0.5),
               (self.op_norm, 1.5), (self.op_pool, 1.2), (self.op_scan2, 0.5), (self.op_select, 1),
               (self.op_act, 1.5), (self.op_loss, 1.2), (self.op_conv, 1), (self.op_sdpa, 0.7)]
        if self.version >= 2:
            ops += [(self.op_regroup, 5), (self.op_tri, 1), (self.op_reduce2, 2.5), (self.op_mask, 2)]
        if self.version >= 3:
            ops += [(self.op_split3, 3), (self.op_pad3, 2.5), (self.op_roll3, 2), (self.op_arange3, 1.5),
                    (self.op_onehot3, 1), (self.op_count3, 1), (self.op_products3, 1.5), (self.op_red3, 4),
                    (self.op_loss3, 2.5)]
        fns, weights = zip(*ops)
        steps = r.randint(3, 12)
        made = 0
        tries = 0
        while made < steps and tries < 60:
            tries += 1
            if r.choices(fns, weights)[0]() is not None:
                made += 1
        computed = [v for v in self.vars if v.name.startswith("t")]
        if not computed:
            self.try_add(f"{self.vars[0].name} * 2.0")
            computed = [v for v in self.vars if v.name.startswith("t")]
        # every value nobody reads is an output (up to 3, the last statement always): nothing is dead code
        used = set()
        for line in self.lines:
            used.update(re.findall(r"\bt\d+\b", line.split(" = ", 1)[1]))
        leaves = [v for v in computed if v.name not in used]
        outs = leaves[-3:] if computed[-1] in leaves[-3:] else leaves[-2:] + [computed[-1]]
        if r.random() < 0.3:
            outs = [computed[-1]]
        if len(computed) > 2 and r.random() < 0.2:  # a final value that reads several earlier ones
            partner = self.broadcast_partner(computed[-1])
            w = self.try_add(f"{computed[-1].name} + {partner.name}")
            if w is not None:
                outs = [v for v in outs if v is not computed[-1]] + [w]
        has_lowp_io = any(dt in LOWP for _, _, dt, _ in self.inputs) or any(v.lowp for v in outs)
        if self.uses_lowp_cast and not has_lowp_io:
            lowp_vars = [v for v in computed if v.lowp]
            outs.append(lowp_vars[-1])
        self.outputs = outs
        return self.source()

    def source(self):
        fwd_args = ", ".join(name for name, _, _, _ in self.inputs)
        inputs = []
        for name, shape, dtype, made in self.inputs:
            if made is not None:
                inputs.append(made)
                continue
            extra = "" if dtype == "torch.float32" else f", dtype={dtype}"
            inputs.append(f"torch.randn({self.shape_expr(shape) if shape else ''}{extra})")
        sizes = "\n".join(f"{n} = {v}" for v, n in sorted(self.sizes.items(), key=lambda kv: int(kv[1][1:])))
        init = "\n".join(f"        {line}" for line, _ in self.params)
        body = "\n".join(f"        {line}" for line in self.lines)
        ret = ", ".join(v.name for v in self.outputs)
        return (
            "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"
            f"class Model(nn.Module):\n    \"\"\"Random module, seed {self.seed}.\"\"\"\n\n"
            f"    def __init__(self):\n        super().__init__()\n{init + chr(10) if init else ''}\n"
            f"    def forward(self, {fwd_args}):\n{body}\n        return {ret}\n\n\n"
            f"{sizes}\n\n\n"
            f"def get_inputs():\n    return [{', '.join(inputs)}]\n\n\n"
            "def get_init_inputs():\n    return []\n"
        )


def _primes(n):
    out, p = [], 2
    while p * p <= n:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1
    return out + ([n] if n > 1 else [])


def _factors(s):
    return [f for f in range(2, s) if s % f == 0 and f <= 17]


def _inverse(perm):
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return inv


def generate(seed, version=None):
    """The source of random module `seed` (deterministic for a given torch, Python and generator version:
    version 1 is the generator before the version-2 operators, 2 before the version-3 ones, for seeds that
    earlier notes name)."""
    import torch
    state = torch.random.get_rng_state()
    try:
        torch.manual_seed(seed)
        return Generator(seed, version).build()
    finally:
        torch.random.set_rng_state(state)


# ------------------------------------------------------------------------------------------------ running
def convert(tritonize, ref, gen, timeout=120):
    """`tritonize convert ref -o gen` (gen must not exist yet): ("ok", ""), ("rejected", the error line) for a clean
    located error that wrote no file, or ("crash", what happened) for an internal error, a signal, a timeout, an
    error without a location or a partial output file."""
    try:
        proc = subprocess.run([str(tritonize), "convert", str(ref), "-o", str(gen)], capture_output=True,
                              text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "crash", f"tritonize convert ran past {timeout} s"
    text = proc.stderr + proc.stdout
    if proc.returncode == 0:
        if not Path(gen).exists():
            return "crash", "tritonize convert exited 0 but wrote no file"
        return "ok", ""
    located = CLEAN_ERROR.search(text)
    if proc.returncode > 0 and located and not INTERNAL.search(text):
        if Path(gen).exists():
            return "crash", f"a rejected conversion wrote {gen}: {located.group(1).strip()}"
        return "rejected", located.group(1).strip()
    return "crash", f"tritonize convert exited with {proc.returncode}:\n{text}"


TRIALS = 3

# Runs protocol.run() on each (ref, gen) of argv[1] in this process (the interpreter is switched on by the parent);
# prints one JSON list of result dicts.
RUNNER = r"""
import io, json, sys
sys.path.insert(0, sys.argv[3])
import protocol
out = []
for ref, gen in json.loads(sys.argv[1]):
    log = io.StringIO()
    result = protocol.run(ref, gen, {}, trials=int(sys.argv[2]), log=lambda s: print(s, file=log))
    result.pop("trials", None)
    result["output"] = log.getvalue()[-3000:]
    out.append(result)
print(json.dumps(out))
"""


def rejection_key(message):
    """A rejection message with its numbers and names blanked, to count rejections by kind."""
    return re.sub(r"\b(t|p|d)\d+\b|-?\d+(\.\d+)?", "#", message)[:120]


def bulk(seeds, jobs, out_dir, tritonize, batch=40, version=None):
    """Converts and runs `seeds`; prints a summary and writes failing sources to out_dir. Returns the failures."""
    import collections
    import concurrent.futures
    import json
    import os

    here = Path(__file__).resolve().parent
    out_dir.mkdir(parents=True, exist_ok=True)
    sources = {}
    for s in seeds:
        sources[s] = generate(s, version)
        (out_dir / f"rand{s}.py").write_text(sources[s])

    def conv(s):
        return s, convert(tritonize, out_dir / f"rand{s}.py", out_dir / f"rand{s}_triton.py")

    failures, rejected, ok = {}, collections.Counter(), []
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for s, (status, msg) in pool.map(conv, seeds):
            if status == "ok":
                ok.append(s)
            elif status == "rejected":
                rejected[rejection_key(msg)] += 1
            else:
                failures[s] = "[convert] " + msg

    def run_batch(chunk):
        env = dict(os.environ, TRITON_INTERPRET="1", OMP_NUM_THREADS="1", PYTHONDONTWRITEBYTECODE="1")
        pairs = [(str(out_dir / f"rand{s}.py"), str(out_dir / f"rand{s}_triton.py")) for s in chunk]
        proc = subprocess.run([sys.executable, "-c", RUNNER, json.dumps(pairs), str(TRIALS), str(here)],
                              capture_output=True, text=True, env=env, timeout=3600)
        try:
            results = json.loads(proc.stdout.strip().splitlines()[-1])
        except (IndexError, ValueError):
            if len(chunk) == 1:
                return {chunk[0]: "[runner crashed] " + (proc.stdout + proc.stderr)[-3000:]}
            out = {}
            for s in chunk:  # find the one that takes the runner down
                out.update(run_batch([s]))
            return out
        return {s: None if r["ok"] else f"[{r['stage']}] {r['message']}\n{r.get('output', '')[-1500:]}"
                for s, r in zip(chunk, results)}

    chunks = [ok[i:i + batch] for i in range(0, len(ok), batch)]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for res in pool.map(run_batch, chunks):
            failures.update({s: m for s, m in res.items() if m})
    print(f"{len(seeds)} seeds: {len(ok)} converted, {sum(rejected.values())} rejected, {len(failures)} failed")
    for key, n in rejected.most_common():
        print(f"  rejected x{n}: {key}")
    kinds = collections.Counter(rejection_key(m.splitlines()[0]) for m in failures.values() if m)
    for key, n in kinds.most_common():
        print(f"  failed x{n}: {key}")
    for s, m in sorted(failures.items()):
        print(f"--- seed {s}: {m.splitlines()[0] if m else ''}")
    (out_dir / "failures.json").write_text(json.dumps(failures, indent=1))
    return failures


def seed_range(text):
    """"N" -> 0..N-1, "A:B" -> A..B-1, "A,B,C" -> those seeds."""
    if "," in text:
        return [int(s) for s in text.split(",") if s]
    a, sep, b = text.partition(":")
    return range(int(a), int(b)) if sep else range(int(a))


def main(argv):
    import argparse
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("seeds", nargs="?", default="100", help="N (0..N-1) or A:B")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("/tmp/tritonize-random"))
    parser.add_argument("--show", type=int, help="print this seed's source and exit")
    parser.add_argument("--version", type=int, default=VERSION,
                        help="generator version (1: before op_regroup & co, 2: before op_split3 & co)")
    args = parser.parse_args(argv)
    if args.show is not None:
        print(generate(args.show, args.version), end="")
        return 0
    import os
    tritonize = Path(os.environ.get("TRITONIZE_BIN", here.parents[1] / "build" / "tritonize"))
    return 1 if bulk(list(seed_range(args.seeds)), args.jobs, args.out, tritonize, version=args.version) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
