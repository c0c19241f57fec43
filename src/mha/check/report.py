"""Findings, notes and the report: text for people, JSON for programs."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field


def _where(line: int, cell: int | None) -> str:
    return f"cell {cell}, line {line}" if cell is not None else f"line {line}"


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
        s = f"{self.where}: {self.claim}: printed {self.printed}"
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
        s = f"not checked, {self.where}: {self.what}: {self.reason}"
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
        notes = f"; {len(self.notes)} note(s) on rounding" if self.notes else ""
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
            lines.append(("note, " if f.severity == "note" else "") + f.describe())
        lines += [n.describe() for n in self.not_checked]
        lines.append(self.summary())
        return "\n".join(lines) + "\n"

    def to_json(self) -> str:
        return json.dumps({
            "ok": self.ok, "claims": self.n_claims, "numbers": self.n_numbers, "format": self.format,
            "configuration": self.configuration, "evidence": self.evidence,
            "findings": [asdict(f) for f in self.findings],
            "not_checked": [asdict(n) for n in self.not_checked],
            "summary": self.summary(),
        }, ensure_ascii=False, indent=1, default=str)
