"""Static check of a generated file: does ModelNew really run its compute in Triton?

Two checks live here:
- `check_source` (authoritative): an AST analysis. File-wide it rejects the known bypasses (try/except, pass,
  streams, threads, CUDA graphs, torch.compile, exec/eval, torch.nn compute layers, F.*); then it follows the
  code that ModelNew.forward runs (its methods, the module-level launchers it calls, submodules defined in the
  file) and rejects any torch compute there: torch.* calls other than allocation, tensor methods other than free
  views and queries, arithmetic on tensors, and state kept across calls (a cached result).
- `kernelbench_check` (informational): the textual rules of KernelBench's strict static checker, so that the
  compiler's output can be kept acceptable to it too.

What "tensor" means here is inferred, not known: forward's arguments, the module's parameters and buffers,
allocations and views of them, and what launchers return. docs/HARNESS.md lists the rules and the allowed forms.
"""
from __future__ import annotations

import ast
import builtins
import re
from dataclasses import dataclass, field

# torch.* functions that allocate or only ask questions; everything else under torch.* counts as compute.
TORCH_ALLOWED = {
    "torch.empty", "torch.empty_like", "torch.empty_strided",
    "torch.Size", "torch.device", "torch.dtype", "torch.finfo", "torch.iinfo",
    "torch.is_tensor", "torch.is_floating_point", "torch.is_complex", "torch.promote_types", "torch.result_type",
    "torch.get_float32_matmul_precision", "torch.is_grad_enabled", "torch.get_default_dtype",
    "torch.no_grad", "torch.inference_mode", "torch.enable_grad",
    "torch.cuda.current_device", "torch.cuda.device", "torch.cuda.device_of", "torch.cuda.is_available",
    "torch.cuda.get_device_capability", "torch.cuda.get_device_properties", "torch.cuda.get_device_name",
    "torch.cuda.synchronize", "torch.cuda.current_stream",
}

TORCH_ALLOCATORS = {"torch.empty", "torch.empty_like", "torch.empty_strided"}

# torch.* calls in __init__ that make no tensor (so an attribute assigned from them is not a parameter).
TORCH_NOT_TENSORS = TORCH_ALLOWED - TORCH_ALLOCATORS

# Tensor methods that cost nothing: views, the empty allocator, and metadata queries (which return no tensor).
TENSOR_QUERIES = {
    "stride", "size", "dim", "ndimension", "numel", "nelement", "is_contiguous", "data_ptr", "element_size",
    "get_device", "storage_offset", "is_floating_point", "is_complex",
}
TENSOR_FREE_METHODS = TENSOR_QUERIES | {
    "view", "view_as", "permute", "transpose", "t", "unsqueeze", "squeeze", "expand", "expand_as", "as_strided",
    "narrow", "select", "unbind", "split", "chunk", "unfold", "movedim", "swapaxes", "swapdims",
    "new_empty", "new_empty_strided",
}

# Methods of Python's own containers and strings that generated launchers may use.
PYTHON_METHODS = {
    "append", "extend", "insert", "pop", "get", "items", "keys", "values", "setdefault", "update", "copy",
    "join", "format", "index", "count", "startswith", "endswith", "lower", "upper", "replace", "strip",
}

# Methods of a @triton.jit kernel that compile or look up without launching (a launcher sizing its grid from the
# compiled kernel's registers); allowed on what is not a tensor.
TRITON_KERNEL_METHODS = {"warmup", "_init_handles", "run"}  # run: a compiled kernel's launcher

# Attributes of a tensor that are again a (view of the) tensor.
TENSOR_VIEW_ATTRIBUTES = {"T", "mT", "H", "mH", "real", "imag", "data"}

# torch.nn members that only build structure; any other torch.nn.X is a compute layer.
NN_ALLOWED = {"Module", "Parameter", "ParameterList", "ParameterDict", "ModuleList", "ModuleDict", "init",
              "Buffer", "parameter"}

# Builtins that turn a tensor into a number (compute plus a host sync) when given one.
BUILTINS_COMPUTING_ON_TENSORS = {"abs", "bool", "float", "int", "max", "min", "pow", "round", "sum", "sorted",
                                 "divmod", "complex", "list", "tuple", "any", "all", "map", "filter"}
BUILTINS_FORBIDDEN = {"exec", "eval", "compile", "__import__", "globals"}

THREAD_MODULES = {"threading", "_thread", "concurrent", "multiprocessing", "asyncio", "subprocess"}
STREAM_PATHS = {"torch.cuda.Stream", "torch.cuda.stream", "torch.cuda.ExternalStream", "torch.cuda.set_stream",
                "torch.cuda.StreamContext", "torch.Stream", "torch.cuda.streams"}
STREAM_METHODS = {"wait_stream", "record_stream", "wait_event"}
GRAPH_PATHS = {"torch.cuda.graph", "torch.cuda.CUDAGraph", "torch.cuda.graphs", "torch.cuda.make_graphed_callables"}
COMPILE_PREFIXES = ("torch.compile", "torch.jit", "torch._dynamo", "torch._inductor", "torch.export")
DYNAMIC_MODULES = {"importlib", "inspect", "sys", "os", "ctypes", "pickle"}
ALLOWED_MODULES = ("math", "triton", "typing", "functools", "itertools", "operator", "dataclasses")

# One line per rule: what it means. The rule ids are part of the JSON schema (docs/HARNESS.md).
RULES = {
    "syntax_error": "the file does not parse",
    "no_modelnew": "no class ModelNew with a forward method",
    "modelnew_base": "ModelNew must subclass nn.Module directly (not the reference Model)",
    "no_triton_kernel": "no @triton.jit kernel",
    "no_tl_use": "no triton.language (tl.*) use inside a kernel",
    "try_except": "try/except (a fallback path)",
    "pass_stmt": "pass statement (inherit-and-pass bypass)",
    "thread": "threads, processes or async work",
    "stream": "CUDA streams (work hidden from the timer)",
    "cuda_graph": "CUDA graph capture or replay",
    "torch_compile": "torch.compile / jit / dynamo",
    "dynamic_code": "exec/eval/imports at run time or reflection",
    "nn_layer": "torch.nn compute layer",
    "functional": "torch.nn.functional call",
    "torch_compute": "torch compute op in forward",
    "tensor_method": "tensor compute method in forward",
    "tensor_arith": "arithmetic, comparison or element assignment on tensors in forward",
    "module_call": "forward calls a submodule whose compute is not in this file",
    "super_call": "forward calls the parent class",
    "stateful_forward": "forward keeps state across calls (a cached result?)",
    "foreign_call": "forward calls a library other than torch allocation, triton and math",
    "unknown_call": "forward calls something the checker cannot resolve",
}


@dataclass(frozen=True)
class Violation:
    rule: str
    line: int
    message: str

    def to_json(self) -> dict:
        return {"rule": self.rule, "line": self.line, "message": self.message}


@dataclass
class StaticReport:
    ok: bool
    violations: list[Violation]
    launches: int                      # kernel launch sites reachable from forward
    kernels: list[str]                 # names of @triton.jit functions
    kernelbench_ok: bool = True
    kernelbench_violations: list[str] = field(default_factory=list)

    def rules(self) -> list[str]:
        seen: list[str] = []
        for v in self.violations:
            if v.rule not in seen:
                seen.append(v.rule)
        return seen

    def to_json(self) -> dict:
        return {
            "ok": self.ok,
            "violations": [v.to_json() for v in self.violations],
            "launches": self.launches,
            "kernels": self.kernels,
            "kernelbench_ok": self.kernelbench_ok,
            "kernelbench_violations": self.kernelbench_violations,
        }


def check_file(path: str) -> StaticReport:
    with open(path, encoding="utf-8") as f:
        return check_source(f.read(), path)


def check_source(source: str, filename: str = "<generated>") -> StaticReport:
    try:
        tree = ast.parse(source, filename)
    except SyntaxError as e:
        v = Violation("syntax_error", e.lineno or 0, f"{RULES['syntax_error']}: {e.msg}")
        return StaticReport(False, [v], 0, [], *_kernelbench_fields(source))
    checker = _Checker(tree)
    checker.run()
    violations = sorted(set(checker.violations), key=lambda v: (v.line, v.rule, v.message))
    return StaticReport(not violations, violations, checker.launch_sites, sorted(checker.kernels),
                        *_kernelbench_fields(source))


def _kernelbench_fields(source: str) -> tuple[bool, list[str]]:
    problems = kernelbench_check(source)
    return not problems, problems


# --------------------------------------------------------------------------------------------------------------
# The AST analysis.


@dataclass
class _ClassInfo:
    node: ast.ClassDef
    methods: dict[str, ast.FunctionDef]
    tensor_attrs: set[str]             # "weight", "fc.weight": attributes of self holding tensors
    submodules: dict[str, str | None]  # attribute -> class defined in this file (None: anything else)


class _Checker:
    def __init__(self, tree: ast.Module):
        self.tree = tree
        self.violations: list[Violation] = []
        self.aliases: dict[str, str] = {}          # local name -> dotted module path ("F" -> "torch.nn.functional")
        self.functions: dict[str, ast.FunctionDef] = {}
        self.classes: dict[str, _ClassInfo] = {}
        self.kernels: set[str] = set()
        self.launch_sites = 0
        self._analysed: dict[tuple, bool] = {}      # (function id, tensor params) -> returns a tensor
        self._launch_nodes: set[int] = set()

    def flag(self, rule: str, node: ast.AST, detail: str = "") -> None:
        message = RULES[rule] + (f": {detail}" if detail else "")
        self.violations.append(Violation(rule, getattr(node, "lineno", 0), message))

    # ---- whole file ----

    def run(self) -> None:
        self._collect_imports()
        self._collect_definitions()
        self._check_file_wide()
        self._check_kernels_present()
        model = self.classes.get("ModelNew")
        if model is None:
            self.flag("no_modelnew", self.tree)
            return
        self._check_model_base(model)
        if "forward" not in model.methods:
            self.flag("no_modelnew", model.node, "ModelNew defines no forward")
            return
        self._analyse_class_forward(model)

    def _collect_imports(self) -> None:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        self.aliases[a.asname] = a.name
                    else:
                        top = a.name.split(".")[0]
                        self.aliases[top] = top
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for a in node.names:
                    self.aliases[a.asname or a.name] = f"{node.module}.{a.name}"

    def _collect_definitions(self) -> None:
        class_nodes = []
        for node in self.tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions[node.name] = node
                if any(self._is_triton_decorator(d) for d in node.decorator_list):
                    self.kernels.add(node.name)
            elif isinstance(node, ast.ClassDef):
                class_nodes.append(node)
        # all class names first: a submodule's class may be defined after the class that uses it
        self.classes = {node.name: None for node in class_nodes}  # type: ignore[misc]
        for node in class_nodes:
            self.classes[node.name] = self._class_info(node)

    def _is_triton_decorator(self, decorator: ast.expr) -> bool:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        path = self.dotted(target) or ""
        return path in ("triton.jit", "triton.autotune", "triton.heuristics", "triton.runtime.jit.jit")

    def _class_info(self, node: ast.ClassDef) -> _ClassInfo:
        methods = {n.name: n for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        info = _ClassInfo(node, methods, set(), {})
        for name, method in methods.items():
            if name == "forward":
                continue
            for sub in ast.walk(method):
                if isinstance(sub, ast.Assign):
                    for target in sub.targets:
                        self._record_self_attribute(info, target, sub.value)
                elif isinstance(sub, ast.AnnAssign) and sub.value is not None:
                    self._record_self_attribute(info, sub.target, sub.value)
                elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) \
                        and sub.func.attr in ("register_buffer", "register_parameter") \
                        and sub.args and isinstance(sub.args[0], ast.Constant):
                    info.tensor_attrs.add(str(sub.args[0].value))
        return info

    def _record_self_attribute(self, info: _ClassInfo, target: ast.expr, value: ast.expr) -> None:
        chain = _self_chain(target)
        if chain is None:
            return
        if isinstance(value, ast.Call):
            path = self.dotted(value.func) or ""
            callee = value.func.id if isinstance(value.func, ast.Name) else None
            if callee in self.classes or path.startswith("torch.nn.") and path.split(".")[2] not in NN_ALLOWED:
                info.submodules[chain] = callee if callee in self.classes else None
                return
            if path in ("torch.nn.Module", "torch.nn.ModuleList", "torch.nn.ModuleDict"):
                return
        if self._makes_tensor(value):
            info.tensor_attrs.add(chain)

    def _makes_tensor(self, value: ast.expr) -> bool:
        """Whether an __init__ expression builds a tensor: it calls torch.* (other than dtype/device queries)."""
        for sub in ast.walk(value):
            if isinstance(sub, ast.Call):
                path = self.dotted(sub.func) or ""
                if path.startswith("torch.") and path not in TORCH_NOT_TENSORS:
                    return True
        return False

    def _check_file_wide(self) -> None:
        _mark_parents(self.tree)
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.Try,) + ((ast.TryStar,) if hasattr(ast, "TryStar") else ())):
                self.flag("try_except", node)
            elif isinstance(node, ast.Pass):
                self.flag("pass_stmt", node)
            elif isinstance(node, ast.Import):
                for a in node.names:
                    self._check_imported_module(a.name, node)
            elif isinstance(node, ast.ImportFrom) and node.module:
                self._check_imported_module(node.module, node)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                if node.attr in STREAM_METHODS:
                    self.flag("stream", node, f".{node.attr}")
                self._check_reference(node)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                if node.id in BUILTINS_FORBIDDEN and node.id not in self.aliases and node.id not in self.functions:
                    self.flag("dynamic_code", node, node.id)
                else:
                    self._check_reference(node)

    def _check_imported_module(self, module: str, node: ast.AST) -> None:
        top = module.split(".")[0]
        if top in THREAD_MODULES:
            self.flag("thread", node, f"import {module}")
        elif top in DYNAMIC_MODULES:
            self.flag("dynamic_code", node, f"import {module}")

    def _check_reference(self, node: ast.expr) -> None:
        """File-wide rules on any use of a dotted name (only the outermost of a chain is looked at)."""
        if isinstance(getattr(node, "_parent_attr", None), ast.Attribute):
            return
        path = self.dotted(node)
        if not path:
            return
        if any(path == p or path.startswith(p + ".") for p in STREAM_PATHS):
            self.flag("stream", node, path)
        elif any(path == p or path.startswith(p + ".") for p in GRAPH_PATHS):
            self.flag("cuda_graph", node, path)
        elif any(path == p or path.startswith(p + ".") for p in COMPILE_PREFIXES):
            self.flag("torch_compile", node, path)
        elif path.startswith("torch.nn.functional."):
            self.flag("functional", node, path)
        elif path.startswith("torch.nn.") and path.split(".")[2] not in NN_ALLOWED:
            self.flag("nn_layer", node, path)
        elif path.split(".")[0] in THREAD_MODULES:
            self.flag("thread", node, path)

    def _check_kernels_present(self) -> None:
        if not self.kernels:
            self.flag("no_triton_kernel", self.tree)
            return
        for name in self.kernels:
            for sub in ast.walk(self.functions[name]):
                if isinstance(sub, ast.Attribute) and (self.dotted(sub) or "").startswith("triton.language."):
                    return
        self.flag("no_tl_use", self.tree)

    def _check_model_base(self, model: _ClassInfo) -> None:
        bases = [self.dotted(b) or ast.unparse(b) for b in model.node.bases]
        if bases != ["torch.nn.Module"]:
            self.flag("modelnew_base", model.node, ", ".join(bases) or "no base")

    # ---- what forward runs ----

    def _analyse_class_forward(self, cls: _ClassInfo) -> None:
        forward = cls.methods["forward"]
        params = _param_names(forward)[1:]
        self._analyse_function(forward, frozenset(params), cls)

    def _analyse_function(self, fn: ast.FunctionDef, tensor_params: frozenset[str], cls: _ClassInfo | None,
                          kernel_params: frozenset[str] = frozenset()) -> bool:
        key = (id(fn), tensor_params, kernel_params)
        if key in self._analysed:
            return self._analysed[key]
        self._analysed[key] = False  # recursion: assume no tensor result while in progress
        scope = _Scope(self, fn, set(tensor_params), cls, kernel_params)
        returns_tensor = scope.analyse()
        self._analysed[key] = returns_tensor
        return returns_tensor

    def dotted(self, node: ast.expr) -> str | None:
        """The import-resolved dotted path of a Name/Attribute chain ("F.relu" -> "torch.nn.functional.relu")."""
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.aliases:
            return None
        parts.append(self.aliases[node.id])
        return ".".join(reversed(parts))

    def count_launch(self, node: ast.Call) -> None:
        if id(node) not in self._launch_nodes:
            self._launch_nodes.add(id(node))
            self.launch_sites += 1


def _mark_parents(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            if isinstance(node, ast.Attribute) and child is node.value:
                child._parent_attr = node  # type: ignore[attr-defined]


def _self_chain(node: ast.expr) -> str | None:
    """"self.a.b" -> "a.b"; None when the expression is not an attribute chain rooted at self."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == "self" and parts:
        return ".".join(reversed(parts))
    return None


def _param_names(fn: ast.FunctionDef | ast.Lambda) -> list[str]:
    a = fn.args
    names = [p.arg for p in a.posonlyargs + a.args]
    if a.vararg:
        names.append(a.vararg.arg)
    names += [p.arg for p in a.kwonlyargs]
    if a.kwarg:
        names.append(a.kwarg.arg)
    return names


class _Scope:
    """One function that forward runs: infers which names hold tensors, then checks every statement."""

    def __init__(self, checker: _Checker, fn: ast.FunctionDef, tensors: set[str], cls: _ClassInfo | None,
                 kernel_params: frozenset[str] = frozenset()):
        self.c = checker
        self.fn = fn
        self.tensors = tensors
        self.cls = cls
        # Parameters that hold a @triton.jit kernel passed by the caller (a launch helper); the caller's call is
        # the launch that counts.
        self.kernel_params = kernel_params
        self.locals = set(_param_names(fn))
        self.nested: dict[str, ast.FunctionDef] = {}

    def analyse(self) -> bool:
        for node in ast.walk(self.fn):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node is not self.fn:
                self.nested[node.name] = node
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                self.locals.add(node.id)
        # Two passes reach the fixpoint for the straight-line code generated launchers are made of.
        for _ in range(2):
            self._infer_tensors()
        returns_tensor = False
        for node in ast.walk(self.fn):
            self._check_node(node)
            if isinstance(node, ast.Return) and node.value is not None and self.is_tensor(node.value):
                returns_tensor = True
        return returns_tensor

    def _infer_tensors(self) -> None:
        for node in ast.walk(self.fn):
            if isinstance(node, ast.Assign) and self.is_tensor(node.value):
                for target in node.targets:
                    self._mark_targets(target)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and node.value is not None \
                    and self.is_tensor(node.value):
                self._mark_targets(node.target)
            elif isinstance(node, (ast.For, ast.comprehension)) and self.is_tensor(node.iter):
                self._mark_targets(node.target)

    def _mark_targets(self, target: ast.expr) -> None:
        if isinstance(target, ast.Name):
            self.tensors.add(target.id)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._mark_targets(element)
        elif isinstance(target, ast.Starred):
            self._mark_targets(target.value)

    # ---- is this expression a tensor? ----

    def is_tensor(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.tensors
        if isinstance(node, ast.Attribute):
            chain = _self_chain(node)
            if chain is not None:
                return self.cls is not None and chain in self.cls.tensor_attrs
            return node.attr in TENSOR_VIEW_ATTRIBUTES and self.is_tensor(node.value)
        if isinstance(node, ast.Subscript):
            return self.is_tensor(node.value)
        if isinstance(node, ast.Starred):
            return self.is_tensor(node.value)
        if isinstance(node, (ast.Tuple, ast.List)):
            return any(self.is_tensor(e) for e in node.elts)
        if isinstance(node, ast.IfExp):
            return self.is_tensor(node.body) or self.is_tensor(node.orelse)
        if isinstance(node, ast.BinOp):
            return self.is_tensor(node.left) or self.is_tensor(node.right)
        if isinstance(node, ast.UnaryOp):
            return self.is_tensor(node.operand)
        if isinstance(node, ast.Call):
            return self._call_returns_tensor(node)
        return False

    def _call_returns_tensor(self, call: ast.Call) -> bool:
        func = call.func
        path = self.c.dotted(func)
        if path is not None:
            return path.startswith("torch.") and path not in TORCH_NOT_TENSORS
        if isinstance(func, ast.Attribute):
            if _self_chain(func) is not None:
                return self._self_call_returns_tensor(call, func)
            # views and allocations are tensors, and so is whatever a compute method (flagged) returns
            return self.is_tensor(func.value) and func.attr not in TENSOR_QUERIES
        if isinstance(func, ast.Name):
            target = self.nested.get(func.id) or (None if func.id in self.locals else self.c.functions.get(func.id))
            if target is not None and func.id not in self.c.kernels:
                return self.c._analyse_function(target, self._tensor_params(target, call), None,
                                                self._kernel_params(target, call))
        return False

    def _self_call_returns_tensor(self, call: ast.Call, func: ast.Attribute) -> bool:
        if self.cls is None or not isinstance(func.value, ast.Name):
            return True  # self.sub.method(...) or a submodule call: its result may be a tensor
        method = self.cls.methods.get(func.attr)
        if method is None:
            return True
        return self.c._analyse_function(method, self._tensor_params(method, call, skip_self=True), self.cls)

    def _tensor_params(self, fn: ast.FunctionDef, call: ast.Call, skip_self: bool = False) -> frozenset[str]:
        names = _param_names(fn)
        if skip_self:
            names = names[1:]
        tensors = set()
        for name, arg in zip(names, call.args):
            if isinstance(arg, ast.Starred):
                break
            if self.is_tensor(arg):
                tensors.add(name)
        if any(isinstance(a, ast.Starred) and self.is_tensor(a.value) for a in call.args):
            tensors.update(names[len(call.args) - 1:])
        for kw in call.keywords:
            if kw.arg is None:
                if self.is_tensor(kw.value):
                    tensors.update(names)
            elif kw.arg in names and self.is_tensor(kw.value):
                tensors.add(kw.arg)
        if fn.args.vararg and any(self.is_tensor(a) for a in call.args[len(names):]):
            tensors.add(fn.args.vararg.arg)
        return frozenset(tensors)

    def _kernel_params(self, fn: ast.FunctionDef, call: ast.Call) -> frozenset[str]:
        """The parameters of fn that this call passes a kernel to (by position)."""
        kernels = set()
        for name, arg in zip(_param_names(fn), call.args):
            if isinstance(arg, ast.Starred):
                break
            if isinstance(arg, ast.Name) and (arg.id in self.c.kernels or arg.id in self.kernel_params):
                kernels.add(name)
        return frozenset(kernels)

    # ---- the checks ----

    def _check_node(self, node: ast.AST) -> None:
        if isinstance(node, ast.Call):
            self._check_call(node)
        elif isinstance(node, ast.BinOp) and (self.is_tensor(node.left) or self.is_tensor(node.right)):
            self.c.flag("tensor_arith", node, ast.unparse(node)[:60])
        elif isinstance(node, ast.UnaryOp) and not isinstance(node.op, ast.Not) and self.is_tensor(node.operand):
            self.c.flag("tensor_arith", node, ast.unparse(node)[:60])
        elif isinstance(node, ast.Compare):
            self._check_compare(node)
        elif isinstance(node, ast.AugAssign):
            self._check_store(node.target, node)
            if self.is_tensor(node.target) or self.is_tensor(node.value):
                self.c.flag("tensor_arith", node, ast.unparse(node)[:60])
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                self._check_store(target, node)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            self.c.flag("stateful_forward", node, ", ".join(node.names))

    def _check_compare(self, node: ast.Compare) -> None:
        operands = [node.left] + node.comparators
        identity = all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops)
        if not identity and any(self.is_tensor(o) for o in operands):
            self.c.flag("tensor_arith", node, ast.unparse(node)[:60])

    def _check_store(self, target: ast.expr, node: ast.AST) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self._check_store(element, node)
            return
        if isinstance(target, ast.Attribute):
            root = target
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and (root.id == "self" or root.id not in self.locals):
                self.c.flag("stateful_forward", node, f"stores {ast.unparse(target)}")
        elif isinstance(target, ast.Subscript):
            if self.is_tensor(target.value):
                self.c.flag("tensor_arith", node, f"element assignment {ast.unparse(target)[:40]}")
            root = target.value
            while isinstance(root, (ast.Subscript, ast.Attribute)):
                root = root.value
            value = getattr(node, "value", None)
            stores_tensor = value is not None and self.is_tensor(value)
            if isinstance(root, ast.Name) and (root.id == "self" or root.id not in self.locals) and stores_tensor:
                self.c.flag("stateful_forward", node, f"keeps a tensor in {ast.unparse(target)[:40]}")

    def _check_call(self, call: ast.Call) -> None:
        func = call.func
        if isinstance(func, ast.Subscript):
            self._check_subscript_call(call, func)
            return
        path = self.c.dotted(func)
        if path is not None:
            self._check_module_call(call, path)
            return
        if isinstance(func, ast.Name):
            self._check_name_call(call, func)
        elif isinstance(func, ast.Attribute):
            self._check_method_call(call, func)
        elif not isinstance(func, ast.Lambda):
            self.c.flag("unknown_call", call, ast.unparse(func)[:60])

    def _check_subscript_call(self, call: ast.Call, func: ast.Subscript) -> None:
        # kernel[grid](...) is a launch; anything else subscripted and called is not understood.
        if isinstance(func.value, ast.Name) and func.value.id in self.c.kernels:
            self.c.count_launch(call)
        elif isinstance(func.value, ast.Name) and func.value.id in self.kernel_params:
            return  # a launch helper launching the kernel it was given: counted at the helper's call
        elif isinstance(func.value, ast.Attribute) and _self_chain(func.value) is not None:
            self.c.flag("module_call", call, ast.unparse(func)[:60])
        else:
            self.c.flag("unknown_call", call, ast.unparse(func)[:60])

    def _check_module_call(self, call: ast.Call, path: str) -> None:
        top = path.split(".")[0]
        if top == "torch":
            if path in TORCH_ALLOWED:
                return
            if path.startswith("torch.nn.functional."):
                return  # already flagged file-wide as "functional"
            if path.startswith("torch.nn.") and path.split(".")[2] not in NN_ALLOWED:
                return  # already flagged file-wide as "nn_layer"
            if any(path.startswith(p) for p in COMPILE_PREFIXES + tuple(STREAM_PATHS | GRAPH_PATHS)):
                return  # flagged file-wide
            self.c.flag("torch_compute", call, path)
        elif top in ALLOWED_MODULES:
            return
        elif top in THREAD_MODULES or top in DYNAMIC_MODULES:
            return  # flagged file-wide at the import
        else:
            self.c.flag("foreign_call", call, path)

    def _check_name_call(self, call: ast.Call, func: ast.Name) -> None:
        name = func.id
        if name in self.nested:
            self.c._analyse_function(self.nested[name], self._tensor_params(self.nested[name], call), self.cls)
        elif name in self.locals:
            self.c.flag("unknown_call", call, f"{name}(...) calls a local value")
        elif name in self.c.kernels:
            self.c.flag("unknown_call", call, f"{name} is a kernel called without a grid")
        elif name in self.c.functions:
            fn = self.c.functions[name]
            kernel_params = self._kernel_params(fn, call)
            if kernel_params:
                self.c.count_launch(call)  # a launch helper given a kernel
            self.c._analyse_function(fn, self._tensor_params(fn, call), None, kernel_params)
        elif name in self.c.classes:
            cls = self.c.classes[name]
            if "forward" in cls.methods:
                self.c._analyse_class_forward(cls)
        elif name == "super":
            return  # super().method(...) is judged where the method is called
        elif name in ("setattr", "delattr"):
            self.c.flag("stateful_forward", call, f"{name}(...)")
        elif hasattr(builtins, name):
            if name in BUILTINS_COMPUTING_ON_TENSORS and any(self.is_tensor(a) for a in call.args):
                self.c.flag("tensor_arith", call, f"{name}() of a tensor")
        else:
            self.c.flag("unknown_call", call, name)

    def _check_method_call(self, call: ast.Call, func: ast.Attribute) -> None:
        owner = func.value
        if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
            self.c.flag("super_call", call, f"super().{func.attr}")
            return
        if isinstance(owner, ast.Name) and owner.id == "self" and self.cls is not None:
            self._check_self_call(call, func)
            return
        chain = _self_chain(func)
        if chain is not None and self.cls is not None and chain in self.cls.submodules:
            self._check_submodule_call(call, chain)
            return
        if func.attr in TENSOR_FREE_METHODS:
            return
        if func.attr in PYTHON_METHODS | TRITON_KERNEL_METHODS and not self.is_tensor(owner):
            return
        if func.attr in STREAM_METHODS:
            return  # flagged file-wide
        self.c.flag("tensor_method", call, f".{func.attr}()")

    def _check_self_call(self, call: ast.Call, func: ast.Attribute) -> None:
        assert self.cls is not None
        if func.attr in self.cls.methods:
            method = self.cls.methods[func.attr]
            self.c._analyse_function(method, self._tensor_params(method, call, skip_self=True), self.cls)
        elif func.attr in self.cls.submodules:
            self._check_submodule_call(call, func.attr)
        else:
            self.c.flag("module_call", call, f"self.{func.attr}(...)")

    def _check_submodule_call(self, call: ast.Call, attribute: str) -> None:
        assert self.cls is not None
        class_name = self.cls.submodules[attribute]
        if class_name is None:
            self.c.flag("module_call", call, f"self.{attribute}(...)")
        elif "forward" in self.c.classes[class_name].methods:
            self.c._analyse_class_forward(self.c.classes[class_name])


# --------------------------------------------------------------------------------------------------------------
# KernelBench's textual rules (for Triton), restated. Comments are stripped first; strings are not, as there.

_KB_TORCH_OPS = (
    "mm bmm matmul einsum conv1d conv2d conv3d conv conv_transpose1d conv_transpose2d conv_transpose3d "
    "avg_pool1d avg_pool2d avg_pool3d max_pool1d max_pool2d max_pool3d adaptive_avg_pool1d adaptive_avg_pool2d "
    "adaptive_avg_pool3d adaptive_max_pool1d adaptive_max_pool2d adaptive_max_pool3d relu hardtanh elu selu "
    "leaky_relu gelu softsign softplus softmax log_softmax tanh sigmoid hardsigmoid silu mish batch_norm "
    "group_norm layer_norm instance_norm rms_norm normalize linear cross_entropy kl_div mse_loss huber_loss "
    "triplet_margin_loss cosine_similarity logsumexp clamp dropout"
).split()
_KB_RULES = [
    (r"\btry\s*:|\bexcept\s*:|\bexcept\s+\w+", "try-except block"),
    (r"\bpass\b", "'pass' statement"),
    (r"torch\.nn\.(?!(Module|parameter|Parameter|ParameterList|ParameterDict|ModuleList|ModuleDict|init)\b)",
     "torch.nn compute layer"),
    (r"\btorch\.(" + "|".join(_KB_TORCH_OPS) + r")(?=\s*\(|\s|$)", "torch computation op"),
    (r"torch\.nn\.functional\.\w+|\bnn\.functional\.\w+|"
     r"\bF\.(conv|linear|relu|gelu|softmax|batch_norm|layer_norm|dropout|max_pool|avg_pool)", "F.* op"),
]


def kernelbench_check(source: str) -> list[str]:
    """KernelBench's strict static rules for Triton; returns the problems found (empty: accepted)."""
    code = "\n".join(line.split("#", 1)[0] for line in source.split("\n"))
    problems = []
    for pattern, what in _KB_RULES:
        m = re.search(pattern, code, flags=re.MULTILINE)
        if m:
            line = code.count("\n", 0, m.start()) + 1
            problems.append(f"line {line}: {what} ({m.group(0).strip()})")
    if not re.search(r"@triton\.(jit|autotune)", code):
        problems.append("missing @triton.jit or @triton.autotune")
    elif not re.search(r"tl\.(load|store)\s*\(", code):
        problems.append("missing tl.load or tl.store")
    elif not re.search(r"tl\.(program_id|num_programs|arange|cdiv)\s*\(|tl\.constexpr", code):
        problems.append("missing tl.program_id / tl.arange / tl.constexpr")
    return problems
