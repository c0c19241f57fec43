"""A shape said of another example in the section that works it (`claims/shape.py` asks): "Compute
$Q_{text} K_{image}^\\top$ (shape: 2 x 4)", "V had shape (4 x 1)", "the output has shape (2 x 1)" under a
cross-attention example whose Q_text (2×3), K_image (4×3) and V_image (4×1) are printed a few lines up, while the
inferred configuration is the page's first, self-attention example.  The statement describes the printed matrices
beside it, which the configuration sets aside as another example's; judged against the configuration, every right
shape there was "wrong"."""

from __future__ import annotations

_OUTPUTS = {"Y", "O", "O_concat"}


def shape_of_another_example(j, s) -> bool:
    """Do the dims the claim s states belong to matrices printed before it in its own section, not shaped as the
    configuration has them: a matrix of that name with those dims, or (for an output, or Q Kᵀ) the product that the
    section's own Q, K and V give?"""
    sec = j.section_of(s.place)
    here = [o for o in j.objs if o.val is not None and o.val.ndim == 2 and o.ref is not None and
            j.section_of(o.a.place) == sec and o.a.place.order <= s.place.order]
    nodes = set(s.ref.nodes)
    dims = list(s.dims)

    def shaped(node: str) -> list[list[int]]:
        return [list(o.val.shape) for o in here if o.ref.nodes[0] == node]

    if any(set(o.ref.nodes) & nodes and list(o.val.shape) == dims for o in here):
        return not _configuration_has(j, dims)
    if len(dims) != 2:
        return False
    qs, ks, vs = shaped("Q"), shaped("K"), shaped("V")
    if nodes & {"QKt", "S"} and any([q[0], k[0]] == dims for q in qs for k in ks):
        return not _configuration_has(j, dims)
    if nodes & _OUTPUTS and any([q[0], v[1]] == dims for q in qs for v in vs):
        return not _configuration_has(j, dims)
    return False


def _configuration_has(j, dims: list[int]) -> bool:
    """Is some intermediate of the configuration shaped so (then the claim is the configuration's to judge)?"""
    return any(list(v.M.shape) == dims for v in j.vs.views) if j.vs is not None else False

