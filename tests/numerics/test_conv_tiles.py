"""Conv position tiles that stay within one image although they do not divide it (kernel/lower_conv.cpp): each
image's last tile is partial, its extra positions wrap around for the loads (`sl`) and are masked at the store.
Checked for the form (the wrapped index in the kernel) and against PyTorch under Triton's interpreter, for a dot
conv with a fused epilogue and a depthwise one, so that a store of the wrapped positions or a tile that reads the
next image shows up as a mismatch.

Transposed convs split by phase along their outer dims use row tiles instead (ROWS rows x COLS contiguous columns
of the last dim, `prow` / `pcol`): checked the same way, with partial row and column tiles, several column tiles a
row, one image and several, groups, and a depthwise conv (outer products)."""

from .paths import check_forwards, convert_forward

CASES = [
    # (forward, inputs): 37 x 41 = 1517 positions an image (11.9 tiles of 128), dilated, padded
    ("torch.relu(F.conv2d(x, w, b, padding=(2, 3), dilation=(2, 3)))",
     "torch.randn(3, 16, 37, 41), torch.randn(16, 16, 3, 3), torch.randn(16)"),
    # depthwise: 1-wide channel tiles, 1024 positions a tile, 97 x 101 = 9797 an image
    ("F.conv2d(x, w, b, padding=1, groups=4)",
     "torch.randn(2, 4, 97, 101), torch.randn(4, 1, 3, 3), torch.randn(4)"),
]


def check_cases(tmp_path, stem, cases, has_form, form):
    """Converts each (forward, inputs) case, checks its kernel has the form, runs all against PyTorch."""
    jobs = []
    for i, (expr, inputs) in enumerate(cases):
        gen = convert_forward(tmp_path, f"{stem}{i}", expr, inputs, params="x, w, b")
        assert has_form(gen.read_text()), f"{expr}: expected {form}"
        jobs.append({"gen": str(gen), "expr": expr, "inputs": inputs, "params": ["x", "w", "b"]})
    failures = check_forwards(jobs)
    assert not failures, "\n".join(failures)


def test_partial_image_tiles(tmp_path):
    check_cases(tmp_path, "ct", CASES, lambda text: "sl = sp %" in text, "image tiles with a partial last tile")


ROW_CASES = [
    # 2 phases along H; rows of 37 (three 16-wide column tiles, the last partial), 2 * 9 + 1 = 19 rows (partial
    # row tiles), an epilogue
    ("torch.relu(F.conv_transpose2d(x, w, b, stride=(2, 1), padding=(1, 1), output_padding=(1, 0)))",
     "torch.randn(2, 16, 9, 35), torch.randn(16, 16, 4, 3), torch.randn(16)"),
    # 3-D, one image, groups, phases along D and H, dilation 3 along H (coprime to its stride 2)
    ("F.conv_transpose3d(x, w, b, stride=(3, 2, 1), padding=(1, 2, 0), dilation=(1, 3, 1), groups=2)",
     "torch.randn(1, 32, 3, 5, 21), torch.randn(32, 8, 2, 3, 3), torch.randn(16)"),
    # depthwise, stride only along H: the last dim is not split, so the rows are
    ("F.conv_transpose2d(x, w, b, stride=(3, 1), padding=1, groups=8)",
     "torch.randn(3, 8, 7, 50), torch.randn(8, 1, 3, 3), torch.randn(8)"),
]


def test_row_tiles(tmp_path):
    check_cases(tmp_path, "rt", ROW_CASES, lambda text: "phase" in text and "pcol = " in text,
                "a phase split with row tiles")
