"""Pieces of the correctness protocol, the timing loop and the floor, in process on the CPU."""
import pytest
import torch

import harness_paths  # noqa: F401  (puts python/ on sys.path)
from tritonize import floor, protocol, timing


def test_trial_seeds_are_kernelbench_s():
    torch.manual_seed(42)
    expected = [torch.randint(0, 2**32 - 1, (1,)).item() for _ in range(5)]
    assert protocol.trial_seeds(42, 5) == expected
    assert len(set(expected)) == 5


def test_prepare_casts_only_floating_tensors():
    values = protocol.prepare([torch.ones(2), torch.arange(3), 7, [torch.zeros(1)]], torch.device("cpu"),
                              torch.float16)
    assert values[0].dtype == torch.float16 and values[1].dtype == torch.int64 and values[2] == 7
    assert values[3][0].dtype == torch.float16


def test_compare_output():
    ref = torch.tensor([1.0, 2.0, 3.0])
    ok = protocol.compare_output(ref, ref + 1e-6, 1e-4)
    assert ok["ok"] and ok["ok_1e2"] and ok["max_abs_diff"] == pytest.approx(1e-6, rel=0.1)
    loose = protocol.compare_output(ref, ref + 5e-3, 1e-4)
    assert not loose["ok"] and loose["ok_1e2"]
    assert protocol.compare_output(ref, ref[:2], 1e-4)["problem"].startswith("shape")
    assert protocol.compare_output(ref, ref.double(), 1e-4)["problem"].startswith("dtype")
    assert protocol.compare_output(ref, 3.0, 1e-4)["problem"].startswith("output is")
    nan = protocol.compare_output(ref, torch.tensor([1.0, float("nan"), 3.0]), 1e-4)
    assert not nan["ok"] and nan["nonfinite"] == 1 and nan["max_abs_diff"] == 0.0
    ints = protocol.compare_output(torch.tensor([1, 2]), torch.tensor([1, 2]), 1e-4)
    assert ints["ok"]


def test_poison_pattern_is_counted():
    for dtype in (torch.float32, torch.float16, torch.bfloat16):
        t = torch.zeros(10, dtype=dtype)
        bits = t.view({2: torch.int16, 4: torch.int32}[t.element_size()])
        bits[3:7] = -1  # all bytes 0xFF, as poison_free_memory writes them
        assert protocol.poisoned_elements(t) == 4
        assert torch.isnan(t[3:7]).all()
    assert protocol.poisoned_elements(torch.full((4,), -1, dtype=torch.int32)) == 0  # integers can be -1


class InPlaceRelu(torch.nn.Module):
    def forward(self, x):
        return x.relu_()


class Relu(torch.nn.Module):
    def forward(self, x):
        return torch.relu(x)


class Identity(torch.nn.Module):
    def forward(self, x):
        return x


class Inputs:
    @staticmethod
    def get_inputs():
        return [torch.randn(8, 8)]


def trial(ref, new):
    return protocol.run_trial(ref, new, Inputs, 123, torch.device("cpu"), torch.float32, 1e-4, poison=False)


def test_trial_catches_aliasing_and_modified_inputs():
    assert trial(Relu(), Relu())["ok"]
    bad = trial(Relu(), InPlaceRelu())
    assert not bad["ok"] and bad["aliased_output"] and bad["input_modified"]
    # a reference that returns its input may be matched by one that does too
    assert trial(Identity(), Identity())["ok"]


def test_reasons_from_a_trial():
    from tritonize.schema import correctness_reasons

    section = {"per_trial": [trial(Relu(), InPlaceRelu())], "unwritten_elements": 0, "aliased_output": True,
               "input_modified": True, "ok": False}
    assert correctness_reasons(section) == ["aliased_output", "input_modified"]


def test_classify_exception():
    assert protocol.classify_exception(RuntimeError("CUDA error: an illegal memory access was encountered")) \
        == "illegal_memory_access"
    assert protocol.classify_exception(RuntimeError("CUDA out of memory. Tried to allocate")) == "out_of_memory"
    assert protocol.classify_exception(ValueError("bad shape")) == "runtime_error"


def test_timing_on_cpu():
    model = Relu()
    section = timing.time_models(model, model, None, [torch.randn(16)], torch.device("cpu"), trials=4, warmup=1,
                                 repeats=2)
    assert section["clock"] == "wall" and section["ours"]["n"] == 8 and section["eager"]["n"] == 8
    assert len(section["ours_repeat_medians_ms"]) == 2
    assert section["compile"] is None and section["speedup_compile"] is None
    assert section["speedup_eager"] > 0 and not section["unsynchronized"]


def test_unsynchronized_rule():
    assert timing.unsynchronized(0.02, 0.5)        # side-stream work: 20 us of events, 500 us of wall
    assert not timing.unsynchronized(0.010, 0.025)  # a tiny honest kernel: the gap is sync latency
    assert not timing.unsynchronized(1.0, 1.03)     # a large honest kernel
    # a busy CPU stretches every wall time alike: eager's gap (0.13 ms here) is the baseline
    assert not timing.unsynchronized(0.02, 0.15, 0.03, 0.16)
    assert timing.unsynchronized(0.02, 0.65, 0.5, 0.63)  # side-stream work on a busy machine is still caught


def test_interleaving_rotates_order():
    order = []
    contenders = {name: (lambda name=name: order.append(name)) for name in ("a", "b", "c")}
    timing.time_interleaved(timing.Timer(torch.device("cpu")), contenders, trials=3, warmup=0)
    assert order == ["a", "b", "c", "b", "c", "a", "c", "a", "b"]


def test_floor_worked_example():
    calibration = {"measured": True, "bandwidth": 4e12, "peak_flops": {"tf32": 400e12, "fp16": 800e12,
                                                                       "bf16": 800e12}, "l2_bytes": 50_000_000}
    # memory-bound: 4e9 bytes at 4e12 B/s = 1 ms; 100 GFLOP at 400 TFLOP/s = 0.25 ms
    s = floor.floor_section(2_000_000_000, 2_000_000_000, 100_000_000_000, "fp32", calibration, 2.0)
    assert s["bound"] == "memory" and s["floor_ms"] == pytest.approx(1.0) and s["achieved_fraction"] == pytest.approx(0.5)
    assert s["strict_floor_ms"] == pytest.approx((4e9 - 5e7) / 4e12 * 1e3)
    assert not s["suspect"]
    # compute-bound in fp16: 1.6 TFLOP at 800 TFLOP/s = 2 ms; a 1 ms result is impossible
    s = floor.floor_section(1_000_000, 1_000_000, 1_600_000_000_000, "fp16", calibration, 1.0)
    assert s["bound"] == "compute" and s["floor_ms"] == pytest.approx(2.0) and s["suspect"]


def test_flops_and_bytes():
    model = torch.nn.Linear(8, 4)
    x = torch.randn(3, 8)
    assert floor.count_flops(model, [x]) == 2 * 3 * 8 * 4
    assert floor.tensor_bytes([x, 5, (x, x[0])]) == 3 * 8 * 4 * 2 + 8 * 4
    assert floor.tensor_bytes([x.view(-1)], frozenset({x.untyped_storage().data_ptr()})) == 0
