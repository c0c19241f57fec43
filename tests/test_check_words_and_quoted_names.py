"""Sentences of arithmetic in languages with letters past ASCII, and token names in quotes (outside trial t199f, a
Turkish article):

* `... = 17,6191. Ağırlıklar buradan çıkıyor: ...`: the tokenizer knew no `ğ`, so `Ağırlıklar` was no capitalised
  word, the sentence did not end at its full stop, and the sum before it went unjudged.  Letters of the Latin
  supplements and extensions (Turkish, German, French, Spanish, Portuguese, Vietnamese) are letters now.
* `"serin" 2,7183 / 17,6191 = 0,154`: a word in quotes before the arithmetic made the whole of it a label.
"""

from check_helpers import error_places

SENTENCES = """# Ağırlıklar

Üç anahtarın üstelleri 2,7183, 12,1825 ve 2,7183; toplamı ise 2,7183 + 12,1825 + 2,7183 = 17,6191. Ağırlıklar
buradan çıkıyor: "serin" 2,7183 / 17,6191 = 0,154, "deniz" 12,1825 / 17,6191 = 0,691.
"""


def test_the_turkish_sentences_hold():
    assert error_places(SENTENCES) == []


def test_a_slipped_sum_before_a_sentence_that_opens_with_a_turkish_letter_is_found():
    assert error_places(SENTENCES.replace("= 17,6191.", "= 17,6291.")) == [(3, "17.6291")]


def test_a_slipped_weight_after_a_quoted_name_is_found():
    assert error_places(SENTENCES.replace("= 0,154", "= 0,164")) == [(4, "0.164")]


GERMAN = """# Gewichte

Die Gewichte der drei Schlüssel sind 0,0900; 0,2447 und 0,6652.

Die Exponentialwerte ergeben zusammen 1,0000 + 2,7183 + 7,3891 = 11,1074. Übrigens ist das Gewicht des dritten
Schlüssels 7,3891 / 11,1074 = 0,6652.
"""


def test_a_german_page_holds():
    assert error_places(GERMAN) == []


def test_its_slipped_sum_is_found():
    assert error_places(GERMAN.replace("= 11,1074.", "= 11,1174.")) == [(5, "11.1174")]
