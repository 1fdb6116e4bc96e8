"""A variant file (``--variant my_rules.toml``, ``variant=`` in Python): house rules read and checked as their
flags are, recorded in the run's metadata and played again by ``replay``, for every game of the registry;
flags beside the file override it; bad files answered in one line, nothing written."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from cardlab.sim import games
from cardlab.sim.cli import main
from cardlab.sim.options import declared, toml_value

GAMES = sorted(games.INTERFACES)


def run_cli(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def house_rules(name, count=2) -> dict:
    """Options of the game set away from their default, each alone accepted and applying to single deals."""
    game = games.game(name)
    base = game.build("deals")
    scope, context = game.scope(), game.run_context(base, unit="deals")
    rules = {}
    for f in declared(game.Options):
        if f.name in scope and not scope[f.name].applies(context):
            continue
        choices = f.metadata["choices"]
        value = (not f.default if isinstance(f.default, bool) else
                 next((c for c in choices if c != f.default), None) if choices is not None else None)
        if value is None:
            continue
        try:
            game.build("deals", **rules, **{f.name: value})
        except ValueError:
            continue
        rules[f.name] = value
        if len(rules) == count:
            break
    return rules


def write_variant(path, rules, game=None):
    lines = ["# house rules"] + ([f'game = "{game}"'] if game else []) + [f"{k} = {toml_value(v)}" for k, v in
                                                                         rules.items()]
    path.write_text("\n".join(lines) + "\n")
    return path


def without_variant(records: list) -> list:
    """Records without their ``variant`` key: the same play under the file as under its options by name."""
    return [{k: v for k, v in r.items() if k != "variant"} for r in records]


@pytest.mark.parametrize("name", GAMES)
def test_a_variant_file_plays_as_its_options_and_is_recorded(name, tmp_path):
    game, rules = games.game(name), house_rules(name)
    assert rules, name
    variant = write_variant(tmp_path / "house.toml", rules, game=name)
    df = game.simulate(deals=12, seed=3, threads=1, variant=variant)
    pd.testing.assert_frame_equal(df, game.simulate(deals=12, seed=3, threads=1, **rules))
    meta = df.attrs["cardlab"]
    assert meta["variant"] == {"file": str(variant), "options": json.loads(json.dumps(rules))}
    assert all(meta["options"][k] == (list(v) if isinstance(v, tuple) else v) for k, v in rules.items())
    # a mapping in Python reads the same way, and records no file
    assert game.build("deals", variant=rules).metadata()["variant"] == {"file": None,
                                                                         "options": json.loads(json.dumps(rules))}
    # replay of a deal under the file: the same play as under the options given by name
    replayed = game.replay(deal="2:4", seed=3, variant=variant).records
    assert all(r["variant"]["file"] == str(variant) for r in replayed)  # a record says what reproduces it
    assert without_variant(replayed) == game.replay(deal="2:4", seed=3, **rules).records
    assert game.state(deal=1, seed=3, variant=variant).study.options == game.build("deals", **rules).options


@pytest.mark.parametrize("name", GAMES)
def test_the_command_line_records_the_file_and_replays_it(name, tmp_path, capsys):
    rules = house_rules(name)
    variant = write_variant(tmp_path / "house.toml", rules)
    out = tmp_path / "run.parquet"
    code, stdout, stderr = run_cli(capsys, "simulate", name, "--variant", variant, "--deals", 6, "--seed", 2,
                                   "--threads", 1, "--out", out)
    assert code == 0, stderr
    from cardlab.analysis import load_run

    df, meta = load_run(out)
    assert meta["variant"]["file"] == str(variant) and meta["variant"]["options"] == json.loads(json.dumps(rules))
    code, stdout, stderr = run_cli(capsys, "replay", name, "--variant", variant, "--seed", 2, "--deal", "1:3", "--json")
    assert code == 0, stderr
    records = [json.loads(line) for line in stdout.splitlines()]
    expected = games.game(name).replay(deal="1:3", seed=2, **rules).records
    assert all(r["variant"]["file"] == str(variant) for r in records)
    assert without_variant(records) == json.loads(json.dumps(expected, ensure_ascii=False))
    pd.testing.assert_frame_equal(df, games.game(name).simulate(deals=6, seed=2, threads=1, **rules), check_dtype=False)


def test_flags_and_keywords_beside_the_file_override_it(tmp_path, capsys):
    variant = write_variant(tmp_path / "rami.toml", {"players": 3, "open_threshold": 40})
    rami = games.game("rami")
    study = rami.build("deals", variant=variant, open_threshold=30)
    assert (study.options.players, study.options.open_threshold) == (3, 30)
    assert study.metadata()["variant"]["options"] == {"players": 3, "open_threshold": 40}  # what the file said
    out = tmp_path / "r.parquet"
    code, _, stderr = run_cli(capsys, "simulate", "rami", "--variant", variant, "--open-threshold", 30, "--deals", 4,
                              "--threads", 1, "--out", out)
    assert code == 0, stderr
    from cardlab.analysis import load_run

    assert load_run(out)[1]["options"]["open_threshold"] == 30


def test_the_studies_take_a_variant_file(tmp_path):
    from cardlab.sim.variants import variants_study

    variant = write_variant(tmp_path / "rami.toml", {"players": 3})
    df = variants_study(games.game("rami"), deals=10, seed=1, threads=1, variant=variant,
                        vary={"open_threshold": [30, 40]})
    meta = df.attrs["cardlab"]
    assert meta["options"]["players"] == 3 and meta["variant"]["options"] == {"players": 3}
    assert {c for c in df.columns if c.startswith("score_")} >= {"score_0@default", "score_2@open_threshold=30"}
    assert not any(c.startswith("score_3@") for c in df.columns)


BAD = [
    ('players = 9\n', "variant: {f} line 1: players: 9 is not allowed; choose 2, 3, 4"),
    ('# rules\nplayer = 3\n', "variant: {f} line 2: 'player' is not an option of Rami; did you mean 'players'?"),
    ('zzz = 3\n', "variant: {f} line 1: 'zzz' is not an option of Rami; Rami options are players, n_jokers"),
    ('open_threshold = 40.5\n', "variant: {f} line 1: open_threshold: '40.5' is not allowed; give an integer"),
    ('open_threshold = -1\n', "variant: {f} line 1: open_threshold: -1 is not allowed; use an integer from 0 to"),
    ('open_threshold = "many"\n', "variant: {f} line 1: open_threshold: 'many' is not allowed; give an integer"),
    ('recycle_discards = "yes"\n', "variant: {f} line 1: recycle_discards: 'yes' is not allowed; choose true or "
                                   "false"),
    ('players = 3\nblocked_tie = lowest\n', "variant: {f} line 2: not valid TOML: invalid value at column 15 (text "
                                            'goes in quotes: blocked_tie = "lowest")'),
    ('players = [3\n', "variant: {f} is not valid TOML"),
    ('game = "barbu"\nplayers = 3\n', "variant: {f} line 1: game: 'barbu' is not allowed; this file is read for rami"),
    ('[rules]\nplayers = 3\n', "variant: {f} line 1: [rules] is a table; a variant file holds one name = value"),
    ('players = 3\nplayers = 5\n', "variant: {f} line 2: not valid TOML: cannot overwrite a value"),
    ('open_threshold = 40\nopen-threshold = 30\n', "variant: {f} line 2: 'open_threshold' is set twice; set it once"),
]


@pytest.mark.parametrize("text,message", BAD)
def test_a_bad_variant_file_is_one_line_and_nothing_is_written(text, message, tmp_path, capsys):
    variant = tmp_path / "house.toml"
    variant.write_text(text)
    with pytest.raises(ValueError) as err:
        games.game("rami").simulate(deals=2, variant=variant)
    assert str(err.value).startswith(message.format(f=variant)), str(err.value)
    out = tmp_path / "runs" / "x.parquet"
    code, stdout, stderr = run_cli(capsys, "simulate", "rami", "--variant", variant, "--deals", 2, "--out", out)
    assert code == 2 and stdout == "" and len(stderr.strip().splitlines()) == 1, stderr
    assert stderr.startswith("cardlab: error: --" + message.format(f=variant)[: len("variant")]), stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["house.toml"]


def test_a_missing_unreadable_or_odd_file_is_one_line(tmp_path, capsys):
    rami = games.game("rami")
    for source, message in ((tmp_path / "nope.toml", "does not exist; give a TOML file of house rules"),
                            (tmp_path, "is a directory; give a TOML file of house rules"),
                            ("", "is not allowed; give the path of a TOML file")):
        with pytest.raises(ValueError, match="^variant: .*" + message.split(";")[0]):
            rami.simulate(deals=2, variant=source)
    binary = tmp_path / "x.toml"
    binary.write_bytes(b"players = 3\n\xff\xfe\n")
    with pytest.raises(ValueError, match="is not UTF-8 text"):
        rami.simulate(deals=2, variant=binary)
    code, _, stderr = run_cli(capsys, "replay", "rami", "--variant", tmp_path / "nope.toml", "--deal", 0)
    assert code == 2 and "--variant: " in stderr and "does not exist" in stderr and stderr.count("\n") == 1


def test_an_option_of_the_file_that_does_not_apply_names_the_file(tmp_path, capsys):
    variant = write_variant(tmp_path / "barbu.toml", {"geronimo": True})
    code, _, stderr = run_cli(capsys, "simulate", "barbu", "--variant", variant, "--deals", 2)
    assert code == 2 and f"geronimo = true (in {variant}) does not apply here; it applies only to whole games" in stderr
    code, _, stderr = run_cli(capsys, "simulate", "barbu", "--variant", variant, "--no-geronimo", "--deals", 2,
                              "--threads", 1)
    assert code == 0, stderr  # the flag overrides the file


def test_a_switch_that_may_be_unset_reads_true_or_false(tmp_path):
    """Barbu's ``trumps`` (None: by the game's mode) takes true or false in a file, as ``--vary`` does."""
    variant = write_variant(tmp_path / "barbu.toml", {"geronimo": True, "trumps": False})
    assert games.game("barbu").build("games", variant=variant).options.trumps is False


def test_play_takes_the_variant_file(tmp_path):
    from cardlab.sim.play import play

    variant = write_variant(tmp_path / "rami.toml", {"players": 3})
    lines = []
    assert play("rami", seat=0, deal=0, policy="random", read=lambda prompt: "q", write=lines.append,
                variant=variant) is None
    assert "seat 2" in lines[0] and "seat 3" not in lines[0]  # three players, as the file says
