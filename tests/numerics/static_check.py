"""Static check of a generated file: every FLOP of ModelNew.forward must run in Triton.

    from static_check import check_source
    problems = check_source(text)          # [] when the file is clean, else "LINE: message" strings

    python tests/numerics/static_check.py FILE...   # prints the problems, exit 1 if any

Rules (KernelBench's strict checker, plus what DESIGN.md's output contract says):
- the file has at least one `@triton.jit` kernel and a `class ModelNew`;
- nowhere in the file: `try`/`except`, `pass`, `torch.nn.functional` / `F.*`, and `nn.<Layer>(...)` other than
  the containers that only hold parameters (`nn.Module`, `nn.Parameter`, `nn.ModuleList`, ...) and `nn.init.*`;
- in `ModelNew.forward` and every function it calls (its own methods, module-level launchers, transitively;
  `@triton.jit` kernels excluded):
  - `torch.X(...)` only for allocation (`torch.empty`, `torch.empty_like`, `torch.empty_strided`) and for
    functions that compute nothing (`torch.device`, `torch.cuda.*`, `torch.backends.*`, dtype queries, ...);
  - tensor methods only for free views and metadata (`.view`, `.permute`, `.transpose`, `.t`, `.unsqueeze`,
    `.squeeze`, `.expand`, `.as_strided`, `.stride`, `.size`, `.dim`, `.numel`, `.is_contiguous`,
    `.data_ptr`, `.element_size`, ...): no `.to`, `.contiguous`, `.reshape`, `.clone`, `.float`, `.sum`, ...;
  - no arithmetic, comparison, or in-place update on a value known to be a tensor (a parameter of the
    function that is used like a tensor, a new allocation, a view of a tensor, a launcher's result), and no
    assignment into a subscript (`y[...] = v` is a fill).
Calls through subscripts (`kernel[grid](...)`) are launches and are allowed.
"""

import ast
import sys

ALLOWED_TORCH_CALLS = {
    "empty", "empty_like", "empty_strided",
    # compute nothing: devices, dtypes, flags
    "device", "Size", "finfo", "iinfo", "is_tensor", "is_floating_point", "get_default_dtype", "promote_types",
    "get_float32_matmul_precision", "is_grad_enabled", "is_inference_mode_enabled",
}
ALLOWED_TORCH_SUBMODULES = {"cuda", "backends", "library", "_C"}  # torch.cuda.device(...), flags, wrap_triton

ALLOWED_TENSOR_METHODS = {
    # free views
    "view", "view_as", "permute", "transpose", "t", "unsqueeze", "squeeze", "expand", "expand_as", "as_strided",
    "narrow", "select", "movedim", "diagonal", "unbind",
    # metadata
    "stride", "size", "dim", "ndimension", "numel", "nelement", "is_contiguous", "data_ptr", "element_size",
    "storage_offset", "is_floating_point", "is_complex", "get_device", "untyped_storage",
    # allocation
    "new_empty", "new_empty_strided",
}
# Tensor method names that are also methods of Python's list/dict/str: flagged only on known tensors.
AMBIGUOUS_METHODS = {"index", "sort", "split", "values", "count", "copy", "pop", "append", "keys", "items",
                     "get", "join", "format", "update", "reverse", "insert", "extend", "remove", "clear"}
# Attribute reads that show a name holds a tensor.
TENSOR_EVIDENCE_ATTRS = {"shape", "dtype", "device", "stride", "size", "dim", "numel", "is_contiguous",
                         "data_ptr", "element_size", "is_cuda", "ndim", "T", "mT"}
ALLOWED_NN_CALLS = {"Module", "Parameter", "Buffer", "ModuleList", "ModuleDict", "ParameterList",
                    "ParameterDict", "Sequential"}
BUILTINS_THAT_COMPUTE = {"abs", "sum", "pow", "round", "float", "int", "bool", "divmod", "max", "min"}

_FALLBACK_TENSOR_METHODS = {
    "to", "contiguous", "reshape", "clone", "float", "half", "bfloat16", "double", "int", "long", "bool",
    "cuda", "cpu", "type", "type_as", "item", "tolist", "numpy", "copy_", "fill_", "zero_", "add", "add_",
    "sub", "sub_", "mul", "mul_", "div", "div_", "matmul", "mm", "bmm", "sum", "mean", "max", "min", "amax",
    "amin", "argmax", "argmin", "softmax", "log_softmax", "exp", "log", "sqrt", "rsqrt", "relu", "sigmoid",
    "tanh", "abs", "neg", "pow", "clamp", "clamp_", "masked_fill", "masked_fill_", "where", "flatten",
    "repeat", "index_select", "gather", "scatter", "cumsum", "cumprod", "prod", "norm", "var", "std",
    "sort", "topk", "split", "chunk", "unflatten", "squeeze_", "unsqueeze_", "t_", "transpose_", "resize_",
}


def _tensor_methods():
    try:
        import torch  # noqa: PLC0415 (only for the list of method names)
    except ImportError:
        return _FALLBACK_TENSOR_METHODS
    return {n for n in dir(torch.Tensor) if not n.startswith("_")} | _FALLBACK_TENSOR_METHODS


TENSOR_METHODS = _tensor_methods()


def _dotted(node):
    """'torch.nn.functional.gelu' for that attribute chain, None if it is not a plain dotted name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _is_triton_jit(fn):
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = _dotted(target) or ""
        if name in ("triton.jit", "jit", "triton.autotune", "autotune", "triton.heuristics", "heuristics"):
            return True
    return False


class _Aliases:
    """How the file spells torch, torch.nn, torch.nn.functional and triton."""

    def __init__(self, tree):
        self.torch = {"torch"}
        self.nn = {"torch.nn"}
        self.functional = {"torch.nn.functional"}
        self.torch_from = set()  # names imported from torch itself: `from torch import matmul`
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    name = a.asname or a.name
                    if a.name == "torch":
                        self.torch.add(name)
                    elif a.name == "torch.nn":
                        self.nn.add(a.asname or "torch.nn")
                    elif a.name == "torch.nn.functional":
                        self.functional.add(a.asname or "torch.nn.functional")
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    full = f"{node.module}.{a.name}"
                    name = a.asname or a.name
                    if full == "torch.nn":
                        self.nn.add(name)
                    elif full == "torch.nn.functional":
                        self.functional.add(name)
                    elif node.module == "torch.nn.functional":
                        self.torch_from.add(name)  # `from torch.nn.functional import gelu`
                    elif node.module == "torch" and a.name not in ("nn", "Tensor", "dtype", "device", "Size"):
                        self.torch_from.add(name)
        self.functional.add("F")

    def classify(self, dotted):
        """('torch', rest) / ('nn', rest) / ('F', rest) / (None, None) for a dotted name."""
        if dotted is None:
            return None, None
        for prefix in sorted(self.functional, key=len, reverse=True):
            if dotted.startswith(prefix + "."):
                return "F", dotted[len(prefix) + 1:]
        for prefix in sorted(self.nn, key=len, reverse=True):
            if dotted.startswith(prefix + "."):
                rest = dotted[len(prefix) + 1:]
                if rest.startswith("functional."):
                    return "F", rest[len("functional."):]
                return "nn", rest
        for prefix in self.torch:
            if dotted.startswith(prefix + "."):
                rest = dotted[len(prefix) + 1:]
                if rest.startswith("nn.functional."):
                    return "F", rest[len("nn.functional."):]
                if rest.startswith("nn."):
                    return "nn", rest[3:]
                return "torch", rest
        return None, None


class _FunctionChecker:
    """Checks one function body that must do no tensor compute."""

    def __init__(self, fn, aliases, where, tensor_params, problems, self_tensors=()):
        self.fn = fn
        self.self_tensors = set(self_tensors)  # "self.fc.weight": parameters and buffers of ModelNew
        self.aliases = aliases
        self.where = where
        self.problems = problems
        self.tensors = set(tensor_params)
        self.calls = []  # (callee name, [arg is tensor]) for module-level functions and self methods

    def report(self, node, msg):
        self.problems.append(f"{node.lineno}: {msg} (in {self.where})")

    # ------------------------------------------------------------------ which names hold tensors
    def infer_tensors(self, module_functions):
        self.module_functions = module_functions
        changed = True
        while changed:
            changed = False
            for node in ast.walk(self.fn):
                if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                    if self.is_tensor(node.value, module_functions):
                        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                        for t in targets:
                            for n in ast.walk(t):
                                if isinstance(n, ast.Name) and n.id not in self.tensors:
                                    self.tensors.add(n.id)
                                    changed = True

    def is_tensor(self, e, module_functions=None):
        if module_functions is None:
            module_functions = getattr(self, "module_functions", ())
        if isinstance(e, ast.Name):
            return e.id in self.tensors
        if isinstance(e, ast.Attribute) and (_dotted(e) or "") in self.self_tensors:
            return True
        if isinstance(e, ast.Subscript):
            return self.is_tensor(e.value, module_functions)
        if isinstance(e, ast.Call):
            kind, rest = self.aliases.classify(_dotted(e.func))
            if kind == "torch" and rest in ("empty", "empty_like", "empty_strided"):
                return True
            if isinstance(e.func, ast.Attribute) and e.func.attr in ALLOWED_TENSOR_METHODS - {
                    "stride", "size", "dim", "ndimension", "numel", "nelement", "is_contiguous", "data_ptr",
                    "element_size", "storage_offset", "is_floating_point", "is_complex", "get_device"}:
                return self.is_tensor(e.func.value, module_functions)
            if isinstance(e.func, ast.Name) and e.func.id in module_functions:
                return True  # a launcher's result
        return False

    # ------------------------------------------------------------------ the rules
    def check(self, module_functions, methods):
        for node in ast.walk(self.fn):
            if isinstance(node, ast.Call):
                self.check_call(node, module_functions, methods)
            elif isinstance(node, ast.BinOp):
                if self.is_tensor(node.left) or self.is_tensor(node.right):
                    self.report(node, f"arithmetic '{type(node.op).__name__}' on a tensor outside Triton")
            elif isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not):
                if self.is_tensor(node.operand):
                    self.report(node, f"'{type(node.op).__name__}' on a tensor outside Triton")
            elif isinstance(node, ast.Compare):
                operands = [node.left] + node.comparators
                if any(not isinstance(op, (ast.Is, ast.IsNot, ast.In, ast.NotIn)) for op in node.ops) and \
                        any(self.is_tensor(o) for o in operands):
                    self.report(node, "comparison of tensors outside Triton")
            elif isinstance(node, ast.AugAssign):
                if self.is_tensor(node.target) or self.is_tensor(node.value):
                    self.report(node, "in-place arithmetic on a tensor outside Triton")
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:
                    for n in ast.walk(t):
                        if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Store):
                            self.report(n, "assignment into a subscript (a fill or copy) outside Triton")

    def check_call(self, node, module_functions, methods):
        dotted = _dotted(node.func)
        kind, rest = self.aliases.classify(dotted)
        if kind == "F":
            self.report(node, f"torch.nn.functional call '{dotted}'")
            return
        if kind == "nn":
            self.report(node, f"torch.nn use '{dotted}' in forward")
            return
        if kind == "torch":
            head = rest.split(".")[0]
            if rest not in ALLOWED_TORCH_CALLS and head not in ALLOWED_TORCH_SUBMODULES:
                self.report(node, f"torch call '{dotted}' (only torch.empty* allocations may run outside Triton)")
            return
        if isinstance(node.func, ast.Name):
            name = node.func.id
            if name in self.aliases.torch_from:
                self.report(node, f"torch function '{name}' imported from torch")
            elif name in BUILTINS_THAT_COMPUTE and any(self.is_tensor(a) for a in node.args):
                self.report(node, f"builtin '{name}' applied to a tensor outside Triton")
            elif name in module_functions:
                self.calls.append((name, [self.is_tensor(a) for a in node.args]))
            return
        if isinstance(node.func, ast.Attribute):
            attr = node.func.attr
            recv = node.func.value
            if isinstance(recv, ast.Name) and recv.id == "self" and attr in methods:
                self.calls.append((f"self.{attr}", [self.is_tensor(a) for a in node.args]))
                return
            if attr == "to":
                self.report(node, "'.to(...)' (a copy/cast) outside Triton")
                return
            if attr in TENSOR_METHODS and attr not in ALLOWED_TENSOR_METHODS:
                if attr in AMBIGUOUS_METHODS and not self.is_tensor(recv):
                    return
                # module-level objects that are not tensors: triton.cdiv, math.sqrt, kernel.run...
                base = _dotted(recv)
                if base is not None and base.split(".")[0] in ("triton", "tl", "math", "os", "sys", "warnings"):
                    return
                self.report(node, f"tensor method '.{attr}(...)' outside Triton")


def _parameters_and_buffers(init, aliases):
    """{"self.fc.weight", ...}: what ModelNew.__init__ makes nn.Parameter or registers as a buffer."""
    out = set()
    if init is None:
        return out
    for node in ast.walk(init):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            kind, rest = aliases.classify(_dotted(node.value.func))
            if kind == "nn" and rest in ("Parameter", "Buffer"):
                out.update(d for d in (_dotted(t) for t in node.targets) if d and d.startswith("self."))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("register_buffer", "register_parameter") and node.args \
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            owner = _dotted(node.func.value)
            if owner and owner.startswith("self"):
                out.add(f"{owner}.{node.args[0].value}")
    return out


def _params(fn, is_method):
    names = [a.arg for a in fn.args.args]
    return names[1:] if is_method else names


def _tensor_evidence(module_functions, methods):
    """{function: parameters used like a tensor}: `.shape`, `.stride(...)`, ... on them, in the function or
    in a function they are passed to (to a fixpoint)."""
    funcs = {n: (f, False) for n, f in module_functions.items()}
    funcs.update({f"self.{n}": (f, True) for n, f in methods.items()})
    evidence = {}
    for name, (fn, is_method) in funcs.items():
        params = set(_params(fn, is_method))
        evidence[name] = {n.value.id for n in ast.walk(fn)
                          if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
                          and n.value.id in params and n.attr in TENSOR_EVIDENCE_ATTRS}
    changed = True
    while changed:
        changed = False
        for name, (fn, is_method) in funcs.items():
            params = set(_params(fn, is_method))
            for call in ast.walk(fn):
                if not isinstance(call, ast.Call):
                    continue
                if isinstance(call.func, ast.Name) and call.func.id in module_functions:
                    callee = call.func.id
                elif (isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
                      and call.func.value.id == "self" and call.func.attr in methods):
                    callee = f"self.{call.func.attr}"
                else:
                    continue
                callee_params = _params(*funcs[callee])
                pairs = list(zip(callee_params, call.args))
                pairs += [(k.arg, k.value) for k in call.keywords if k.arg]
                for p, a in pairs:
                    if p in evidence[callee] and isinstance(a, ast.Name) and a.id in params \
                            and a.id not in evidence[name]:
                        evidence[name].add(a.id)
                        changed = True
    return evidence


def check_source(text, filename="<generated>"):
    """Returns a list of 'LINE: problem' strings; empty when the file obeys the rules."""
    try:
        tree = ast.parse(text, filename=filename)
    except SyntaxError as e:
        return [f"{e.lineno}: syntax error: {e.msg}"]
    problems = []
    aliases = _Aliases(tree)

    jit_kernels = [n for n in tree.body if isinstance(n, ast.FunctionDef) and _is_triton_jit(n)]
    if not jit_kernels:
        problems.append("1: no @triton.jit kernel in the file")

    for node in ast.walk(tree):
        if isinstance(node, (ast.Try, getattr(ast, "TryStar", ast.Try))):
            problems.append(f"{node.lineno}: try/except")
        elif isinstance(node, ast.Pass):
            problems.append(f"{node.lineno}: 'pass'")
        elif isinstance(node, ast.Call):
            kind, rest = aliases.classify(_dotted(node.func))
            if kind == "F":
                problems.append(f"{node.lineno}: torch.nn.functional call '{_dotted(node.func)}'")
            elif kind == "nn" and rest.split(".")[0] != "init" and rest not in ALLOWED_NN_CALLS:
                problems.append(f"{node.lineno}: torch.nn layer '{_dotted(node.func)}' (only nn.Module, "
                                "nn.Parameter, containers and nn.init may be used)")

    module_functions = {n.name: n for n in tree.body
                        if isinstance(n, ast.FunctionDef) and not _is_triton_jit(n)}
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ModelNew"]
    if not classes:
        problems.append("1: no class ModelNew")
        return problems
    cls = classes[0]
    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    if "forward" not in methods:
        problems.append(f"{cls.lineno}: ModelNew has no forward")
        return problems

    evidence = _tensor_evidence(module_functions, methods)
    self_tensors = _parameters_and_buffers(methods.get("__init__"), aliases)

    # Walk forward and everything it calls. A function's tensor parameters are those used like a tensor (in it
    # or in a function it passes them to) and those that receive a tensor at some call site, so a checked
    # function is checked again when that set grows.
    seen = {}
    work = [("self.forward", None)]
    while work:
        name, tensor_args = work.pop()
        fn = methods[name[5:]] if name.startswith("self.") else module_functions[name]
        params = [a.arg for a in fn.args.args]
        if name.startswith("self."):
            params = params[1:]
        tensor_params = set(seen.get(name, set())) | evidence[name]
        if name == "self.forward":
            tensor_params |= set(params)  # forward's inputs: get_inputs() gives tensors
        if tensor_args:
            tensor_params |= {p for p, t in zip(params, tensor_args) if t}
        if name in seen and tensor_params == seen[name]:
            continue
        seen[name] = tensor_params
        local = []
        checker = _FunctionChecker(fn, aliases, name.replace("self.", "ModelNew."), tensor_params, local,
                                   self_tensors if name.startswith("self.") else ())
        checker.infer_tensors(module_functions)
        checker.check(module_functions, methods)
        for p in local:
            if p not in problems:
                problems.append(p)
        work.extend(checker.calls)
    return sorted(set(problems), key=lambda p: (int(p.split(":")[0]), p))


def main(argv):
    status = 0
    for path in argv:
        with open(path) as f:
            problems = check_source(f.read(), path)
        for p in problems:
            print(f"{path}:{p}")
        status |= bool(problems)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
