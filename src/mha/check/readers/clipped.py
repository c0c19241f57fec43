"""Code clipped into prose: a web page saved by a clipper (Obsidian's, a "save as Markdown" extension) loses its
code blocks' fences, writes each code line as a paragraph of its own and escapes the brackets and underscores in it
(`inputs = torch.tensor(`, blank, `\\[\\[0.43, 0.15, 0.89\\], # Your (x^1)`, blank, ...).  Read as prose, the rows of a
tensor are separate sentences and no matrix is read.  A run of such lines, each alone in its paragraph and each
looking like code, with the escapes that give the clipping away, is fenced again: the blank lines around the run hold
the fences (every line keeps its number) and the escapes are undone inside it."""

from __future__ import annotations

import re

from .refence import blank_around, fence_in_place, outside_fences

# a line of code as a clipper leaves it: an import, a def, a loop, a call, an assignment, a row of a literal
_CODE_LINE = re.compile(r"^\s*(?:import \w|from \w[\w.]* import |def \w|return |for .+ in .+:|print\(|"
                        r"[A-Za-z_][\w\\]*(?:\\?\[[^\]]*\\?\])?(?:\.\w+)?\s*[-+*/@]?=\s*\S|"
                        r"(?:tensor|array)\\?\(|\\\[|\\\]|\)\s*$)")
_ESCAPED = re.compile(r"\\[\[\]_*]")
_CJK = re.compile(r"[\u3000-\u9fff\uac00-\ud7af]")
# a TeX display on one line, `\[ = \text{softmax}\left(\begin{bmatrix} ... \]`, opens with the same escape and is
# no code: its commands say what it is
_TEX = re.compile(r"\\(?:begin|end|frac|sqrt|text|mathrm|left|right|cdot|times|operatorname)\b")
_LEAST = 3                # code lines in a run


def clipped_code(text: str) -> str:
    """Each run of clipped code lines (see the module) fenced, its escapes undone."""
    if "\\[" not in text and "\\_" not in text:
        return text
    lines = text.split("\n")
    outside = outside_fences(lines)
    k = 0
    while k < len(lines):
        if not outside[k] or not _code_line(lines[k]) or (k and lines[k - 1].strip()):
            k += 1
            continue
        end, code = k, [k]
        while end + 2 < len(lines) and not lines[end + 1].strip() and _code_line(lines[end + 2]):
            end += 2
            code.append(end)
        if len(code) >= _LEAST and any(_ESCAPED.search(lines[j]) for j in code) and blank_around(lines, k, end):
            for j in code:
                lines[j] = _ESCAPED.sub(lambda m: m.group(0)[1], lines[j])
            end = fence_in_place(lines, k, end)      # past the fence that closes it
        k = end + 1
    return "\n".join(lines)


def _code_line(line: str) -> bool:
    code = line.split("#", 1)[0]           # a comment may be in any language
    return bool(code.strip()) and not line.startswith(("#", ">", "|", "-", "*")) and not _CJK.search(code) and \
        bool(_CODE_LINE.match(line)) and not _TEX.search(line)
