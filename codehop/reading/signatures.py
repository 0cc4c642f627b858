"""Parameters of a callable, read from its indexed signature, and `**kwargs` followed on.

`parameters("def f(a, b: int = 3, **kw) -> None")` gives each parameter with
its default as written. `forwarded()` follows a keyword that a function only
accepts through `**kwargs` to the callable it passes them on to
(`create_engine(**kw)` -> `pool_class(**kw)` -> the pool's `pool_size=5`),
reading the function's body from the index. May import: records, symbols,
store, stdlib (ast).
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass

from codehop.index.symbols import SymbolTable
from codehop.kernel.records import BindingKind

MAX_FORWARDS = 3  # **kwargs hops followed from one function
_COMMENT = re.compile(
    r"#\s*(?:type:\s*ignore(?:\[[^\]]*\])?|noqa(?::\s*[A-Z]+\d+(?:\s*,\s*[A-Z]+\d+)*)?|pragma:\s*no\s*cover)"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Parameter:
    name: str
    kind: str = ""  # "" (named), "*" (*args), "**" (**kwargs)
    default: str = ""  # the default as written, "" when none
    annotation: str = ""

    def text(self) -> str:
        out = {"*": "*", "**": "**"}.get(self.kind, "") + self.name
        if self.annotation:
            out += f": {self.annotation}"
        if self.default:
            out += f" = {self.default}" if self.annotation else f"={self.default}"
        return out


def parameters(signature: str) -> tuple[Parameter, ...]:
    """The parameters of `def ...(...)` as written; () when the text is not a function header."""
    # the index keeps a header on one line, its comments too: drop the usual ones (`# type: ignore[...]`)
    # (a header kept with its colon, `def f(x):  # type: ignore[...]`, loses it with the comment)
    src = _COMMENT.sub(" ", signature.strip()).rstrip().removesuffix(":")
    if not src.startswith(("def ", "async def ")):
        return ()
    try:
        tree = ast.parse(src + ":\n    pass\n")
    except (SyntaxError, ValueError, RecursionError):
        return ()
    fn = tree.body[0] if tree.body else None
    if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
        return ()
    a = fn.args
    out: list[Parameter] = []
    positional = a.posonlyargs + a.args
    defaults: list[ast.expr | None] = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
    for arg, d in zip(positional, defaults, strict=True):
        out.append(_param(src, arg, "", d))
    if a.vararg is not None:
        out.append(_param(src, a.vararg, "*", None))
    for arg, d in zip(a.kwonlyargs, a.kw_defaults, strict=True):
        out.append(_param(src, arg, "", d))
    if a.kwarg is not None:
        out.append(_param(src, a.kwarg, "**", None))
    return tuple(out)


def _param(src: str, arg: ast.arg, kind: str, default: ast.expr | None) -> Parameter:
    ann = ast.get_source_segment(src, arg.annotation) if arg.annotation is not None else ""
    dft = ast.get_source_segment(src, default) if default is not None else ""
    return Parameter(name=arg.arg, kind=kind, default=dft or "", annotation=ann or "")


def forwarded(
    table: SymbolTable,
    func: str,
    kwargs_name: str,
    keyword: str,
) -> tuple[str, Parameter, tuple[tuple[str, str, int], ...]] | None:
    """Where `keyword`, accepted by `func` only through `**kwargs_name`, is declared:
    (the callable's qualname, its parameter, the hops as (callee, origin path, line))."""
    hops: list[tuple[str, str, int]] = []
    seen: set[str] = set()
    cur, kw = func, kwargs_name
    for _ in range(MAX_FORWARDS):
        if cur in seen:
            return None
        seen.add(cur)
        step = _forward_call(table, cur, kw)
        if step is None:
            return None
        callee, rel_path, line = step
        hops.append((callee, rel_path, line))
        params = _callable_params(table, callee)
        if params is None:
            return None
        target, plist = params
        for p in plist:
            if p.name == keyword and p.kind == "":
                return target, p, tuple(hops)
        nxt = next((p for p in plist if p.kind == "**"), None)
        if nxt is None:
            return None
        cur, kw = target, nxt.name
    return None


def _callable_params(table: SymbolTable, dotted: str) -> tuple[str, tuple[Parameter, ...]] | None:
    res = table.resolve(dotted)
    if res is None or res.is_external or not res.target.qualname:
        return None
    qual = res.target.qualname
    if table.class_binding(qual) is not None:
        init = table.resolve(f"{qual}.__init__")
        if init is None or init.is_external or not init.target.qualname:
            return None
        qual = init.target.qualname
    found: tuple[Parameter, ...] = ()
    for c in table.store.chunks_named(qual):
        if c.signature:
            found = parameters(c.signature) or found  # the implementation after `@overload`s
    return qual, found


def _forward_call(table: SymbolTable, func: str, kwargs_name: str) -> tuple[str, str, int] | None:
    """The first call in `func`'s body that passes `**kwargs_name` on: (callee dotted, path, line)."""
    store = table.store
    chunk = next((c for c in store.chunks_named(func) if c.signature), None)
    if chunk is None:
        return None
    try:
        tree = ast.parse(textwrap.dedent(chunk.text))
    except (SyntaxError, ValueError, RecursionError):
        return None
    module = store.module_of(chunk.rel_path) or ""
    cls_scope = func.rpartition(".")[0]
    local: dict[str, str] = {}  # `pool_class = QueuePool` style locals: name -> the dotted value
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            dotted = _dotted(node.value)
            if dotted:
                local[node.targets[0].id] = dotted
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if not any(
            k.arg is None and isinstance(k.value, ast.Name) and k.value.id == kwargs_name for k in node.keywords
        ):
            continue
        name = _dotted(node.func)
        if not name:
            continue
        name = local.get(name, name)
        head, _, rest = name.partition(".")
        candidates = [f"{module}.{name}"]
        if head in ("self", "cls") and rest:
            candidates = [f"{cls_scope}.{rest}"]
        line = chunk.start_line + node.lineno - 1
        for cand in candidates:
            res = table.resolve(cand)
            if res is None or res.is_external:
                continue
            b = table.binding_of(res.target.qualname) if res.target.qualname else None
            if b is not None and b.kind in (BindingKind.CLASS, BindingKind.FUNCTION):
                return cand, chunk.rel_path, line
    return None


def _dotted(node: ast.expr) -> str:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return ""


def none_fallback(body: str, name: str, sentinel: str = "None") -> tuple[int, str] | None:
    """What a body puts in place of a parameter left at its `None` default (or at a sentinel value,
    `default=_UNSET`): (line within `body`, 1-based, the expression as written). The forms Python
    code uses: `X if name is None else name`, `name if name is not None else X`, `name or X` and
    `f(name) or X` (for `None`), `if name is None: name = X` (or `self.attr = X`, or `return X`), and the `else:` of
    `if name:` (an assignment or a return)."""
    try:
        src = textwrap.dedent(body)
        tree = ast.parse(src)
    except (SyntaxError, ValueError, RecursionError):
        return None

    def is_name(node: ast.expr) -> bool:
        return isinstance(node, ast.Name) and node.id == name

    def is_sentinel(node: ast.expr) -> bool:
        if sentinel == "None":
            return isinstance(node, ast.Constant) and node.value is None
        return _dotted(node) == sentinel if isinstance(node, ast.Name | ast.Attribute) else False

    def none_test(node: ast.expr) -> bool | None:
        """True for `name is None`, False for `name is not None`, None for any other test."""
        if (
            isinstance(node, ast.Compare)
            and len(node.ops) == 1
            and is_name(node.left)
            and is_sentinel(node.comparators[0])
        ):
            if isinstance(node.ops[0], ast.Is):
                return True
            if isinstance(node.ops[0], ast.IsNot):
                return False
        if (
            sentinel == "None"
            and isinstance(node, ast.UnaryOp)
            and isinstance(node.op, ast.Not)
            and is_name(node.operand)
        ):
            return True
        return None

    def found(node: ast.expr | ast.stmt) -> tuple[int, str] | None:
        text = ast.get_source_segment(src, node)
        return (node.lineno, text) if text else None

    for node in ast.walk(tree):
        if isinstance(node, ast.IfExp):
            side = none_test(node.test)
            if side is True and is_name(node.orelse):
                return found(node.body)
            if side is False and is_name(node.body):
                return found(node.orelse)
        elif (
            sentinel == "None"
            and isinstance(node, ast.BoolOp)
            and isinstance(node.op, ast.Or)
            and len(node.values) == 2
        ):
            first = node.values[0]
            if is_name(first) or (isinstance(first, ast.Call) and any(is_name(a) for a in first.args)):
                return found(node.values[1])  # (`name or X`, `listify(name) or [X()]`)
        elif isinstance(node, ast.If):
            side = none_test(node.test)
            if side is None and sentinel == "None" and is_name(node.test):
                side = False  # `if name: ... else: <fallback>`
            for stmt in node.body if side is True else node.orelse if side is False else []:
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                    return found(stmt.value)
                if isinstance(stmt, ast.Return) and stmt.value is not None:
                    return found(stmt.value)  # (`else: return DEFAULTPARSER.parse(timestr)`)
                if isinstance(stmt, ast.If):
                    # (`if name is _UNSET: if isinstance(key, K): x = key.scheme else: x = "plain"`: the
                    # decision itself is what stands in)
                    return found(stmt)
    return None


def passed_on(body: str, name: str) -> list[tuple[str, str]]:
    """The calls a body hands parameter `name` to as it came: (callee as written, the callee's
    parameter it fills: the keyword, or "" for a positional argument), in source order."""
    try:
        tree = ast.parse(textwrap.dedent(body))
    except (SyntaxError, ValueError, RecursionError):
        return []
    out: list[tuple[str, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        callee = _dotted(node.func) if isinstance(node.func, ast.Name | ast.Attribute) else ""
        if not callee:
            continue
        if any(isinstance(a, ast.Name) and a.id == name for a in node.args):
            out.append((callee, ""))
        out += [
            (callee, k.arg) for k in node.keywords if k.arg and isinstance(k.value, ast.Name) and k.value.id == name
        ]
    return list(dict.fromkeys(out))


def annotated_return(signature: str) -> bool:
    """Whether `def ...(...) -> X` writes a return annotation, whatever X is."""
    src = _COMMENT.sub(" ", signature.strip()).rstrip().removesuffix(":")
    try:
        fn = ast.parse(src + ":\n    pass\n").body[0]
    except (SyntaxError, ValueError, RecursionError, IndexError):
        return False
    return isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) and fn.returns is not None


def returns_class(signature: str) -> bool:
    """Whether `def ...(...) -> type[X]` (or `Type[X]`) is annotated to return a class."""
    node = _return_annotation(signature)
    return isinstance(node, ast.Subscript) and _dotted(node.value).rpartition(".")[2] in ("type", "Type")


def _return_annotation(signature: str) -> ast.expr | None:
    """The return annotation of a `def ...(...) -> X` signature, parsed; None for none."""
    src = _COMMENT.sub(" ", signature.strip()).rstrip().removesuffix(":")
    if not src.startswith(("def ", "async def ")):
        return None
    try:
        fn = ast.parse(src + ":\n    pass\n").body[0]
    except (SyntaxError, ValueError, RecursionError, IndexError):
        return None
    return fn.returns if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef) else None


def returns(signature: str) -> str:
    """The return annotation of `def ...(...) -> X` when it names one thing (`X`, `mod.X`, `"X"`);
    "" for none, or for a union, an optional, a generic: those do not decide one class."""
    node = _return_annotation(signature)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.strip() if re.fullmatch(r"[A-Za-z_][\w.]*", node.value.strip()) else ""
    return _dotted(node) if isinstance(node, ast.Name | ast.Attribute) else ""


def forwarded_call(source: str) -> str:
    """The callee, as written (`_factory.get`, `self._inner.close`), when a function's whole body is
    one call (returned, awaited or not) that hands on every parameter and nothing else
    (`return _factory.get(*args, **kwargs)`, `return self.run(x, key=key)`); "" otherwise."""
    try:
        tree = ast.parse(textwrap.dedent(source))
    except (SyntaxError, ValueError, RecursionError):
        return ""
    fn = tree.body[0] if len(tree.body) == 1 else None
    if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
        return ""
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    if len(body) != 1 or not isinstance(body[0], ast.Return | ast.Expr) or body[0].value is None:
        return ""
    call = body[0].value
    if isinstance(call, ast.Await):
        call = call.value
    if not isinstance(call, ast.Call):
        return ""
    a = fn.args
    own = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
    if own and own[0] in ("self", "cls"):
        own = own[1:]
    own += [p.arg for p in (a.vararg, a.kwarg) if p is not None]
    passed: list[str] = []
    for arg in call.args:
        node = arg.value if isinstance(arg, ast.Starred) else arg
        if not isinstance(node, ast.Name):
            return ""
        passed.append(node.id)
    for kw in call.keywords:
        if not isinstance(kw.value, ast.Name):
            return ""
        passed.append(kw.value.id)
    if sorted(passed) != sorted(own):
        return ""
    return _dotted(call.func)


def instantiated(value: str) -> str:
    """The callee, as written (`widgets.NumberInput`, `Namespace`), when a value is one call and
    nothing else (`widgets.NumberInput(step="any")`); "" otherwise (`A() + 1`, `f()()`, `x`)."""
    try:
        node = ast.parse(value.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return ""
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name | ast.Attribute):
        return ""
    return _dotted(node.func)


_Function = ast.FunctionDef | ast.AsyncFunctionDef


def _function(source: str) -> _Function | None:
    """The function a chunk's source declares first (dedented, parsed); None for anything else."""
    try:
        tree = ast.parse(textwrap.dedent(source))
    except (SyntaxError, ValueError, RecursionError):
        return None
    fn = tree.body[0] if tree.body else None
    return fn if isinstance(fn, _Function) else None


def _own_nodes(fn: _Function) -> Iterator[ast.AST]:
    """The nodes of a function's body in source order, not those of the functions, classes and
    lambdas nested in it (iterative: a repository's nesting depth never reaches the interpreter's
    stack)."""
    stack: list[ast.AST] = list(reversed(fn.body))
    while stack:
        node = stack.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        yield node
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def _parameters_of(fn: _Function) -> set[str]:
    return {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}


def returned_names(source: str) -> list[str]:
    """The dotted names a function's `return` statements hand back or index into (`return
    _CLASS_MAP[key]` -> `_CLASS_MAP`, `return Result(x)` -> `Result`), in order; not its
    parameters' or nested functions' names (those are local)."""
    fn = _function(source)
    if fn is None:
        return []
    local = _parameters_of(fn) | {"self", "cls"}
    out: list[str] = []
    for node in _own_nodes(fn):
        if isinstance(node, ast.Return) and node.value is not None:
            value = node.value
            while isinstance(value, ast.Subscript | ast.Call | ast.Await):
                value = value.value if isinstance(value, ast.Subscript | ast.Await) else value.func
            name = _dotted(value) if isinstance(value, ast.Name | ast.Attribute) else ""
            if name and name.split(".")[0] not in local:
                out.append(name)
    return list(dict.fromkeys(out))


def raised_text(source: str) -> str:
    """What a function's body says when it gives up: the names it raises and the strings in its
    body below its docstring (messages, `msg = "..."` before a `raise`), as one text; "" when it
    raises nothing."""
    fn = _function(source)
    if fn is None:
        return ""
    nodes = list(_own_nodes(fn))
    raised = [
        _dotted(n.exc.func if isinstance(n.exc, ast.Call) else n.exc)
        for n in nodes
        if isinstance(n, ast.Raise)
        and n.exc is not None
        and isinstance(n.exc.func if isinstance(n.exc, ast.Call) else n.exc, ast.Name | ast.Attribute)
    ]
    if not raised:
        return ""
    doc = ast.get_docstring(fn, clean=False)
    said = [n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value != doc]
    return " ".join([*raised, *said])


def called_name(expression: str) -> str:
    """The dotted name an expression calls (`logging.getLogger("x")` -> `logging.getLogger`), or ""."""
    try:
        node = ast.parse(expression.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return ""
    return _dotted(node.func) if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute) else ""


def returned_members(source: str) -> list[str]:
    """The attributes of `self` (or `cls`) a method's `return` statements hand back or call
    (`return self.parameter_storage_class(...)` -> `parameter_storage_class`), in order."""
    fn = _function(source)
    if fn is None:
        return []
    out: list[str] = []
    for node in _own_nodes(fn):
        if isinstance(node, ast.Return) and node.value is not None:
            value = node.value
            while isinstance(value, ast.Call | ast.Await):
                value = value.value if isinstance(value, ast.Await) else value.func
            if (
                isinstance(value, ast.Attribute)
                and isinstance(value.value, ast.Name)
                and value.value.id in ("self", "cls")
            ):
                out.append(value.attr)
    return list(dict.fromkeys(out))


def stub_kind(source: str) -> str:
    """What a function's body declares: "" behaviour; "empty" only a docstring, `...` or `pass` (a
    no-op, or a Protocol's member); "abstract" `raise NotImplementedError`, or an empty body under
    `@abstractmethod` / `@overload`. Of an abstract member, what runs is an implementation elsewhere."""
    fn = _function(source)
    if fn is None:
        return ""
    kind = "empty"
    for node in fn.body:
        if isinstance(node, ast.Pass) or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
            continue  # a docstring, `...`
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            if isinstance(exc, ast.Name) and exc.id == "NotImplementedError":
                kind = "abstract"
                continue
        return ""
    marks = {_dotted(d.func if isinstance(d, ast.Call) else d).rpartition(".")[2] for d in fn.decorator_list}
    return "abstract" if marks & {"abstractmethod", "overload"} else kind


def calls_on_locals(source: str) -> list[str]:
    """The methods a function's body calls on its parameters and locals (`cond.check(...)` ->
    `cond.check`), in order: calls whose callee the index cannot place without inferring a type.
    Not calls on `self`/`cls`, nor on names the function does not bind (module-level names)."""
    fn = _function(source)
    if fn is None:
        return []
    bound = _parameters_of(fn) - {"self", "cls"}
    calls: list[tuple[str, str]] = []
    for node in _own_nodes(fn):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
        ):
            root = node.func.value.id
            calls.append((root, f"{root}.{node.func.attr}"))
    return list(dict.fromkeys(text for root, text in calls if root in bound))


def computed_return(source: str) -> str:
    """The first value a function's `return` statements compute (a call, an attribute, an
    operation), as written; "" when a return hands back a literal, a plain name or nothing."""
    fn = _function(source)
    for node in _own_nodes(fn) if fn is not None else ():
        if isinstance(node, ast.Return) and node.value is not None and not isinstance(node.value, ast.Constant):
            if isinstance(node.value, ast.Name):
                return ""  # (a local, a nested function: declared in the body the answer shows)
            return ast.unparse(node.value)
    return ""


def keyword_values(source: str) -> list[tuple[str, list[str]]]:
    """For an assignment of one call (`V = create(format_checker=_format.checker, version="x")`):
    each keyword argument with the dotted names its value holds, in order
    (`[("format_checker", ["_format.checker"]), ("version", [])]`)."""
    try:
        tree = ast.parse(textwrap.dedent(source))
    except (SyntaxError, ValueError, RecursionError):
        return []
    stmt = tree.body[0] if tree.body else None
    value = stmt.value if isinstance(stmt, ast.Assign | ast.AnnAssign) else None
    if not isinstance(value, ast.Call):
        return []
    out: list[tuple[str, list[str]]] = []
    for kw in value.keywords:
        if kw.arg is None:
            continue
        names: list[str] = []
        stack: list[ast.AST] = [kw.value]
        while stack:  # the outermost dotted names only (`_format.checker`, not also `_format`)
            node = stack.pop()
            if isinstance(node, ast.Name | ast.Attribute) and _dotted(node):
                names.append(_dotted(node))
                continue
            stack.extend(reversed(list(ast.iter_child_nodes(node))))
        out.append((kw.arg, list(dict.fromkeys(names))))
    return out
