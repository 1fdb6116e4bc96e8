"""What every game of the interface must do, tested over the registry: registering a game tests it.

Random and heuristic play replayed by the referee; the same rows whatever the threads, chunks and
offsets (search seats too); every declared option reachable from Python and the command line and
refused where it does not apply; bad input answered in one line naming the option, the value and
what is allowed, with no file left. Sizes are small in the fast tier; the referee sweep of 2,000
deals per policy is the slow tier.
"""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from cardlab.sim import games
from cardlab.sim.cli import main
from cardlab.sim.options import declared
from cardlab.sim.policy import SHARED_POLICIES

GAMES = sorted(games.INTERFACES)


def game_of(name):
    return games.game(name)


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def other_value(f, current):
    """An allowed value of a declared field other than ``current`` (None when there is none)."""
    if f.metadata["choices"] is not None:
        return next((v for v in f.metadata["choices"] if v != current), None)
    if isinstance(f.default, bool):
        return not current
    if f.metadata["between"] is not None:
        low, high = f.metadata["between"]
        return low if current != low else high
    return None


def cli_value(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value)


# ---------------------------------------------------------------- the interface itself


@pytest.mark.parametrize("name", GAMES)
def test_a_game_without_the_oracle_refuses_it_in_one_line(name):
    game = game_of(name)
    if game.oracle:
        assert game.build("deals", policy="oracle").searching  # the oracle searches: the search's settings apply
        return
    with pytest.raises(ValueError, match=r"^policy: oracle is not implemented for .* yet; give one of [^\n]*$"):
        game.build("deals", policy="oracle")


@pytest.mark.parametrize("name", GAMES)
def test_the_game_declares_the_interface(name):
    game = game_of(name)
    assert game.name == name and game.title == games.GAMES[name]
    assert game.policies[:len(SHARED_POLICIES)] == SHARED_POLICIES  # one set of policy ids in every game
    assert declared(game.Options), "every option is declared with options.option()"
    assert {f.name for f in declared(game.Options)} == set(game.Options().to_dict())
    assert {"strength", "options"} <= set(game.all_studies())
    assert game.Study.game is game
    for f in declared(game.Options):
        assert f.metadata["help"] and not f.metadata["help"].endswith(".")


@pytest.mark.parametrize("name", GAMES)
def test_every_option_is_reachable_from_python_and_the_command_line(name, capsys):
    game = game_of(name)
    base = game.Options()
    for f in declared(game.Options):
        value = other_value(f, getattr(base, f.name))
        if value is None:
            continue
        try:
            options = game.make_options(**{f.name: value})
        except ValueError:
            continue  # refused in combination with the other defaults (checked by the bad-input test)
        assert getattr(options, f.name) == value
    from cardlab.sim.cli import build_parser

    parser = build_parser(["simulate", name])
    sub = parser._subparsers._group_actions[0].choices["simulate"]._subparsers._group_actions[0].choices[name]
    flags = set(sub._option_string_actions)
    for f in declared(game.Options):
        assert "--" + f.name.replace("_", "-") in flags, f.name


@pytest.mark.parametrize("name", GAMES)
def test_a_switch_and_its_negation_together_are_refused(name, capsys):
    """``--x --no-x`` is a contradiction, not "the last one wins", for every switch option of every game."""
    switch = next(f.name.replace("_", "-") for f in declared(game_of(name).Options) if isinstance(f.default, bool))
    code, stdout, stderr = run_cli(capsys, "simulate", name, "--deals", "5", f"--{switch}", f"--no-{switch}")
    assert code == 2 and stdout == "" and f"--no-{switch}: not allowed with argument --{switch}" in stderr


@pytest.mark.parametrize("name", GAMES)
def test_option_values_are_typed_without_shell_quoting(name):
    """A value typed as the docs show it reaches the option: no shell metacharacter in any allowed value
    (``counting+trumps>20`` was a redirect, #21 item 11)."""
    for f in declared(game_of(name).Options):
        for value in f.metadata["choices"] or ():
            assert not set(cli_value(value)) & set("<>|&;$`'\"\\*?()[]{}!~# "), (f.name, value)


# ---------------------------------------------------------------- results do not depend on how they are run


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_rows_are_the_same_for_any_threads_chunks_and_offset(name, policy):
    game = game_of(name)
    kw = dict(deals=60, seed=11, policy=policy)
    a = game.simulate(threads=1, **kw)
    b = game.simulate(threads=2, chunk_size=7, **kw)
    pd.testing.assert_frame_equal(a, b)
    c = game.simulate(threads=2, first_deal=20, **{**kw, "deals": 15})
    pd.testing.assert_frame_equal(a.iloc[20:35].reset_index(drop=True), c.reset_index(drop=True))


@pytest.mark.parametrize("name", GAMES)
def test_searched_rows_are_the_same_for_any_threads_and_chunks(name):
    game = game_of(name)
    n = game.players(game.Options())
    policy = ",".join(["search"] + ["heuristic"] * (n - 1))
    kw = dict(deals=4, seed=5, policy=policy, search_worlds=2)
    pd.testing.assert_frame_equal(game.simulate(threads=1, **kw), game.simulate(threads=2, chunk_size=3, **kw))


# ---------------------------------------------------------------- the referee and the records


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_replayed_deals_agree_with_the_rows_and_their_records_are_json(name, policy):
    game = game_of(name)
    replay = game.replay(deal="3:9", seed=21, policy=policy)  # the referee checks every move and score
    assert len(replay.records) == 6
    for record in replay.records:
        assert json.loads(json.dumps(record, ensure_ascii=False)) == record
    assert replay.text.strip()


def accepts(name, rules) -> bool:
    try:
        game_of(name).make_options(**rules)
        return True
    except ValueError:  # an option the game has not, or a value it refuses (Euchre for five seats five)
        return False


SCHEMA_CASES = [(name, unit, rules) for name in GAMES for unit in ("deals", "games")
                for rules in ({}, {"players": 3}, {"double": True})
                if accepts(name, rules) and not ("double" in rules and unit == "deals")]  # doubling: games only


@pytest.mark.parametrize("name,unit,rules", SCHEMA_CASES)
def test_rows_have_exactly_the_declared_columns(name, unit, rules):
    """The declared schema (``Game.columns``) is what a run writes: every name and type, nothing else."""
    game = game_of(name)
    df = game.simulate(deals=30, seed=4, **rules) if unit == "deals" else game.simulate_games(games=3, seed=4, **rules)
    assert {c: str(t) for c, t in df.dtypes.items()} == game.schema(game.make_options(**rules), unit)


@pytest.mark.parametrize("name", GAMES)
def test_every_game_replays_whole_games(name):
    """``replay_game`` (``replay --game-index``) in every game: the referee checks each deal of the games,
    every record names its game and is JSON."""
    replay = game_of(name).replay_game(game="1:3", seed=5)
    assert {r["game"] for r in replay.records} == {1, 2} and replay.text.strip()
    for record in replay.records:
        assert json.loads(json.dumps(record, ensure_ascii=False)) == record


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
def test_the_referee_replays_two_thousand_deals(name, policy):
    game = game_of(name)
    replay = game.replay(deal="0:2000", seed=3, policy=policy)
    assert len(replay.records) == 2000


# ---------------------------------------------------------------- bad input, from the options' metadata


def bad_values(game):
    """(flag, value, what the error names) for each option: a value outside its choices or range, a wrong type."""
    out = []
    for f in declared(game.Options):
        flag = "--" + f.name.replace("_", "-")
        if f.metadata["choices"] is not None:
            out.append((flag, "nonsense", f"{flag}: "))
            numbers = [c for c in f.metadata["choices"] if isinstance(c, int) and not isinstance(c, bool)]
            if numbers:
                out.append((flag, str(max(numbers) + 1000), f"{flag}: {max(numbers) + 1000} is not allowed"))
        elif f.metadata["between"] is not None:
            low, high = f.metadata["between"]
            out.append((flag, str(high + 1), f"{flag}: {high + 1} is not allowed; use an integer from {low} to {high}"))
            out.append((flag, "x", f"{flag}: 'x' is not allowed"))
    return out


def bad_cases():
    return [(name, *case) for name in GAMES for case in bad_values(game_of(name))]


@pytest.mark.parametrize("name,flag,value,message", bad_cases())
def test_a_bad_option_value_is_one_line_and_leaves_no_file(tmp_path, capsys, name, flag, value, message):
    out = tmp_path / "x.parquet"
    code, _, err = run_cli(capsys, "simulate", name, "--deals", 5, flag, value, "--out", out)
    assert code == 2 and message in err and err.count("\n") == 1, err
    assert not list(tmp_path.iterdir())


def inapplicable_cases():
    cases = []
    for name in GAMES:
        game = game_of(name)
        study = game.Study.build()
        context = game.run_context(study, unit="deals")
        for option, scope in game.scope().items():
            f = next((f for f in declared(game.Options) if f.name == option), None)
            if f is None or scope.applies(context):
                continue
            value = other_value(f, f.default)
            if value is not None:
                cases.append((name, option, value))
    return cases


@pytest.mark.parametrize("name,option,value", inapplicable_cases())
def test_an_option_where_it_does_not_apply_is_refused(tmp_path, capsys, name, option, value):
    game = game_of(name)
    with pytest.raises(ValueError, match=f"{option}: .* does not apply here; it applies"):
        game.simulate(deals=2, **{option: value})
    out = tmp_path / "x.parquet"
    flag = "--" + option.replace("_", "-")
    argv = [flag] if value is True else [f"--no-{option.replace('_', '-')}"] if value is False else [flag,
                                                                                                        cli_value(value)]
    code, _, err = run_cli(capsys, "simulate", name, "--deals", 2, *argv, "--out", out)
    assert code == 2 and "does not apply here" in err and err.count("\n") == 1, err
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("name", GAMES)
def test_an_unknown_option_names_the_game_options(name):
    game = game_of(name)
    with pytest.raises(ValueError, match=f"option 'no_such_rule' is unknown; {game.title} options are"):
        game.simulate(deals=2, no_such_rule=1)


# ---------------------------------------------------------------- the shared studies


@pytest.mark.parametrize("name", GAMES)
def test_the_options_study_equals_separate_runs_of_each_variant(name):
    from cardlab.sim.variants import option_variants

    game = game_of(name)
    df = game.all_studies()["options"].run(game, deals=30, seed=4, threads=1)
    base = game.build("deals", seed=4)
    variants, _ = option_variants(game, base)
    assert {c.split("@")[1] for c in df.columns if "@" in c} == set(variants)
    for variant, change in list(variants.items())[:4]:
        alone = game.simulate(deals=30, seed=4, threads=1, **change)
        for column in alone.columns:
            if column != "deal":
                assert np.array_equal(df[f"{column}@{variant}"].to_numpy(), alone[column].to_numpy()), (variant, column)


VARY = {"barbu": ["players=3,5", "hearts_lead=broken"], "euchre5": ["stick_the_dealer=false", "call_rule=ace_of_suit"],
        "minchiate": ["cutter_cap=6,13", "steal_29=false"], "rami": ["open_threshold=30,40", "players=3"],
        "hearts": ["jd_bonus=true", "pass_direction=left,across"]}


@pytest.mark.parametrize("name", GAMES)
def test_the_variants_study_plays_every_combination_as_separate_runs(name, capsys):
    """``study <game> variants --vary A=.. --vary B=..``: default and every combination of the values given, each
    equal to a plain run with those options on the same deals; a combination equal to the defaults is default."""
    game = game_of(name)
    df = game.all_studies()["variants"].run(game, deals=25, seed=6, threads=1, vary=VARY[name])
    variants = list(dict.fromkeys(c.split("@")[1] for c in df.columns if "@" in c))
    meta = game.all_studies()["variants"].metadata(game, seed=6, vary=VARY[name])
    assert variants == list(meta["variants"]) and variants[0] == "default"
    assert 2 <= len(variants) <= 1 + np.prod([len(v.split("=")[1].split(",")) for v in VARY[name]])
    for variant, change in list(meta["variants"].items())[1:]:
        alone = game.simulate(deals=25, seed=6, threads=1, **change)
        for column in alone.columns:
            if column != "deal":
                assert np.array_equal(df[f"{column}@{variant}"].to_numpy(), alone[column].to_numpy()), (variant, column)
    code, stdout, _ = run_cli(capsys, "study", name, "variants", "--deals", "20", *[a for v in VARY[name] for a in
                                                                                  ("--vary", v)])
    assert code == 0 and "variants study" in stdout and "varied: " in stdout


@pytest.mark.parametrize("argv,message", [
    (["--vary", "no_such=1"], "--vary: 'no_such' is not an option of"),
    (["--vary", "players"], "--vary: 'players' is not allowed; give NAME=v1,v2"),
    (["--vary", "players=3", "--vary", "players=5"], "'players' is named twice"),
    (["--vary", "players=3,3"], "give distinct values"),
    (["--vary", "players=9"], "is not allowed"),
])
def test_bad_vary_input_is_one_line(capsys, argv, message):
    code, stdout, stderr = run_cli(capsys, "study", "rami", "variants", "--deals", "10", *argv)
    assert code == 2 and stdout == "" and message in stderr and len(stderr.strip().splitlines()) == 1


def test_vary_is_refused_outside_the_variants_study_and_needs_an_option(capsys):
    code, _, stderr = run_cli(capsys, "study", "rami", "options", "--deals", "10", "--vary", "players=3")
    assert code == 2 and "--vary: players=3 does not apply here; it applies only to study variants" in stderr
    code, _, stderr = run_cli(capsys, "study", "rami", "variants", "--deals", "10")
    assert code == 2 and "--vary: give at least one option to vary" in stderr
    code, _, stderr = run_cli(capsys, "study", "euchre5", "variants", "--deals", "10", "--vary", "target=5,7")
    assert code == 2 and "target does not apply to single deals" in stderr
