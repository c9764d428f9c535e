"""nn.MultiheadAttention: converted and run under the corpus protocol (protocol.py: same seed for Model and
ModelNew, identical state dicts, 5 trials of fresh inputs against eager PyTorch on the CPU). Covers self- and
cross-attention (one input projection, or three), batch_first, bias=False, need_weights=False, per-head weights
(average_attn_weights=False), boolean and float attn_mask ([L, S] and [N * H, L, S]), a boolean key_padding_mask,
the module inside a pre-norm transformer block, nn.TransformerEncoderLayer (post- and pre-norm, string and module
activations, masks), and the options refused with a located error."""

import subprocess

import pytest

from .paths import TRITONIZE, convert_error
from .protocol import format_failure, run_protocol

HEADER = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n"


def problem(init, forward, params, inputs):
    return (HEADER + "class Model(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            f"        {init}\n\n    def forward(self, {params}):\n        {forward}\n\n\n"
            f"def get_inputs():\n    return [{inputs}]\n\n\ndef get_init_inputs():\n    return []\n")


CASES = {
    "self_weights": problem("self.attn = nn.MultiheadAttention(48, 4)", "return self.attn(x, x, x)", "x",
                            "torch.randn(11, 3, 48)"),
    "batch_first_no_weights": problem("self.attn = nn.MultiheadAttention(64, 8, batch_first=True, bias=False)",
                                      "out, _ = self.attn(x, x, x, need_weights=False)\n        return out", "x",
                                      "torch.randn(3, 17, 64)"),
    "cross_per_head": problem("self.attn = nn.MultiheadAttention(32, 2)",
                              "return self.attn(q, kv, kv, average_attn_weights=False)", "q, kv",
                              "torch.randn(5, 2, 32), torch.randn(9, 2, 32)"),
    "three_inputs_batch_first": problem("self.attn = nn.MultiheadAttention(24, 3, batch_first=True)",
                                        "return self.attn(q, k, v)[0]", "q, k, v",
                                        "torch.randn(2, 7, 24), torch.randn(2, 13, 24), torch.randn(2, 13, 24)"),
    # a causal boolean mask (True: masked) and a float mask with one head's rows shifted
    "causal_bool_mask": problem("self.attn = nn.MultiheadAttention(32, 4)",
                                "return self.attn(x, x, x, attn_mask=m)", "x, m",
                                "torch.randn(10, 2, 32), torch.ones(10, 10, dtype=torch.bool).triu(1)"),
    "float_mask_per_head": problem("self.attn = nn.MultiheadAttention(16, 2, batch_first=True)",
                                   "return self.attn(x, x, x, attn_mask=m, need_weights=False)[0]", "x, m",
                                   "torch.randn(3, 6, 16), torch.randn(6, 6, 6)"),
    # padded keys: key s of batch n is masked when s >= lengths[n] (every row keeps its first key)
    "key_padding_mask": problem("self.attn = nn.MultiheadAttention(32, 4)",
                                "return self.attn(x, x, x, key_padding_mask=pad)", "x, pad",
                                "torch.randn(9, 3, 32), torch.arange(9)[None, :] >= torch.tensor([[9], [5], [2]])"),
    "transformer_block": problem(
        "self.norm1 = nn.LayerNorm(64)\n        self.attn = nn.MultiheadAttention(64, 4, batch_first=True)\n"
        "        self.norm2 = nn.LayerNorm(64)\n        self.ff = nn.Sequential(nn.Linear(64, 128), nn.GELU(), "
        "nn.Linear(128, 64))",
        "h = self.norm1(x)\n        x = x + self.attn(h, h, h, need_weights=False)[0]\n"
        "        return x + self.ff(self.norm2(x))", "x", "torch.randn(2, 19, 64)"),
    # nn.TransformerEncoderLayer: post-norm with relu, pre-norm with gelu and a key padding mask, a module activation
    "encoder_layer_post_norm": problem("self.layer = nn.TransformerEncoderLayer(32, 4, dim_feedforward=48, dropout=0.0)",
                                       "return self.layer(x)", "x", "torch.randn(13, 2, 32)"),
    "encoder_layer_pre_norm_gelu": problem(
        "self.layer = nn.TransformerEncoderLayer(40, 2, 72, 0.0, 'gelu', batch_first=True, norm_first=True)",
        "return self.layer(x, src_key_padding_mask=pad)", "x, pad",
        "torch.randn(3, 11, 40), torch.arange(11)[None, :] >= torch.tensor([[11], [6], [1]])"),
    "encoder_layer_module_activation": problem(
        "self.layer = nn.TransformerEncoderLayer(24, 3, 36, dropout=0.0, activation=nn.GELU(approximate='tanh'), "
        "layer_norm_eps=1e-6, bias=False)", "return self.layer(x, src_mask=m)", "x, m",
        "torch.randn(9, 2, 24), torch.ones(9, 9, dtype=torch.bool).triu(1)"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_multihead_attention(tmp_path, name):
    ref = tmp_path / f"{name}.py"
    ref.write_text(CASES[name])
    gen = tmp_path / f"{name}_triton.py"
    r = subprocess.run([str(TRITONIZE), "convert", str(ref), "-o", str(gen)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    result = run_protocol(ref, gen, trials=3, timeout=300)
    assert result["ok"], format_failure(result)


@pytest.mark.parametrize("init, forward, message", [
    ("nn.MultiheadAttention(30, 4)", "self.attn(x, x, x)", "embed_dim must be divisible by num_heads"),
    ("nn.MultiheadAttention(32, 4, kdim=16)", "self.attn(x, x, x)", "with kdim or vdim other than embed_dim"),
    ("nn.MultiheadAttention(32, 4, add_bias_kv=True)", "self.attn(x, x, x)", "with add_bias_kv=True"),
    ("nn.MultiheadAttention(32, 4, dropout=0.1)", "self.attn(x, x, x)", "with dropout > 0 in training mode"),
    ("nn.MultiheadAttention(32, 4)", "self.attn(x[0], x[0], x[0])", "must be batched 3-D tensors"),
    ("nn.MultiheadAttention(32, 4)", "self.attn(x, x, x, is_causal=True)", "with is_causal=True"),
    ("nn.TransformerEncoderLayer(32, 4)", "self.attn(x)", "with dropout > 0 in training mode"),
    ("nn.TransformerEncoderLayer(32, 4, activation='tanh')", "self.attn(x)", "activation should be relu/gelu"),
])
def test_refused(tmp_path, init, forward, message):
    stderr = convert_error(tmp_path, problem(f"self.attn = {init}", f"return {forward}", "x", "torch.randn(5, 2, 32)"))
    assert message in stderr and "bad.py:" in stderr, stderr
