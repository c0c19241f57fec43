"""A cache size worked in bytes and then said in GiB, with TeX's thousands separators:

    $$2 \\times 32 \\times 1 \\times 4096 \\times 32 \\times 128 \\times 2 = 2{,}147{,}483{,}648\\ \\text{字节} = 2\\ \\text{GiB}$$

On a page whose other numbers use decimal points and one lone `524{,}288`, the separators were left in place, the
number split at them, and `= 2 GiB` was then judged as the byte count (one error on a right line, an outside
trial's page, t237d).  A number with two separators or more groups thousands whatever the page's commas
(`readers/decimalcomma.py`), and a unit after TeX's spacing (`2\\ \\text{GiB}`) is the result's unit
(`claims/setequal.py`).  My own page around that arithmetic; a slipped byte count is still found."""

from check_helpers import error_findings, line_of


def _page(total="2{,}147{,}483{,}648", gib="2"):
    return "\n".join([
        "**KV cache, worked by hand**", "",
        "$$Q=\\begin{bmatrix}1&0\\\\0&1\\end{bmatrix},\\quad K=\\begin{bmatrix}1&0\\\\1&1\\end{bmatrix},\\quad "
        "V=\\begin{bmatrix}2&0\\\\0&2\\end{bmatrix}$$", "",
        "$$A=\\begin{bmatrix}0.6698&0.3302\\\\0.3302&0.6698\\end{bmatrix}$$", "",
        "每个 token 每层存 K 和 V: $2\\times32\\times128=8192$ 个元素, 全模型 $8192\\times32\\times2=524{,}288$ 字节. "
        "一条 4096 token 的序列:", "",
        f"$$2 \\times 32 \\times 1 \\times 4096 \\times 32 \\times 128 \\times 2 = {total}\\ \\text{{字节}} = "
        f"{gib}\\ \\text{{GiB}}$$", ""])


def test_bytes_said_again_in_gib_hold():
    page = _page()
    assert error_findings(page) == []


def test_a_slipped_byte_count_is_found():
    page = _page(total="2{,}147{,}843{,}648")
    errs = error_findings(page)
    assert [f.line for f in errs] == [line_of(page, "4096 \\times")], [f.message for f in errs]
