"""``python -m cardlab.sim.warm``: what ``make test`` runs first, so that test processes find kernels cached."""
from __future__ import annotations

import pytest

from cardlab.sim import warm


def test_warming_plays_a_games_common_paths_and_says_how_long(capsys):
    assert warm.main(["euchre5", "--processes", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("warm: euchre5 compiled or loaded in ") and out[0].endswith(" s")
    assert out[-1].startswith("warm: every kernel ready in ")


@pytest.mark.parametrize("argv,message", [(["nosuch"], "game: 'nosuch' is not allowed; choose barbu"),
                                          (["--processes", "0"], "--processes: 0 is not allowed")])
def test_bad_input_is_refused_in_one_line(capsys, argv, message):
    with pytest.raises(SystemExit) as stop:
        warm.main(argv)
    assert stop.value.code == 2 and message in capsys.readouterr().err
