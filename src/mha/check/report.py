"""Findings, notes and the report: text for people and editors (`path:line: error: ...`, as ruff and mypy print
them), JSON for programs, and GitHub workflow annotations."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field


def _where(line: int, cell: int | None) -> str:
    return f"cell {cell}, line {line}" if cell is not None else f"line {line}"


def location(path: str, line: int, cell: int | None) -> str:
    """Where a finding is, as editors and terminals jump to it: path:line, or path:cell N:line L in a notebook."""
    return f"{path}:cell {cell}:line {line}" if cell is not None else f"{path}:{line}"


@dataclass
class Finding:
    """One printed value (or shape, or arithmetic line) that disagrees with the configuration."""
    line: int
    cell: int | None
    claim: str                      # what the document states, e.g. "A^(1)[2,3]"
    printed: str
    exact: float | str | None
    rounded: str | None             # the exact value printed the way the document prints this number
    step: str
    cause: str | None = None
    kind: str = "wrong_value"       # the slip vocabulary: swapped_digits, dropped_sign, transposed, ...
    severity: str = "error"         # error, or note (follows from the rounded values printed before it)

    @property
    def where(self) -> str:
        return _where(self.line, self.cell)

    def describe(self) -> str:
        return f"{self.where}: {self.message()}"

    def message(self) -> str:
        """The finding without its place."""
        s = f"{self.claim}: printed {self.printed}"
        if self.exact is not None:
            exact = f"{self.exact:.6g}" if isinstance(self.exact, float) else str(self.exact)
            s += f"; exact {exact}" + (f", rounds to {self.rounded}" if self.rounded is not None else "")
        s += f" [{self.step}]"
        if self.cause:
            s += f"; {'note' if self.severity == 'note' else 'likely cause'}: {self.cause}"
        return s


@dataclass
class NotChecked:
    line: int
    cell: int | None
    what: str
    reason: str
    nearest: str | None = None
    distance: float | None = None

    @property
    def where(self) -> str:
        return _where(self.line, self.cell)

    def describe(self) -> str:
        return f"not checked, {self.where}: {self.message()}"

    def message(self) -> str:
        s = f"{self.what}: {self.reason}"
        if self.nearest:
            s += f" (nearest: {self.nearest}" + (f", max difference {self.distance:.3g}" if self.distance is not None
                                                 else "") + ")"
        return s


@dataclass
class Report:
    findings: list[Finding]
    n_claims: int
    n_numbers: int
    configuration: dict[str, str]
    evidence: list[str] = field(default_factory=list)
    not_checked: list[NotChecked] = field(default_factory=list)
    format: str = "text"
    mapping: dict | None = None
    path: str = "-"                 # the document's path as given, "-" for stdin

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def notes(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "note"]

    @property
    def ok(self) -> bool:
        return not self.errors

    @property
    def exit_code(self) -> int:
        return 0 if self.ok and self.n_claims else 1

    def summary(self) -> str:
        tail = f"; {len(self.not_checked)} object(s) not checked" if self.not_checked else ""
        carried = sum(1 for n in self.notes if _after_slip(n))
        notes = (f"; {len(self.notes) - carried} note(s) on rounding" if len(self.notes) > carried else "") + \
            (f"; {carried} note(s) on values carried from a slip found before" if carried else "")
        if self.ok and self.n_claims and not self.n_numbers:
            # claims that compare no printed number (a size, a formula's form): say so, not "all hold"
            return f"{self.n_claims} claim(s) hold, but no printed number was checked{notes}{tail}"
        if self.ok and not self.n_claims:
            # every object doubted or unmatched: nothing verified, which is no pass (exit status 1)
            return f"no claim could be checked, so nothing is verified{notes}{tail}"
        if self.ok:
            return f"all {self.n_claims} claims hold ({self.n_numbers} numbers checked){notes}{tail}"
        return (f"{len(self.errors)} finding(s) in {self.n_claims} claims "
                f"({self.n_numbers} numbers checked){notes}{tail}")

    def to_text(self) -> str:
        # the start is said when it is not X with weights (infer/starts.py): "starts from raw scores given ..."
        lines = ["configuration: " + "; ".join(v for k, v in self.configuration.items()
                                               if k != "mode" or v.startswith("starts from"))]
        lines += ["  " + e for e in self.evidence]
        for f in sorted(self.findings, key=lambda f: (f.cell or 0, f.line)):
            lines.append(f"{location(self.path, f.line, f.cell)}: {f.severity}: {f.message()}")
        lines += [f"{location(self.path, n.line, n.cell)}: not checked: {n.message()}" for n in self.not_checked]
        lines.append(self.summary())
        return "\n".join(lines) + "\n"

    def to_json(self) -> str:
        return json.dumps({
            "ok": self.ok, "claims": self.n_claims, "numbers": self.n_numbers, "format": self.format,
            "path": self.path, "configuration": self.configuration, "evidence": self.evidence,
            "findings": [asdict(f) for f in self.findings],
            "not_checked": [asdict(n) for n in self.not_checked],
            "summary": self.summary(),
        }, ensure_ascii=False, indent=1, default=str)

    def to_github(self) -> str:
        """One GitHub workflow annotation per finding (::error, or ::notice for a note on rounding), then the
        summary as a plain log line.  A notebook's line is inside its cell, not in the .ipynb file, so its
        annotations name the file alone and start with "cell N, line L"."""
        lines = []
        for f in sorted(self.findings, key=lambda f: (f.cell or 0, f.line)):
            props = {} if self.path == "-" else {"file": self.path}
            message = f.message()
            if f.cell is None:
                props["line"] = str(f.line)
            else:
                message = f"{f.where}: {message}"
            props["title"] = "mha check"
            level = "notice" if f.severity == "note" else "error"
            lines.append(f"::{level} " + ",".join(f"{k}={_escape(v, True)}" for k, v in props.items())
                         + "::" + _escape(message))
        lines.append(f"mha check {self.path}: {self.summary()}")
        return "\n".join(lines) + "\n"


def _escape(text: str, prop: bool = False) -> str:
    """GitHub's escaping of workflow command data (and, in properties, of ':' and ',')."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def _after_slip(n: Finding) -> bool:
    """A note on a value that repeats, or follows from, one found wrong before: every such note points to that line
    ("follows from line 12: ..."), where a note on rounding says what it follows from ("follows from the rounded
    ...")."""
    return (n.cause or "").startswith("follows from line")
