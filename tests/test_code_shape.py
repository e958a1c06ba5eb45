"""The shape of the code in ``src/``: no function above radon complexity 25, no module above
500 lines except data (issue 28, "done when").

A function's complexity is radon's cyclomatic complexity (``radon cc``), checked for every
function, method and nested function.  A module's size is its number of lines, as ``wc -l``
counts them.  A module made of data (tables of facts, not logic) may be longer; it is named in
``DATA_MODULES``.

``PENDING`` names the offenders still being reshaped by their owners, each with a
``pending: <owner>`` comment; the integrator empties it as they land.  Nothing else may be
added to it: a new function above 25 is split into well-named helpers, a new module above 500
lines into modules of one idea each.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from radon.visitors import Class, ComplexityVisitor, Function

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "tramways"

MAX_COMPLEXITY = 25
MAX_LINES = 500

# Modules that are data, not logic, allowed above MAX_LINES (paths relative to src/tramways).
DATA_MODULES: frozenset[str] = frozenset()

# Offenders being reshaped by their owners: "path" (a module above MAX_LINES) or
# "path:Qualified.name" (a function above MAX_COMPLEXITY), paths relative to src/tramways.
PENDING: frozenset[str] = frozenset()


def modules() -> list[Path]:
    """Every Python module of the package."""
    return sorted(PACKAGE.rglob("*.py"))


def name_of(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


def top_blocks(code: str) -> list[Function | Class]:
    """The module-level functions and classes of ``code``."""
    visitor = ComplexityVisitor.from_code(code)
    return [*visitor.functions, *visitor.classes]


def functions(blocks: list[Function | Class], prefix: str = "") -> Iterator[tuple[str, int]]:
    """Each function, method and nested function under ``blocks`` with its qualified name and
    its complexity (a class's own figure, the sum of its methods', is not a function's)."""
    for block in blocks:
        qualname = prefix + block.name
        if isinstance(block, Class):
            yield from functions([*block.methods, *block.inner_classes], qualname + ".")
        else:
            yield qualname, block.complexity
            yield from functions(list(block.closures), qualname + ".")


def too_complex() -> list[str]:
    """``path:name (complexity)`` of every function above MAX_COMPLEXITY not yet pending."""
    found = []
    for path in modules():
        for qualname, complexity in functions(top_blocks(path.read_text(encoding="utf-8"))):
            key = f"{name_of(path)}:{qualname}"
            if complexity > MAX_COMPLEXITY and key not in PENDING:
                found.append(f"{key} ({complexity})")
    return found


def too_long() -> list[str]:
    """``path (lines)`` of every module above MAX_LINES that is neither data nor pending."""
    found = []
    for path in modules():
        lines = len(path.read_text(encoding="utf-8").splitlines())
        name = name_of(path)
        if lines > MAX_LINES and name not in DATA_MODULES and name not in PENDING:
            found.append(f"{name} ({lines})")
    return found


def test_no_function_above_complexity_25() -> None:
    assert too_complex() == []


def test_no_module_above_500_lines_except_data() -> None:
    assert too_long() == []


def test_the_checks_see_nested_functions_and_methods() -> None:
    """The walk finds methods and nested functions, with radon's figure for each."""
    code = (
        "class A:\n"
        "    def m(self, x):\n"
        "        if x:\n"
        "            return 1\n"
        "        return 2\n"
        "def f(x):\n"
        "    def g(y):\n"
        "        return y if y else 0\n"
        "    return g(x)\n"
    )
    found = dict(functions(top_blocks(code)))
    assert found["A.m"] == 2
    assert found["f.g"] == 2
    assert "f" in found



def test_no_issue_numbers_in_the_source() -> None:
    """A docstring says what the code does and cites the rule or the docs page, not the
    tracker's issue that asked for it (an issue number means nothing to the next reader)."""
    pattern = re.compile(r"\b[Ii]ssues? \d+")
    found = [f"{path.relative_to(SRC)}:{n}"
             for path in sorted(SRC.rglob("*")) if path.suffix in {".py", ".html", ".js", ".css"}
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if pattern.search(line)]
    assert found == []
