"""The mask dimension of the search: none, causal (as the text says it, near the example), or the pattern of the
-∞ the scores print (a mixin of the search, beside Options and Starts)."""

from __future__ import annotations

import numpy as np

from .candidates import Choice
from .prepare import Obj


class MaskOptions:
    """Mask choices, read from the document's objects and hints."""

    objs: list[Obj]
    hint_list: list

    def _causal_near(self, T: int, S: int) -> bool:
        """Does the text speak of a causal mask near the printed T×S scores or weights (a lecture's section on masks
        1,400 lines after an unmasked example says nothing of that example)?  Anywhere, when none is printed."""
        said = [h.place for h in self.hint_list if h.kind == "causal"]
        grids = [o.a.place for o in self.objs if o.val.ndim == 2 and o.val.shape == (T, S) and T >= 2]
        if not said or not grids:
            return bool(said)
        return any(abs(p.line - g.line) <= 120 if p.cell is None or g.cell is None else abs(p.cell - g.cell) <= 6
                   for p in said for g in grids)

    def mask_options(self, T: int, S: int) -> list[Choice]:
        causal = self._causal_near(T, S)
        # weights printed live above the diagonal (every row sums to 1, no entry after the diagonal is 0): an
        # unmasked attention is printed, so a causal mask wins only by explaining more numbers, never a tie
        live = any(_live_weights(o, T, S) for o in self.objs)
        out = [Choice(None, "no mask", frozenset(), 0.3 if causal and not live else 0.0),
               Choice("top_left", "causal", frozenset(), (0.0 if causal else 0.5) + (0.6 if live else 0.0))]
        if T != S:
            out.append(Choice("bottom_right", "causal (bottom right)", frozenset(), 0.6))
        # the -inf pattern of printed scores
        pats = []
        for o in self.objs:
            if o.val.shape == (T, S) and o.slices == 1 and np.isneginf(o.val).any():
                pats.append(~np.isneginf(o.val))
        if pats:
            first = pats[0]
            if all((p == first).all() for p in pats) and not (first == np.tril(np.ones((T, S), bool))).all():
                if first.any(axis=1).all():
                    lengths = first.sum(axis=1)
                    if (first == (np.arange(S)[None, :] < lengths[:, None])).all() and len(set(lengths)) == 1:
                        out.append(Choice({"key_lengths": [int(lengths[0])]}, f"padding: {int(lengths[0])} keys",
                                          frozenset(), 0.3))
                    else:
                        out.append(Choice({"mask": first.tolist()}, "the mask of the printed -∞", frozenset(), 0.5))
        kept = {_padded_keys(o, T, S) for o in self.objs} - {None}
        if len(kept) == 1 and not any(isinstance(c.value, dict) and "key_lengths" in c.value for c in out):
            n = kept.pop()
            out.append(Choice({"key_lengths": [n]}, f"padding: {n} keys", frozenset(), 0.3))
        return out


def _padded_keys(o: Obj, T: int, S: int) -> int | None:
    """The keys a printed T×S matrix of attention weights keeps when its last columns print exactly 0 in every row
    and the rest of each row sums to 1 (a key padding mask: "token 3 is [PAD]"); None for any other matrix."""
    v = o.val
    if v is None or o.slices != 1 or v.shape != (T, S) or T < 2 or S < 2 or not np.isfinite(v).all():
        return None
    if (v < 0).any() or (v > 1).any() or not np.allclose(v.sum(axis=1), 1.0, atol=0.02):
        return None
    n = S
    while n > 1 and (v[:, n - 1] == 0).all():
        n -= 1
    return n if n < S and (v[:, :n] > 0).all() else None



def _live_weights(o: Obj, T: int, S: int) -> bool:
    """A printed T×S matrix of attention weights (entries in [0, 1], rows summing to 1) with no zero after the
    diagonal."""
    v = o.val
    if v is None or o.slices != 1 or v.shape != (T, S) or T < 2 or not np.isfinite(v).all():
        return False
    if (v < 0).any() or (v > 1).any() or not np.allclose(v.sum(axis=1), 1.0, atol=0.02):
        return False
    return bool((v[np.triu_indices(T, 1, S)] > 0).all())
