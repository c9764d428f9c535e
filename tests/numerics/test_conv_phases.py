"""Transposed convolutions split by output phase (kernel/lower_conv.cpp): along a dim whose stride s > 1 and
dilation d are coprime (the last spatial dim only in depthwise convs), the outputs o = ph (mod s) read only the
taps k = k0 + s * j, k0 = (ph + pad) * d^-1 mod s; other dims keep the unsplit form (every tap, holes masked). Each case
is checked for its form (a `phase` in the kernel or not) and against PyTorch under Triton's interpreter, with
paddings, output paddings and kernels that are not multiples of the stride, so that a wrong k0 or base (the
phase's first input) misplaces taps."""

from .paths import check_forwards, convert_forward

CASES = [
    # (forward, inputs, phased)
    ("F.conv_transpose2d(x, w, stride=(2, 3), padding=(2, 1), output_padding=(1, 0), dilation=(3, 2))",
     "torch.randn(2, 16, 6, 7), torch.randn(16, 8, 3, 4)", True),
    ("F.conv_transpose2d(x, w, stride=(3, 2), padding=(1, 1), output_padding=(2, 1), dilation=(2, 1))",
     "torch.randn(2, 16, 5, 6), torch.randn(16, 8, 5, 3)", True),
    ("F.conv_transpose3d(x, w, stride=(5, 2, 1), padding=(0, 1, 0), output_padding=(3, 0, 0), dilation=(4, 1, 1))",
     "torch.randn(1, 16, 3, 4, 5), torch.randn(16, 8, 3, 2, 2)", True),
    # depthwise (outer products, no tl.dot): the last dim is split too
    ("F.conv_transpose1d(x, w, stride=3, padding=1, output_padding=2, dilation=2, groups=16)",
     "torch.randn(2, 16, 13), torch.randn(16, 1, 5)", True),
    # a dot conv keeps its last dim whole (its outputs along it would be stored stride elements apart)
    ("F.conv_transpose1d(x, w, stride=3, padding=1, output_padding=2, dilation=2)",
     "torch.randn(2, 16, 13), torch.randn(16, 8, 5)", False),
    # dilation 2 and stride 2 share a factor: not split
    ("F.conv_transpose1d(x, w, stride=2, padding=1, dilation=2, groups=16)",
     "torch.randn(2, 16, 9), torch.randn(16, 1, 3)", False),
]


def test_transposed_conv_phases(tmp_path):
    jobs = []
    for i, (expr, inputs, phased) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"cp{i}", expr, inputs, params="x, w")
        text = gen.read_text()
        assert ("phase" in text) == phased, f"{expr}: expected {'a' if phased else 'no'} phase split"
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": ["x", "w"]})
    failures = check_forwards(jobs)
    assert not failures, "\n".join(failures)
