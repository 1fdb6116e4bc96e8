"""``python -m cardlab.sim.warm``: what ``make test`` runs first, so that test processes find kernels cached."""
from __future__ import annotations

import pytest

from cardlab.sim import warm


def test_warming_plays_a_games_common_paths_and_says_how_long(capsys):
    assert warm.main(["euchre5", "--processes", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(" compiled")[0] for line in out[:-1]] == ["warm: euchre5"]
    assert all(line.endswith(" s") for line in out)
    assert out[-1].startswith("warm: every kernel ready in ")


def test_each_game_has_an_example_numba_player_that_fits_its_seat():
    from cardlab.sim.example_players import BY_GAME, MINCHIATE_SUIT_BASE
    from cardlab.sim.games import GAMES, game
    from cardlab.sim.minchiate.rules import SUIT_BASE
    from cardlab.sim.user import check

    assert MINCHIATE_SUIT_BASE == SUIT_BASE
    for name in GAMES:
        if game(name).numba_seat is not None:
            name_there = check(BY_GAME[name], game(name).numba_seat, name, 0)
            assert name_there == f"numba:cardlab.sim.example_players.{BY_GAME[name].__name__}"


@pytest.mark.parametrize("argv,message", [(["nosuch"], "game: 'nosuch' is not allowed; choose barbu"),
                                          (["--processes", "0"], "--processes: 0 is not allowed")])
def test_bad_input_is_refused_in_one_line(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        warm.main(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err
