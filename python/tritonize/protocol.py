"""Correctness, KernelBench's protocol, with the holes closed.

As KernelBench does: one seed before get_init_inputs() and again before constructing Model and ModelNew (so both
draw the same weights); 5 trials, each with fresh get_inputs() under its own seed (the seeds drawn from the first
one); torch.allclose with atol = rtol = 1e-4 for fp32 and 1e-2 for fp16/bf16; models and floating inputs cast with
.to(dtype). In addition:
- each model gets its own copy of the inputs, and an input that ModelNew changes (and Model does not) is reported;
- before ModelNew runs, every free block of the CUDA caching allocator is filled with 0xFF bytes (a NaN in every
  float format, a pattern arithmetic never produces), so an output element the kernels never wrote is seen as such;
- an output that shares storage with an input (when the reference's does not) is reported;
- the older verdict (atol = rtol = 1e-2) and the max / mean absolute difference are reported too.
"""
from __future__ import annotations

import time

import torch

TOLERANCES = {"fp32": 1e-4, "fp16": 1e-2, "bf16": 1e-2}
OLD_TOLERANCE = 1e-2
TORCH_DTYPES = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
POISON_BYTE = 0xFF

# Exception text that means the CUDA context is gone because a kernel touched memory it must not.
_ILLEGAL_ACCESS_MARKERS = ("illegal memory access", "illegal address", "misaligned address",
                           "unspecified launch failure", "an illegal instruction")


def set_seed(seed: int) -> None:
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed(seed)


def trial_seeds(seed: int, trials: int) -> list[int]:
    """KernelBench's per-trial seeds: drawn from torch's generator after seeding it with the run's seed."""
    torch.manual_seed(seed)
    return [int(torch.randint(0, 2**32 - 1, (1,)).item()) for _ in range(trials)]


def prepare(values, device: torch.device, dtype: torch.dtype):
    """Move tensors to the device; cast floating ones to dtype; leave everything else alone."""
    if isinstance(values, torch.Tensor):
        values = values.to(device)
        return values.to(dtype) if values.is_floating_point() else values
    if isinstance(values, (list, tuple)):
        return type(values)(prepare(v, device, dtype) for v in values)
    return values


def clone_values(values):
    if isinstance(values, torch.Tensor):
        return values.clone()
    if isinstance(values, (list, tuple)):
        return type(values)(clone_values(v) for v in values)
    return values


def flatten(values) -> list:
    """Tensors (and scalars, as 0-d tensors) of a nested output, in order."""
    if isinstance(values, torch.Tensor):
        return [values]
    if isinstance(values, (list, tuple)):
        return [t for v in values for t in flatten(v)]
    if isinstance(values, (int, float, bool)):
        return [torch.tensor(values)]
    return [values]


def classify_exception(e: BaseException) -> str:
    text = str(e).lower()
    if any(marker in text for marker in _ILLEGAL_ACCESS_MARKERS):
        return "illegal_memory_access"
    if "out of memory" in text:
        return "out_of_memory"
    return "runtime_error"


def synchronize(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def build_models(ref_module, gen_module, device: torch.device, dtype: torch.dtype, seed: int):
    """Model and ModelNew under the same seed, on the device, in the dtype (KernelBench's order of draws)."""
    set_seed(seed)
    init_inputs = prepare(list(ref_module.get_init_inputs()), device, dtype)
    with torch.no_grad():
        set_seed(seed)
        ref = ref_module.Model(*init_inputs)
        set_seed(seed)
        new = gen_module.ModelNew(*init_inputs)
    return ref.to(device=device, dtype=dtype), new.to(device=device, dtype=dtype)


def make_inputs(ref_module, seed: int, device: torch.device, dtype: torch.dtype) -> list:
    """Fresh inputs under `seed`, drawn on the device itself: a 1G-element torch.randn on the CPU takes seconds,
    and both models receive the very same tensors either way."""
    set_seed(seed)
    with torch.device(device):
        inputs = list(ref_module.get_inputs())
    return prepare(inputs, device, dtype)


# ---- the allocator's free memory ----------------------------------------------------------------------------


class _RawCudaBytes:
    """A view of raw device memory that torch.as_tensor accepts (the CUDA array interface)."""

    def __init__(self, address: int, size: int):
        self.__cuda_array_interface__ = {"shape": (size,), "typestr": "|u1", "data": (address, False),
                                         "version": 3, "strides": None}


def free_blocks(device: torch.device) -> list[tuple[int, int]]:
    """(address, size) of every free block that the caching allocator holds on the device."""
    index = device.index if device.index is not None else torch.cuda.current_device()
    blocks = []
    for segment in torch.cuda.memory_snapshot():
        if segment.get("device", index) != index:
            continue
        address = segment["address"]
        for block in segment["blocks"]:
            if block["state"] == "inactive":
                blocks.append((block.get("address", address), block["size"]))
            address += block["size"]
    return blocks


def poison_free_memory(device: torch.device, reserve_bytes: int) -> int:
    """Fill the allocator's free memory with POISON_BYTE; returns the bytes filled.

    First make sure there is free memory where ModelNew's allocations will land: a large block of at least
    reserve_bytes (the large pool) and a few small ones (the small pool) are allocated and released.
    """
    reserve = [torch.empty(reserve_bytes, dtype=torch.uint8, device=device)]
    reserve += [torch.empty(1 << 19, dtype=torch.uint8, device=device) for _ in range(8)]
    del reserve
    filled = 0
    for address, size in free_blocks(device):
        torch.as_tensor(_RawCudaBytes(address, size), device=device).fill_(POISON_BYTE)
        filled += size
    torch.cuda.synchronize(device)
    return filled


def poisoned_elements(t: torch.Tensor) -> int:
    """How many elements of a floating tensor still hold the poison pattern (all bytes 0xFF)."""
    if not t.is_floating_point() or t.element_size() not in (2, 4, 8) or t.numel() == 0:
        return 0
    as_int = {2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()]
    bits = t.detach().contiguous().view(as_int)
    return int((bits == -1).sum().item())


# ---- comparing outputs ----------------------------------------------------------------------------------------


def storages(values) -> set[int]:
    return {t.untyped_storage().data_ptr() for t in flatten(values)
            if isinstance(t, torch.Tensor) and t.untyped_storage().nbytes() > 0}


def aliased_inputs(outputs, inputs) -> set[int]:
    """Positions (in flatten order) of the inputs whose storage an output shares."""
    out = storages(outputs)
    return {i for i, t in enumerate(flatten(inputs)) if isinstance(t, torch.Tensor) and storages(t) & out}


def compare_output(ref: torch.Tensor, new, tol: float, count_unwritten: bool = True) -> dict:
    """One output tensor against the reference's: verdicts at tol and at 1e-2, and the differences."""
    result = {"ok": False, "ok_1e2": False, "max_abs_diff": None, "mean_abs_diff": None, "nonfinite": 0,
              "unwritten": 0, "problem": None}
    if not isinstance(new, torch.Tensor):
        result["problem"] = f"output is {type(new).__name__}, expected a tensor"
        return result
    if tuple(new.shape) != tuple(ref.shape):
        result["problem"] = f"shape {tuple(new.shape)}, expected {tuple(ref.shape)}"
        return result
    if new.device != ref.device:
        result["problem"] = f"device {new.device}, expected {ref.device}"
        return result
    if count_unwritten:
        result["unwritten"] = poisoned_elements(new)
    a, b = ref.detach().double(), new.detach().double()
    both_finite = torch.isfinite(a) & torch.isfinite(b)
    result["nonfinite"] = int((torch.isfinite(a) != torch.isfinite(b)).sum().item())
    if bool(both_finite.any()):
        diff = (a - b).abs()[both_finite]
        result["max_abs_diff"] = float(diff.max().item())
        result["mean_abs_diff"] = float(diff.mean().item())
    elif ref.numel() == 0:
        result["max_abs_diff"] = result["mean_abs_diff"] = 0.0
    if new.dtype != ref.dtype:
        result["problem"] = f"dtype {new.dtype}, expected {ref.dtype}"
        return result
    if not ref.is_floating_point():
        ref, new = a, b  # allclose has no integer or bool kernels everywhere; doubles hold them exactly
    result["ok"] = bool(torch.allclose(ref, new, atol=tol, rtol=tol))
    result["ok_1e2"] = bool(torch.allclose(ref, new, atol=OLD_TOLERANCE, rtol=OLD_TOLERANCE))
    return result


def _values_equal(a, b) -> bool:
    fa, fb = flatten(a), flatten(b)
    return len(fa) == len(fb) and all(
        not isinstance(x, torch.Tensor) or torch.equal(x, y) or bool(torch.isnan(x).any()) for x, y in zip(fa, fb))


# ---- the protocol -------------------------------------------------------------------------------------------


def run_trial(ref_model, new_model, ref_module, seed: int, device: torch.device, dtype: torch.dtype,
              tol: float, poison: bool) -> dict:
    """One trial: fresh inputs under the trial's seed, reference, poisoned memory, ModelNew, comparison."""
    inputs = make_inputs(ref_module, seed, device, dtype)
    new_inputs = clone_values(inputs)
    pristine = clone_values(inputs)
    set_seed(seed)
    ref_out = ref_model(*inputs)
    synchronize(device)
    ref_aliases = aliased_inputs(ref_out, inputs)
    ref_changed_inputs = not _values_equal(inputs, pristine)

    poisoned = 0
    if poison:
        reserve = 2 * sum(t.numel() * t.element_size() for t in flatten(ref_out) if isinstance(t, torch.Tensor))
        poisoned = poison_free_memory(device, reserve + (64 << 20))
    set_seed(seed)
    new_out = new_model(*new_inputs)
    synchronize(device)

    trial = {"seed": seed, "ok": True, "ok_1e2": True, "max_abs_diff": 0.0, "mean_abs_diff": 0.0,
             "unwritten": 0, "nonfinite": 0, "aliased_output": False, "input_modified": False,
             "problem": None, "poisoned_bytes": poisoned}
    refs, news = flatten(ref_out), flatten(new_out)
    if len(refs) != len(news):
        trial.update(ok=False, ok_1e2=False, max_abs_diff=None, mean_abs_diff=None,
                     problem=f"{len(news)} outputs, expected {len(refs)}")
        return trial
    means = []
    for ref_t, new_t in zip(refs, news):
        if not isinstance(ref_t, torch.Tensor):
            continue
        out = compare_output(ref_t, new_t, tol, count_unwritten=poison)
        trial["ok"] &= out["ok"]
        trial["ok_1e2"] &= out["ok_1e2"]
        trial["unwritten"] += out["unwritten"]
        trial["nonfinite"] += out["nonfinite"]
        trial["problem"] = trial["problem"] or out["problem"]
        if out["max_abs_diff"] is None:
            trial["max_abs_diff"] = None
        elif trial["max_abs_diff"] is not None:
            trial["max_abs_diff"] = max(trial["max_abs_diff"], out["max_abs_diff"])
        if out["mean_abs_diff"] is not None:
            means.append(out["mean_abs_diff"])
    trial["mean_abs_diff"] = sum(means) / len(means) if means else None
    trial["aliased_output"] = bool(aliased_inputs(new_out, new_inputs) - ref_aliases)
    trial["input_modified"] = not ref_changed_inputs and not _values_equal(new_inputs, pristine)
    if trial["aliased_output"] or trial["input_modified"]:
        trial["ok"] = False
    return trial


def check_correctness(ref_model, new_model, ref_module, device: torch.device, dtype_name: str, seed: int = 42,
                      trials: int = 5, log=lambda message: None) -> dict:
    """Run the protocol on models made by build_models; returns the record's "correctness" section.

    Exceptions from running the models propagate: the worker classifies them.
    """
    dtype = TORCH_DTYPES[dtype_name]
    tol = TOLERANCES[dtype_name]
    poison = device.type == "cuda"
    seeds = trial_seeds(seed, trials)

    with torch.no_grad():
        # A first call compiles the kernels and leaves the allocator holding the blocks ModelNew uses,
        # so that the poisoned free memory is where its outputs will be allocated.
        warm_inputs = make_inputs(ref_module, seeds[0], device, dtype)
        start = time.perf_counter()
        new_model(*warm_inputs)
        synchronize(device)
        first_call = time.perf_counter() - start
        del warm_inputs
        results = []
        for i, s in enumerate(seeds):
            results.append(run_trial(ref_model, new_model, ref_module, s, device, dtype, tol, poison))
            log(f"trial {i + 1}/{trials}: {'ok' if results[-1]['ok'] else 'FAIL'}"
                f" max_abs_diff={results[-1]['max_abs_diff']}")

    maxima = [t["max_abs_diff"] for t in results]
    means = [t["mean_abs_diff"] for t in results if t["mean_abs_diff"] is not None]
    section = {
        "ok": all(t["ok"] for t in results),
        "trials": trials,
        "trials_passed": sum(t["ok"] for t in results),
        "atol": tol,
        "rtol": tol,
        "max_abs_diff": None if any(m is None for m in maxima) else max(maxima),
        "mean_abs_diff": sum(means) / len(means) if means else None,
        "passes_1e2": all(t["ok_1e2"] and not t["aliased_output"] and not t["input_modified"] for t in results),
        "poisoned": poison,
        "unwritten_elements": sum(t["unwritten"] for t in results),
        "aliased_output": any(t["aliased_output"] for t in results),
        "input_modified": any(t["input_modified"] for t in results),
        "first_call_seconds": first_call,
        "per_trial": results,
    }
    return section
