"""Mutation testing of one rules module against its own tests (issue 16), around mutmut 2.

    .venv/bin/pip install -e '.[mutation]'
    .venv/bin/python tools/mutation.py src/tramways/g1840/market.py
    .venv/bin/python tools/mutation.py src/tramways/trambahn/rules.py --tests tests/trambahn

mutmut changes the module one small thing at a time (an operator, a number, a string, a
keyword) and runs the module's tests against each change; a change the tests notice is
*killed*, one they do not notice *survived*.  The run happens in a copy of the repository in a
temporary directory, so the worktree is never touched and nothing is left behind.

It prints one JSON object::

    {"module", "mutants", "killed", "survived", "kill_rate", "behaviour_kill_rate", ...}

``killed`` counts timeouts too (the tests noticed: the mutant never finished; ``--time-base``
keeps a loaded machine from passing slowness off as a timeout).  A mutant that
changes only message text (an f-string or a string with a space, as an ``IllegalAction``
message or a log line; never the rule id an ``IllegalAction`` names, nor a key like
``"horse"``) changes no rule:
``behaviour_kill_rate`` leaves those out (``text_only``); ``behaviour_survivors`` lists the
surviving mutants that do change behaviour (``line: before -> after``), to be killed by a new
test or explained as equivalent.

Not part of CI: it runs the tests once per mutant (minutes to an hour on two cores).
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

OWN_TESTS: dict[str, list[str]] = {
    "src/tramways/g1840/market.py": ["tests/g1840/test_x_share_prices.py"],
    "src/tramways/trambahn/rules.py": ["tests/trambahn/test_rules.py",
                                       "tests/trambahn/test_rules_step_order.py",
                                       "tests/trambahn/test_rules_offers.py"],
    "src/tramways/g1840/routes/validate.py": ["tests/g1840/test_ix7_routes.py",
                                              "tests/g1840/test_ix8_income.py",
                                              "tests/g1840/test_routes_notation.py"],
    "src/tramways/g1840/legality/stations.py": ["tests/g1840/test_ix6_stations.py",
                                                "tests/g1840/test_audit_ix6_home_base.py"],
    "src/tramways/g1840/rounds/company.py": ["tests/g1840/test_viii_company_rounds.py",
                                             "tests/g1840/test_viii_company_round_refusals.py",
                                             "tests/g1840/test_viii_company_round_turns.py",
                                             "tests/g1840/test_viii_company_round_steps.py",
                                             "tests/g1840/test_game_ruleset_18xx.py",
                                             "tests/g1840/test_viii_trams.py",
                                             "tests/g1840/test_viii52_stadtbahn_runs.py",
                                             "tests/g1840/test_viii53_mandatory_no_tram_on_sale.py",
                                             "tests/g1840/test_audit_viii53_scrap_any_time.py",
                                             "tests/g1840/test_audit_viii6_rearrange.py"],
}
"""Each rules module's own tests (``--tests`` names others)."""


RUNNER_OPTIONS = ("-x", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                  "-p", "no:xdist", "-p", "no:anyio", "-p", "no:hypothesispytest")
"""pytest options of each mutant's run: stop at the first failure, and no plugins the rules
tests do not need (loading them took two thirds of a run's time: about 1.3 s -> 0.45 s of CPU
per mutant; a test using Hypothesis imports it itself)."""


def _code_tokens(line: str) -> list[tuple[int, str]]:
    """The tokens of one source line with every string's text blanked (as far as the line
    tokenizes on its own: a line of a longer statement stops at the first error)."""
    out: list[tuple[int, str]] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(line.strip() + "\n").readline):
            if tok.type in (tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT,
                            tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
                continue
            if tok.type in _FSTRING_PARTS or (tok.type == tokenize.STRING
                                              and _is_message(tok.string, out)):
                out.append((tokenize.STRING, ""))
            else:
                out.append((tok.type, tok.string))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        out.append((-1, "<partial>"))
    return out


_FSTRING_PARTS = {getattr(tokenize, n) for n in ("FSTRING_START", "FSTRING_MIDDLE",
                                                 "FSTRING_END") if hasattr(tokenize, n)}


def _is_message(literal: str, before: list[tuple[int, str]]) -> bool:
    """A string literal is message text if it is an f-string or holds a space (words for
    people), unless it is the rule id of an ``IllegalAction`` (its first argument).  Keys and
    names (``"extra"``, ``"horse"``, ``"IX.6"``) are behaviour."""
    if before[-2:] == [(tokenize.NAME, "IllegalAction"), (tokenize.OP, "(")]:
        return False
    prefix = literal[: len(literal) - len(literal.lstrip("rRbBuUfF"))]
    return "f" in prefix.lower() or any(ch.isspace() for ch in literal)


def text_only(before: str, after: str) -> bool:
    """True if the mutant changes only message text (see :func:`_is_message`) in its line."""
    return before != after and _code_tokens(before) == _code_tokens(after)


class _Messages(ast.NodeTransformer):
    """Blanks message text: every f-string, every string with a space, and the message (all
    but the rule id) of an ``IllegalAction(rule, message)``, whatever its expression."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        if name == "IllegalAction" and node.args:
            node.args[1:] = [ast.Constant("") for _ in node.args[1:]]
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        return ast.Constant("")

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, str) and any(ch.isspace() for ch in node.value):
            return ast.Constant("")
        return node


def _blanked(source: str) -> str:
    return ast.dump(_Messages().visit(ast.parse(source)))


def text_only_in(source: str, number: int | None, before: str, after: str) -> bool:
    """True if the mutant replacing the lines ``before`` at line ``number`` of the module
    ``source`` by ``after`` changes only message text, judged on the whole module's syntax
    tree (so a string on a line of a longer statement is judged in its statement: the
    message of an ``IllegalAction`` split over lines is text); :func:`text_only` on the line
    alone when the module cannot be rebuilt."""
    lines = source.splitlines()
    old = before.splitlines()
    if number is None or lines[number - 1: number - 1 + len(old)] != old:
        return text_only(before, after)
    mutated = "\n".join(lines[: number - 1] + after.splitlines() + lines[number - 1 + len(old):])
    try:
        return before != after and _blanked(source) == _blanked(mutated)
    except SyntaxError:
        return text_only(before, after)


def _diff_lines(diff: str) -> tuple[str, str, int | None]:
    """The removed lines, the added lines and the line number (in the module) of the first
    changed line of a unified diff of one mutant (``mutmut show``).  A hunk header names the
    first line of its context (``@@ -31,7 +31,7 @@``), so the context lines before the first
    change are counted on top of it."""
    before = [ln[1:] for ln in diff.splitlines() if ln.startswith("-") and not ln.startswith("---")]
    after = [ln[1:] for ln in diff.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    number = None
    lines = diff.splitlines()
    for i, ln in enumerate(lines):
        if ln.startswith("@@"):
            try:
                number = int(ln.split()[1].split(",")[0].lstrip("-"))
            except (IndexError, ValueError):
                return "\n".join(before), "\n".join(after), None
            for rest in lines[i + 1:]:
                if rest.startswith(("-", "+")):
                    break
                number += 1
            break
    return "\n".join(before), "\n".join(after), number


def _mutmut(work: Path, *args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("mutmut", path=str(Path(sys.executable).parent)) or "mutmut"
    return subprocess.run([exe, *args], cwd=work, text=True, capture_output=True, check=check)


_DIFFS = """
import json, sys
from mutmut.cache import get_unified_diff
print(json.dumps({i: get_unified_diff(int(i), "", update_cache=False) for i in sys.argv[1:]}))
"""


def _diffs(work: Path, ids: list[int]) -> dict[int, str]:
    """``mutmut show ID`` of every mutant in one process (one ``mutmut show`` per mutant took
    minutes on a loaded machine)."""
    if not ids:
        return {}
    out = subprocess.run([sys.executable, "-c", _DIFFS, *map(str, ids)], cwd=work, text=True,
                         capture_output=True, check=True).stdout
    return {int(k): v for k, v in json.loads(out).items()}


def _ids(work: Path, status: str) -> list[int]:
    out = _mutmut(work, "result-ids", status).stdout.split()
    return [int(x) for x in out if x.isdigit()]


def measure(module: str, tests: list[str], keep: bool = False,
            time_base: float = 30.0) -> dict[str, object]:
    base = Path(tempfile.mkdtemp(prefix="tramways-mutation-"))
    work = base / "repo"
    work.mkdir()
    if (ROOT.parent / "shared").is_dir():  # tests reading ../shared find it (else they skip)
        os.symlink(ROOT.parent / "shared", base / "shared")
    try:
        for part in ("src", "tests", "pyproject.toml"):
            _copy(part, work)
        _run(work, module, tests, time_base)
        return summarize(work, module, tests)
    finally:
        if keep:
            print(f"kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(base, ignore_errors=True)


def again(work: Path, module: str, tests: list[str], time_base: float = 30.0) -> dict[str, object]:
    """Run the mutants of a kept run that were not killed (survived, or never run: a run
    stopped half-way) again, against the tests of the worktree as they are now (new tests
    copied in).  mutmut keeps a killed mutant killed when the tests change (tests added can
    only kill more); the module itself must be unchanged, or the old mutants mean nothing."""
    if (work / module).read_bytes() != (ROOT / module).read_bytes():
        raise SystemExit(f"{module} changed since the run in {work}: measure it afresh")
    shutil.rmtree(work / "tests")
    _copy("tests", work)
    _run(work, module, tests, time_base)
    return summarize(work, module, tests)


def _copy(part: str, work: Path) -> None:
    src = ROOT / part
    if src.is_dir():
        shutil.copytree(src, work / part, ignore=shutil.ignore_patterns(
            "__pycache__", "*.pyc", ".hypothesis"))
    else:
        shutil.copy2(src, work / part)


def _run(work: Path, module: str, tests: list[str], time_base: float) -> None:
    """``mutmut run`` in ``work``, then each mutant it left untested on its own.

    mutmut 2 looks up the cached status of a line by its text: a line whose text recurs
    (``p = state.turn``) takes the status of its first copy and its mutants are never run
    (left "untested"); ``mutmut run ID`` runs one of them.  Nothing may read the cache
    meanwhile (``mutmut results``, ``--summarize``): a locked database stops mutmut for good."""
    env = dict(os.environ, PYTHONPATH=str(work / "src"))
    runner = " ".join([sys.executable, "-m", "pytest", *RUNNER_OPTIONS, *tests])
    options = ["--paths-to-mutate", module, "--tests-dir", "tests", "--runner", runner,
               "--no-progress", "--test-time-base", str(time_base)]
    exe = shutil.which("mutmut", path=str(Path(sys.executable).parent)) or "mutmut"
    proc = subprocess.run([exe, "run", *options], cwd=work, env=env, text=True,
                          capture_output=True)
    if proc.returncode & 1:
        raise SystemExit(f"mutmut failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    for mid in _ids(work, "untested"):
        proc = subprocess.run([exe, "run", str(mid), *options], cwd=work, env=env, text=True,
                              capture_output=True)
        if proc.returncode & 1:
            raise SystemExit(f"mutmut failed on mutant {mid}:\n{proc.stdout[-2000:]}")


def summarize(work: Path, module: str, tests: list[str]) -> dict[str, object]:
    """The JSON figures of a finished mutmut run in ``work`` (its ``.mutmut-cache``)."""
    # mutmut's "suspicious": the tests failed, slowly (killed all the same)
    killed = _ids(work, "killed") + _ids(work, "suspicious")
    timeout = _ids(work, "timeout")
    survived = _ids(work, "survived")
    untested = _ids(work, "untested")
    text: set[int] = set()
    survivors: list[str] = []
    diffs = _diffs(work, sorted(killed + timeout + survived))
    source = (work / module).read_text()
    for mid in sorted(killed + timeout + survived):
        before, after, number = _diff_lines(diffs[mid])
        if text_only_in(source, number, before, after):
            text.add(mid)
        elif mid in survived:
            survivors.append(f"{number}: {before.strip()} -> {after.strip()}")
    mutants = len(killed) + len(timeout) + len(survived)
    caught = len(killed) + len(timeout)
    behaviour = mutants - len(text)
    behaviour_caught = caught - len(text & set(killed + timeout))
    return {
        "module": module,
        "mutants": mutants,
        "killed": caught,
        "survived": len(survived),
        "kill_rate": round(caught / mutants, 4) if mutants else None,
        "behaviour_kill_rate": round(behaviour_caught / behaviour, 4) if behaviour else None,
        "timeout": len(timeout),
        "text_only": len(text),
        "untested": len(untested),
        "tests": tests,
        "behaviour_survivors": survivors,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("module", help="path of the module, e.g. src/tramways/g1840/market.py")
    parser.add_argument("--tests", nargs="+", help="test files or directories (default: the "
                        "module's own tests, see OWN_TESTS)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary copy")
    parser.add_argument("--time-base", type=float, default=30.0, help="seconds a mutant's "
                        "tests may take beyond twice the clean run before it counts as a "
                        "timeout (mutmut's --test-time-base; generous on a loaded machine)")
    parser.add_argument("--summarize", metavar="DIR", help="only print the figures of a run "
                        "kept with --keep in DIR (no new run)")
    parser.add_argument("--again", metavar="DIR", help="run the mutants of a run kept with "
                        "--keep in DIR that were not killed again, against the tests as they "
                        "are now (after adding tests for its survivors)")
    args = parser.parse_args(argv)
    module = Path(args.module).as_posix()
    if not (ROOT / module).is_file():
        parser.error(f"no module {module}")
    tests = args.tests or OWN_TESTS.get(module)
    if not tests:
        parser.error(f"no own tests known for {module}: name them with --tests")
    if args.summarize:
        figures = summarize(Path(args.summarize), module, tests)
    elif args.again:
        figures = again(Path(args.again), module, tests, time_base=args.time_base)
    else:
        figures = measure(module, tests, keep=args.keep, time_base=args.time_base)
    print(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
