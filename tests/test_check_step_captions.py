"""Per-token vectors worked step by step, each step's result a bare tuple under a bold caption:
"**Step 3 — softmax:**" over `$(0.456,\\; 0.320,\\; 0.225)$.`

Outside trial t189c: the weights under such a caption were "unlabelled" and never judged, and with one of them
slipped the start from q and the k_j, v_j explained too little to count, so the page was "not inferred" and its
wrong output went unreported.  A paragraph of inline math alone under a caption naming the softmax step is the
weights (readers/markdown.py `_math_alone`, readers/listed.py `_STEP_CAPTION`); and printouts two thirds right, two
or more of them, are enough for a start to count (infer/search.py `_mostly`).
"""

from check_helpers import error_places

PAGE = """# One query by hand

Query $\\mathbf{q} = [0.5, 1.0]$, with $d_k = 2$.

- $\\mathbf{k}_1 = [1, 1],\\ \\mathbf{v}_1 = [2, 0]$
- $\\mathbf{k}_2 = [0, 1],\\ \\mathbf{v}_2 = [0, 1]$
- $\\mathbf{k}_3 = [1, 0],\\ \\mathbf{v}_3 = [1, 1]$

**Step 1 — scores:**

- $\\mathbf{q}^\\top \\mathbf{k}_1 = 0.5 + 1.0 = 1.5$
- $\\mathbf{q}^\\top \\mathbf{k}_2 = 0 + 1.0 = 1.0$
- $\\mathbf{q}^\\top \\mathbf{k}_3 = 0.5 + 0 = 0.5$

**Step 2 — scale by $\\sqrt{2}$:**

$(1.06,\\; 0.71,\\; 0.35)$.

**Step 3 — softmax:**

$(0.456,\\; 0.320,\\; 0.225)$.

**Step 4 — weighted sum:**

$\\mathbf{z} \\approx [1.14,\\; 0.54]$.
"""



def test_the_page_holds():
    assert error_places(PAGE) == []


def test_a_slipped_weight_under_the_caption_is_found():
    assert error_places(PAGE.replace("0.320,", "0.330,")) == [(21, "0.330")]


def test_a_slipped_weight_beside_a_wrong_output_keeps_the_start():
    page = PAGE.replace("0.320,", "0.330,").replace("[1.14,", "[1.15,")
    assert error_places(page) == [(21, "0.330"), (25, "1.15")]
