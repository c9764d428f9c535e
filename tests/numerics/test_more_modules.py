"""The padding modules (Zero/Constant/Reflection/Replication/CircularPad 1-3d), pixel_shuffle / pixel_unshuffle and
channel_shuffle (functions and modules), nn.Unflatten, F.prelu and nn.PReLU, nn.Softmax2d, the dropout variants at
p = 0, hardshrink / softshrink / tanhshrink, torch.xlogy, torch.aminmax and torch.movedim, converted and run by
Triton's interpreter against eager PyTorch (the NaN-aware runner of test_reduction_functions: NaN inputs where the
function defines its result, -0.0 and values at the thresholds), and what is refused."""

import pytest

from .paths import convert_error
from .test_reduction_functions import check_modules, problem_source

NAN_ROW = "torch.tensor([[float('nan'), 0.5, -0.5, 0.25, -0.25, 0.0, -0.0, 3.0]])"

# (name, __init__ body, forward body, parameter names, inputs expression (a tuple), tolerance)
CASES = [
    ("pads_1d", "self.a = nn.ZeroPad1d(2)\n        self.b = nn.ConstantPad1d((1, 3), -1.5)\n"
     "        self.c = nn.ReflectionPad1d((2, 1))\n        self.d = nn.ReplicationPad1d(3)\n"
     "        self.e = nn.CircularPad1d((1, 2))",
     "return self.a(x), self.b(x), self.c(x), self.d(x), self.e(x)", "x", "(torch.randn(2, 3, 7),)", 1e-4),
    ("pads_2d_3d", "self.a = nn.ZeroPad2d((1, 0, 2, 1))\n        self.b = nn.ReflectionPad2d(1)\n"
     "        self.c = nn.ReplicationPad3d((1, 1, 0, 2, 1, 0))\n        self.d = nn.ConstantPad3d(1, 0.5)\n"
     "        self.e = nn.CircularPad2d(1)",
     "return self.a(x[0]), self.b(x[0]), self.c(x), self.d(x), self.e(x[0])", "x", "(torch.randn(2, 3, 5, 6, 7),)",
     1e-4),
    ("shuffles", "self.up = nn.PixelShuffle(2)\n        self.down = nn.PixelUnshuffle(3)\n"
     "        self.ch = nn.ChannelShuffle(3)",
     "return self.up(x), F.pixel_shuffle(x, 1), self.down(x[:, :, :6, :9]), F.pixel_unshuffle(x, 1), self.ch(x[:, :6]), "
     "F.channel_shuffle(x[:, :, 0], 4), torch.pixel_shuffle(x.transpose(2, 3), 2)", "x",
     "(torch.randn(2, 8, 7, 10),)", 1e-4),
    ("unflatten_softmax2d_dropouts", "self.u = nn.Unflatten(1, (3, 5))\n        self.s = nn.Softmax2d()\n"
     "        self.d = nn.Dropout2d(0.0)\n        self.a = nn.AlphaDropout(p=0.0)",
     "return self.u(x.flatten(1, 2)), self.s(x), self.s(x[0]), self.d(x), self.a(x)", "x",
     "(torch.randn(2, 3, 5, 7),)", 1e-4),
    ("prelu", "self.one = nn.PReLU()\n        self.per_channel = nn.PReLU(4, init=0.1)",
     "return self.one(x), self.per_channel(x), F.prelu(x, w), torch.prelu(x[0, 0], w[:1])", "x, w",
     "(torch.randn(3, 4, 9), torch.rand(4))", 1e-4),
    ("shrinks", "self.h = nn.Hardshrink(0.25)\n        self.s = nn.Softshrink()\n        self.t = nn.Tanhshrink()",
     "return self.h(x), self.s(x), self.t(x), F.hardshrink(x), F.softshrink(x, 0.25), F.tanhshrink(x)", "x",
     f"(torch.cat([torch.randn(5, 8), {NAN_ROW}]),)", 1e-4),
    ("shrinks_bf16", "pass", "return F.hardshrink(x), F.softshrink(x, 0.25), F.tanhshrink(x)", "x",
     f"(torch.cat([torch.randn(5, 8), {NAN_ROW}]).bfloat16(),)", 1e-2),
    ("xlogy", "pass",
     "return torch.xlogy(x, y), torch.xlogy(x, 2.5), torch.xlogy(3, y), x.xlogy(y.abs()), torch.xlogy(i, y)", "x, y, i",
     f"(torch.cat([torch.randn(4, 8), torch.zeros(1, 8), {NAN_ROW}]), "
     f"torch.cat([torch.rand(4, 8), torch.zeros(1, 8), torch.rand(1, 8)]), torch.randint(0, 3, (6, 8)))", 1e-4),
    ("aminmax_movedim", "pass",
     "return torch.aminmax(x)[0], torch.aminmax(x, dim=1).max, x.aminmax(dim=-1, keepdim=True)[0], "
     "torch.movedim(x, 0, 2), torch.moveaxis(x, (0, 1), (-1, 0)), x.movedim(-1, 0) * 2", "x",
     "(torch.randn(3, 5, 7),)", 1e-4),
]


def test_more_modules(tmp_path):
    check_modules(tmp_path, CASES)


@pytest.mark.parametrize("init, forward, message", [
    ("self.m = nn.ZeroPad2d((1, 2, 3))", "self.m(x)", "padding must be an int or a tuple of 4 ints"),
    ("self.m = nn.PixelShuffle(3)", "self.m(x)", "is not divisible by 9"),
    ("self.m = nn.PReLU(3)", "self.m(x)", "Mismatch of parameter numbers and input channel size"),
    ("self.m = nn.Dropout2d(0.2)", "self.m(x)", "in training mode is random"),
    ("pass", "F.hardshrink(x.half(), 0.3)", "which that type does not hold exactly"),
    ("pass", "F.softshrink(x, -1.0)", "lambda must be greater or equal to 0"),
    ("pass", "torch.movedim(x, (0, 1), 2)", "movedim: Invalid source or destination dims"),
])
def test_refused(tmp_path, init, forward, message):
    stderr = convert_error(tmp_path, problem_source(init, f"return {forward}", "x", "(torch.randn(2, 4, 6, 6),)"))
    assert message in stderr and "bad.py:" in stderr, stderr
