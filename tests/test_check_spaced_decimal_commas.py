"""Vectors with decimal commas whose entries are parted by a spaced comma: `[0,3 , 0,1]`.

Outside trial t188a (Indonesian thesis notes): `t0 = [0,2 , 0,3]` in a code span and `e1 = [1,0 , 1,25]` in a fence
with no language were read with decimal points kept, as four entries each, and `t0·e1 = 0,575` became "printed 0,
exact 75" (5 false findings on one page).  A spaced comma between numbers with decimal commas is no program's list:
it is a sign of decimal commas, and a fence with no language or a code span holding it is worked numbers
(readers/decimalcomma.py `_SPACED_TUPLE`).  With the projection [[1 , 0,5] , [0,5 , 1]] then read right, its ones
matched the exponentials' row maxima, which are 1 whatever the scores: no evidence of what it is (claims/identity.py).
Also `131 ribu`, Indonesian for 131 thousand, after arithmetic that gives 131072 (numbers.MAGNITUDE).
"""

from check_helpers import error_places

PAGE = """# Contoh kecil

Memori encoder (angka ilustratif, dimensi 2):

```
e1 = [1,2 , 0,4]
e2 = [0,5 , 1,5]
e3 = [0,3 , 0,3]
W_proj = [[1 , 0,5] , [0,5 , 1]]
```

Token awal `t0 = [0,3 , 0,1]`.

```
skor (dibagi √2):
  t0·e1 = 0,40 -> 0,283
  t0·e2 = 0,30 -> 0,212
  t0·e3 = 0,12 -> 0,085
```

Parameter LoRA: 16·(4096+4096) = 131 ribu.
"""



def test_the_page_holds():
    assert error_places(PAGE) == []


def test_a_slipped_dot_product_is_found():
    assert error_places(PAGE.replace("t0·e2 = 0,30", "t0·e2 = 0,35")) == [(17, "0.35")]


def test_a_wrong_magnitude_word_result_is_not_called_right_by_accident():
    # 131 ribu is 131 thousand: read as 131 it would be an error, as 131072 it holds
    assert error_places(PAGE.replace("131 ribu", "131072")) == []
