"""A Numba seat's types come from the text that documents them (sim.signatures): every game's declared
decisions compile to the types written out here, and a malformed text is refused."""
import pytest
from numba import types

from cardlab.sim.games import GAMES, game
from cardlab.sim.signatures import numba_signature

u, i, b = types.uint64, types.int64, types.boolean
counts = types.int64[::1]
EXPECTED = {  # the types each decision's text states, written out by hand
    ("barbu", "card"): i(u, u, i, i, i, b, u, types.int32[::1], i),
    ("barbu", "domino"): i(u, u, u, u, u, counts, b),
    ("euchre5", "card"): i(u, u, i, i, i, b, i, i, i, i, i, i, u, i),
    ("euchre5", "bid"): i(u, i, i, i, i),
    ("hearts", "card"): i(u, u, i, i, i, u, u, b),
    ("minchiate", "card"): i(u, u, u, u, i, i, i, b, u, u),
    ("rami", "discard"): i(counts, i, b, b, counts),
    ("rami", "draw"): i(counts, i, b, b, b, counts),
    ("rami", "meld"): i(counts, b, b, i, b, counts),
}


def test_every_declared_decision_compiles_to_the_types_its_text_states():
    declared = {(name, key): d.numba_signature() for name in GAMES if game(name).numba_seat
                for key, d in game(name).numba_seat.decisions().items()}
    assert declared == EXPECTED


def test_comments_may_hold_commas_and_array_lengths_are_documentation():
    text = "f(a: int64 (a number, or -1), b: int32[13] (per rank)) -> bool (yes, or no)"
    assert numba_signature(text) == b(i, types.int32[::1])


@pytest.mark.parametrize("text, says", [("f(a: float64) -> int64", "'float64' is not one of"),
                                        ("f(a: int64)", "is not of the form"),
                                        ("f -> int64", "is not of the form")])
def test_a_malformed_signature_is_refused_in_one_line(text, says):
    with pytest.raises(ValueError, match=says):
        numba_signature(text)
