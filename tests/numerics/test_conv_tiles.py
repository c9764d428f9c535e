"""Conv position tiles that stay within one image although they do not divide it (kernel/lower_conv.cpp): each
image's last tile is partial, its extra positions wrap around for the loads (`sl`) and are masked at the store.
Checked for the form (the wrapped index in the kernel) and against PyTorch under Triton's interpreter, for a dot
conv with a fused epilogue and a depthwise one, so that a store of the wrapped positions or a tile that reads the
next image shows up as a mismatch."""

from .paths import check_forwards, convert_forward

CASES = [
    # (forward, inputs): 37 x 41 = 1517 positions an image (11.9 tiles of 128), dilated, padded
    ("torch.relu(F.conv2d(x, w, b, padding=(2, 3), dilation=(2, 3)))",
     "torch.randn(3, 16, 37, 41), torch.randn(16, 16, 3, 3), torch.randn(16)"),
    # depthwise: 1-wide channel tiles, 1024 positions a tile, 97 x 101 = 9797 an image
    ("F.conv2d(x, w, b, padding=1, groups=4)",
     "torch.randn(2, 4, 97, 101), torch.randn(4, 1, 3, 3), torch.randn(4)"),
]


def test_partial_image_tiles(tmp_path):
    jobs = []
    for i, (expr, inputs) in enumerate(CASES):
        gen = convert_forward(tmp_path, f"ct{i}", expr, inputs, params="x, w, b")
        assert "sl = sp %" in gen.read_text(), f"{expr}: expected image tiles with a partial last tile"
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": ["x", "w", "b"]})
    failures = check_forwards(jobs)
    assert not failures, "\n".join(failures)
