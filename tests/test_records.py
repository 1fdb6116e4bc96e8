"""Every game's records validate against the JSON Schema its package ships (``record.schema.json``, read by
``Game.record_schema``), over the registry: single deals and whole games of ``replay --json``, the
records of the step API (what ``cardlab play`` saves) and the search's records. A replayed deal's record
holds what reproduces it, so the ``--record`` check accepts it as it stands. The fast tier checks a few
hundred deals per game; the slow tier thousands, under both built-in tables."""
from __future__ import annotations

import copy

import numpy as np
import pytest
from jsonschema import Draft202012Validator

from cardlab.sim import games
from cardlab.sim.play import check_record, saved_record

NAMES = list(games.GAMES)


def validator(name: str) -> Draft202012Validator:
    schema = games.game(name).record_schema()
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def assert_valid(name: str, records) -> int:
    v = validator(name)
    for record in records:
        errors = sorted(v.iter_errors(record), key=lambda e: list(e.path))
        assert not errors, f"{name} deal {record.get('deal')}: {errors[0].message} at {list(errors[0].path)}"
    return len(records)


def _mixed(name: str) -> str:
    g = games.game(name)
    return ",".join(("random", "heuristic")[s % 2] for s in range(g.players(g.Options())))


@pytest.mark.parametrize("name", NAMES)
def test_the_schema_ships_with_the_game_and_is_a_schema(name):
    schema = games.game(name).record_schema()
    Draft202012Validator.check_schema(schema)
    assert schema["title"] and "actions" in schema["required"]
    for key in ("game", "options", "policies", "seed"):
        assert key in schema["required"], key


@pytest.mark.parametrize("name", NAMES)
def test_replayed_deals_and_games_validate(name):
    g = games.game(name)
    deals = g.replay(deal="0:60", seed=2, policy=_mixed(name)).records
    played = g.replay_game(game="0:2", seed=2).records
    assert assert_valid(name, deals) == 60 and assert_valid(name, played) >= 2
    assert all(r["game"] == name and r["seed"] == 2 and r["policies"] == _mixed(name).split(",") for r in deals)


@pytest.mark.parametrize("name", NAMES)
def test_a_replayed_record_is_one_the_record_check_accepts(name):
    """What reproduces a deal is in its record: ``cardlab replay <game> --record`` checks it unchanged."""
    g = games.game(name)
    for record in g.replay(deal="3:6", seed=9).records:
        assert list(check_record(g, record).scores()) == record["scores"]


@pytest.mark.parametrize("name", NAMES)
def test_a_record_of_a_variant_file_validates_and_replays(name, tmp_path):
    """A run from a variant file records the file beside the options; its records still validate and check."""
    from dataclasses import fields

    g = games.game(name)
    first = next(f for f in fields(g.Options) if isinstance(f.default, (bool, int, str)))
    value = str(first.default).lower() if isinstance(first.default, bool) else repr(first.default)
    path = tmp_path / "house.toml"
    path.write_text(f"{first.name} = {value}\n".replace("'", '"'))
    records = g.replay(deal="0:3", seed=4, variant=str(path)).records
    assert assert_valid(name, records) == 3
    assert all(r["variant"]["options"] == {first.name: first.default} for r in records)
    assert [list(check_record(g, r).scores()) for r in records] == [r["scores"] for r in records]


def test_a_barbu_record_rebuilds_its_deal_from_its_contracts():
    barbu = games.game("barbu")
    for record in barbu.replay(deal="0:4", seed=9, contract="domino,no-queens").records:
        assert record["contract"] == ("domino", "no-queens")[record["deal"] % 2]
        assert list(check_record(barbu, record).scores()) == record["scores"]


@pytest.mark.parametrize("name", NAMES)
def test_step_api_records_validate(name):
    g = games.game(name)
    records = []
    for deal in range(4):
        state = g.state(seed=6, deal=deal)
        state.play_out(["random"] * g.players(state.study.options), np.random.default_rng(deal))
        records.append(saved_record(state))
    assert_valid(name, records)


@pytest.mark.parametrize("name", NAMES)
def test_a_broken_record_is_refused(name):
    """The schemas are not vacuous: an unknown action kind, a card that is no card, a missing field."""
    record = games.game(name).replay(deal=1, seed=2).record
    v = validator(name)
    for broken in (lambda r: r["actions"][0].update(kind="teleport"),
                   lambda r: r["hands"][0].__setitem__(0, "Z?"),
                   lambda r: r.pop("scores")):
        r = copy.deepcopy(record)
        broken(r)
        assert not v.is_valid(r)


def test_rami_twins_are_told_apart_by_their_copy():
    """Rami's two packs: each card a move names carries its copy (its order among its kind in ``deck``),
    so no copy of a card is in two places; a joker in a meld says what it stands for."""
    rec = games.game("rami").replay(deal="0:30", seed=4, recycle_discards=True, policy="random").records
    for r in rec:
        placed = set()
        for a in r["actions"]:
            cards = a.get("cards") or ([a["card"]] if "card" in a else [])
            copies = a.get("copies") or ([a["copy"]] if "copy" in a else [])
            assert len(cards) == len(copies)
            assert all(1 <= c <= r["deck"].count(card) for card, c in zip(cards, copies))
            if a["kind"] in ("meld", "layoff", "retrieve"):  # to the table; a retrieved joker leaves it
                placed.discard(("JK", a.get("joker_copy")))
                assert not placed & set(zip(cards, copies))
                placed |= set(zip(cards, copies))
            if a["kind"] == "meld":
                assert ("JK" in cards) == ("stands_for" in a)
    assert any("restock" in r for r in rec), "a recycled stock is recorded with its copies"


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["random", "heuristic"])
@pytest.mark.parametrize("name", NAMES)
def test_thousands_of_records_validate(name, policy):
    """250 deals and 10 whole games per game and table: about 2,000 deals in all, with the fast tier's and the
    step API's. Validating a record takes as long as replaying it (jsonschema, about 0.04 s for a Rami
    round), so more would cost CI minutes for no new check."""
    g = games.game(name)
    n = assert_valid(name, g.replay(deal="0:250", seed=11, policy=policy).records)
    n += assert_valid(name, g.replay_game(game="0:10", seed=11, policy=policy).records)
    assert n > 250


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_search_records_validate(name):
    g = games.game(name)
    seats = g.players(g.Options())
    assert_valid(name, g.replay(deal="0:2", seed=3, policy=",".join(["search"] + ["heuristic"] * (seats - 1)),
                                search_worlds=4).records)
