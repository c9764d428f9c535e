"""Cross entropy's target logit and target weight are picked by one load at the target (kernel/values.h, Pick),
not by comparing the class index with the target over the whole row; and two row-reduction kernels whose
full-size values one pointwise op combines (KL divergence of two log_softmax) are one kernel (passes/fuse.cpp,
merge_sibling_rows). Checked for the form (the generated text, the kernels' spaces) and against PyTorch under
Triton's interpreter: ignored targets (inside the class range and the default -100), class weights, label
smoothing, fp16/bf16 logits, class dims that are not innermost."""

import re

from .paths import check_forwards, convert_forward, emitted_kernels

N, C = 37, 259
LOGITS = f"torch.randn({N}, {C}{{dtype}})"
TARGETS = f"torch.randint(0, {C}, ({N},))"
# (some targets ignored: every 4th row)
IGNORED = f"torch.where(torch.arange({N}) % 4 == 0, {{ignore}}, torch.randint(0, {C}, ({N},)))"
WEIGHT = f"torch.rand({C}) + 0.1"

# (forward, inputs to convert, inputs to check (ignored targets), params, tolerance)
CE_CASES = [
    ("F.cross_entropy(x, t)", f"{LOGITS.format(dtype='')}, {TARGETS}",
     f"({LOGITS.format(dtype='')}, {IGNORED.format(ignore=-100)})", "x, t", 1e-4),
    ("F.cross_entropy(x, t, weight=w, ignore_index=2, label_smoothing=0.05)",
     f"{LOGITS.format(dtype='')}, {TARGETS}, {WEIGHT}",
     f"({LOGITS.format(dtype='')}, {IGNORED.format(ignore=2)}, {WEIGHT})", "x, t, w", 1e-4),
    ("F.cross_entropy(x, t, weight=w, reduction='sum')", f"{LOGITS.format(dtype='')}, {TARGETS}, {WEIGHT}",
     f"({LOGITS.format(dtype='')}, {IGNORED.format(ignore=-100)}, {WEIGHT})", "x, t, w", 1e-4),
    ("F.cross_entropy(x, t, ignore_index=5, reduction='none')", f"{LOGITS.format(dtype=', dtype=torch.float16')}, {TARGETS}",
     f"({LOGITS.format(dtype=', dtype=torch.float16')}, {IGNORED.format(ignore=5)})", "x, t", 1e-2),
    ("F.cross_entropy(x, t, label_smoothing=0.1)", f"{LOGITS.format(dtype=', dtype=torch.bfloat16')}, {TARGETS}",
     f"({LOGITS.format(dtype=', dtype=torch.bfloat16')}, {IGNORED.format(ignore=-100)})", "x, t", 1e-2),
    # classes along dim 1 of [N, C, H, W]: the target's logit is read C-planes apart (a column kernel)
    ("F.cross_entropy(x, t, reduction='sum')", "torch.randn(3, 5, 19, 23), torch.randint(0, 5, (3, 19, 23))",
     "(torch.randn(3, 5, 19, 23), torch.where(torch.arange(19 * 23).reshape(19, 23) % 7 == 0, -100, "
     "torch.randint(0, 5, (3, 19, 23))))", "x, t", 1e-4),
]


def test_cross_entropy_picks_by_a_load(tmp_path):
    jobs = {}
    for i, (expr, inputs, check_inputs, params, tol) in enumerate(CE_CASES):
        gen = convert_forward(tmp_path, f"ce{i}", expr, inputs, params=params)
        text = gen.read_text()
        # one load at the target (x[row, t]), masked to the class range; no compare of the class index with t
        assert re.search(r"pick_in = \(t >= 0\) & \(t < \d+\)", text), f"{expr}: no target range test\n{text}"
        assert re.search(r"x_picked = tl\.load\(x_ptr \+ \([^)]*\bt\b[^)]*\), mask=[^)]*pick_in[^)]*\)", text), \
            f"{expr}: the target's logit is not one load at t\n{text}"
        if "weight=w" in expr:
            assert "w_picked = tl.load(w_ptr + t, mask=pick_in)" in text, f"{expr}: weight not picked\n{text}"
        assert not re.search(r"== t\b|\bt == ", text), f"{expr}: the row still compares the class index\n{text}"
        jobs.setdefault(tol, []).append(
            {"gen": str(gen), "expr": expr, "inputs": check_inputs, "params": [p.strip() for p in params.split(",")]})
    for tol, batch in jobs.items():
        failures = check_forwards(batch, tol=tol)
        assert not failures, "\n".join(failures)


def test_two_log_softmax_rows_share_one_kernel(tmp_path):
    # KL divergence of log_softmax(s) and log_softmax(t): one kernel reads both inputs once (the second
    # log_softmax's kernel used to read the first's full-size result back from memory)
    cases = [
        ("F.kl_div(F.log_softmax(s, dim=1), F.log_softmax(t, dim=1), reduction='sum', log_target=True)",
         "torch.randn(29, 259), torch.randn(29, 259)", "s, t", 1e-4),
        ("s.log_softmax(dim=-1) - torch.log_softmax(t / 3.0, -1)", "torch.randn(3, 5, 617), torch.randn(3, 5, 617)",
         "s, t", 1e-4),
        ("F.kl_div(F.log_softmax(s, dim=1), F.log_softmax(t, dim=1), reduction='batchmean', log_target=True)",
         "torch.randn(29, 259, dtype=torch.float16), torch.randn(29, 259, dtype=torch.float16)", "s, t", 1e-2),
    ]
    for tol in (1e-4, 1e-2):
        jobs = []
        for i, (expr, inputs, params, case_tol) in enumerate(cases):
            if case_tol != tol:
                continue
            gen = convert_forward(tmp_path, f"kl{i}", expr, inputs, params=params)
            kernels = emitted_kernels(gen)
            rows = [line for line in kernels.splitlines() if line.startswith("kernel") and " max " in line]
            assert len(rows) == 1 and rows[0].count(" max ") == 2, \
                f"{expr}: expected one row kernel for both inputs\n{kernels}"
            jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": [p.strip() for p in params.split(",")]})
        failures = check_forwards(jobs, tol=tol)
        assert not failures, "\n".join(failures)
