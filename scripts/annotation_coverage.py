"""Share of functions fully annotated in the given folders (default: solver and webapp).

"Fully annotated" follows mypy: every parameter except a method's self/cls carries an
annotation, and so does the return (``__init__`` may leave its return out when a parameter
is annotated). Lambdas are not counted. Run: ``python scripts/annotation_coverage.py``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path


def _fully_annotated(node: ast.FunctionDef | ast.AsyncFunctionDef, in_class: bool) -> bool:
    args = node.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    if in_class and params and not _is_static(node):
        params = params[1:]
    params += [a for a in (args.vararg, args.kwarg) if a is not None]
    if any(p.annotation is None for p in params):
        return False
    if node.returns is not None:
        return True
    return node.name == "__init__" and bool(params)


def _is_static(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def count(path: Path) -> tuple[int, int]:
    """(fully annotated, all) functions and methods of one module."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    done = total = 0

    def visit(node: ast.AST, in_class: bool) -> None:
        nonlocal done, total
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                total += 1
                done += _fully_annotated(child, in_class)
                visit(child, False)
            elif isinstance(child, ast.ClassDef):
                visit(child, True)
            else:
                visit(child, in_class)

    visit(tree, False)
    return done, total


def main(argv: list[str]) -> int:
    roots = [Path(a) for a in argv] or [Path("solver"), Path("webapp")]
    done = total = 0
    for root in roots:
        for path in sorted(root.rglob("*.py")):
            d, t = count(path)
            done, total = done + d, total + t
    print(f"{done} of {total} functions fully annotated ({100 * done / max(total, 1):.0f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
