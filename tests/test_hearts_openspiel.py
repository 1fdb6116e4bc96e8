"""Hearts against OpenSpiel's ``hearts``, move for move: the same deal, the same legal moves at every turn, the
same final points, for the default rules and for parameter sets that turn each of OpenSpiel's eight options away
from its default at least once.

* Forward: OpenSpiel plays (uniformly random moves at every node, the chance nodes too); a
  :class:`~cardlab.sim.hearts.referee.HeartsState` built from the same deal follows it and must list the very
  same legal moves at every turn.
* Reverse: cardlab plays (the built-in heuristic seat beside uniformly random seats), then OpenSpiel replays the
  deal and every move and must list the same legal moves at every turn.
* Rare hands: forward play from deals in which one seat holds a hand random deals almost never give (the Q♠ and
  hearts only, every club ...), so that the rules' rare branches are met in every run.

Both end with OpenSpiel's returns equal to 26 minus cardlab's points. The two engines share no code: OpenSpiel
is the C++ wheel ``open-spiel`` (``pip install 'cardlab[peers]'``); without it the tests are skipped.

Card numbering: cardlab's card id is ``16 * suit + rank`` and OpenSpiel's action ``4 * rank + suit`` (the same
suit order clubs, diamonds, hearts, spades and the same ranks, 2 = 0 .. ace = 12); a card passed is cardlab's
action ``64 + card id`` and OpenSpiel's plain card action, told apart by the phase.
"""
import numpy as np
import pytest

from cardlab.sim.cards import ACE, CLUBS, HEARTS, KING, QUEEN, TWO, card, parse_card
from cardlab.sim.hearts.referee import HeartsState
from cardlab.sim.hearts.rules import DECK, NO_PASS, PASS, PASS_ID, PLAYERS, HeartsOptions
from cardlab.sim.hearts.state_policies import policy_action

pyspiel = pytest.importorskip("pyspiel")

DEAL_CARDS = 52

#: OpenSpiel parameter sets, each played forward and in reverse. Every one of the eight parameters is away from its
#: default in at least one set (the defaults: pass_cards, no_pts_on_first_trick, must_break_hearts and
#: qs_breaks_hearts on; can_lead_any_club, jd_bonus, avoid_all_tricks_bonus and can_lead_hearts_instead_of_qs off).
PARAMETER_SETS = {
    "defaults": {},
    "bonuses": {"jd_bonus": True, "avoid_all_tricks_bonus": True},
    "hearts-open": {"must_break_hearts": False, "can_lead_any_club": True},
    "no-pass-points-first": {"pass_cards": False, "no_pts_on_first_trick": False},
    "hearts-instead-of-qs": {"can_lead_hearts_instead_of_qs": True, "qs_breaks_hearts": False},
    "hearts-instead-of-qs-breaks": {"can_lead_hearts_instead_of_qs": True, "jd_bonus": True,
                                    "can_lead_any_club": True},
}

#: Random games per parameter set: (forward, reverse), besides the rare hands' deals (RARE_DEALS). The fast tier
#: plays 100 games a set, 600 in all, in a few seconds; the slow tier 2,600 a set (2,000 random) on other seeds,
#: about a minute.
FAST = (40, 20)
SLOW = (1400, 600)
FAST_SEED, SLOW_SEED = 1, 2


def spiel_action(card: int) -> int:
    """OpenSpiel's action for cardlab card id ``card``: ``4 * rank + suit``."""
    return 4 * (card % 16) + card // 16


def cardlab_card(action: int) -> int:
    """cardlab's card id for OpenSpiel's card action ``action``: ``16 * suit + rank``."""
    return 16 * (action % 4) + action // 4


def cardlab_action(action: int, passing: bool) -> int:
    """cardlab's action id for OpenSpiel's player action ``action``: the card, plus 64 while cards are passed."""
    return cardlab_card(action) + (PASS_ID if passing else 0)


def dealt_hands(history: list) -> list[set]:
    """The four hands (sets of cardlab card ids) of an OpenSpiel history that has dealt every card: ``history[0]``
    is the pass direction, then the ``k``-th dealt card goes to seat ``k % 4``."""
    hands = [set() for _ in range(PLAYERS)]
    for k, action in enumerate(history[1:1 + DEAL_CARDS]):
        hands[k % PLAYERS].add(cardlab_card(action))
    return hands


def deal_actions(hands: list) -> list[int]:
    """OpenSpiel's 52 deal actions that give seat ``p`` the cardlab hand ``hands[p]`` (card ``k`` goes to seat
    ``k % 4``, so the hands are dealt in turn, one card each)."""
    ordered = [sorted(h) for h in hands]
    return [spiel_action(ordered[k % PLAYERS][k // PLAYERS]) for k in range(DEAL_CARDS)]


def options_of(game) -> HeartsOptions:
    """cardlab's options for an OpenSpiel game: its eight parameters, same names, same values (all of them, so that
    neither side's defaults are assumed)."""
    return HeartsOptions(**game.get_parameters())


def legal_ids(spiel_state, passing: bool) -> set:
    """OpenSpiel's legal player actions as cardlab action ids."""
    return {cardlab_action(a, passing) for a in spiel_state.legal_actions()}


def cardlab_ids(state: HeartsState) -> set:
    """cardlab's legal action ids."""
    return {a.id for a in state.legal_actions()}


def where(spiel_state) -> str:
    """The OpenSpiel history, to paste into a reproduction: ``state = game.new_initial_state()`` then
    ``apply_action`` each."""
    return f"OpenSpiel history {spiel_state.history()}"


def check_end(spiel_state, state: HeartsState) -> None:
    """Both deals over; OpenSpiel's returns are 26 minus cardlab's points."""
    assert spiel_state.is_terminal() and state.is_over, where(spiel_state)
    assert spiel_state.returns() == [26 - s for s in state.scores()], where(spiel_state)


def play_forward(game, rng, hands=None) -> None:
    """One OpenSpiel deal with a uniformly random move at every node (the chance nodes too, among their legal
    actions), followed move by move by a HeartsState that must list the same legal moves. With ``hands`` (cardlab
    hands) the deal is those hands, without passing, instead of a random one."""
    spiel_state = game.new_initial_state()
    if hands is not None:
        for action in [NO_PASS] + deal_actions(hands):
            spiel_state.apply_action(action)
    while spiel_state.is_chance_node():
        # legal_actions, not chance_outcomes: with pass_cards off OpenSpiel's chance_outcomes still offers the four
        # pass directions, though only "no pass" is legal.
        legal = spiel_state.legal_actions()
        spiel_state.apply_action(legal[rng.integers(len(legal))])
    history = spiel_state.history()
    offset = history[0]  # OpenSpiel's pass directions are cardlab's offsets (none, left, across, right)
    state = HeartsState(options_of(game), dealt_hands(history), offset=offset)
    assert state.passing == (offset != NO_PASS)
    while not spiel_state.is_terminal():
        assert not state.is_over, where(spiel_state)
        assert spiel_state.current_player() == state.current_player, where(spiel_state)
        legal = spiel_state.legal_actions()
        assert legal_ids(spiel_state, state.passing) == cardlab_ids(state), where(spiel_state)
        action = legal[rng.integers(len(legal))]
        state.apply(cardlab_action(action, state.passing))
        spiel_state.apply_action(action)
    check_end(spiel_state, state)


def random_deal(rng) -> list[set]:
    """Four hands of 13 cardlab card ids, uniformly at random."""
    cards = rng.permutation([16 * suit + rank for suit in range(4) for rank in range(13)])
    return [set(int(c) for c in cards[13 * p:13 * p + 13]) for p in range(PLAYERS)]


def play_cardlab(options: HeartsOptions, hands: list, offset: int, policies: list, rng):
    """A deal played by cardlab alone: seat ``p`` moves by the built-in ``heuristic`` seat or, with ``"random"``,
    uniformly among the legal moves. Returns the finished state and, move by move, (legal ids, id played)."""
    state = HeartsState(options, hands, offset=offset)
    moves = []
    while not state.is_over:
        legal = state.legal_actions()
        if policies[state.current_player] == "heuristic":
            action = policy_action(state, "heuristic")
        else:
            action = legal[rng.integers(len(legal))]
        moves.append(({a.id for a in legal}, action.id))
        state.apply(action)
    return state, moves


def replay_in_openspiel(game, offset: int, hands: list, moves: list, state: HeartsState) -> None:
    """Replay a cardlab deal in OpenSpiel: the pass direction, the deal, then every move, each of which OpenSpiel
    must list among exactly the legal moves cardlab listed."""
    spiel_state = game.new_initial_state()
    assert offset in spiel_state.legal_actions()
    spiel_state.apply_action(offset)
    for action in deal_actions(hands):
        spiel_state.apply_action(action)
    assert dealt_hands(spiel_state.history()) == hands
    for k, (legal, move) in enumerate(moves):
        passing = offset != NO_PASS and k < PLAYERS * PASS
        assert legal_ids(spiel_state, passing) == legal, where(spiel_state)
        spiel_state.apply_action(spiel_action(move - PASS_ID if passing else move))
    check_end(spiel_state, state)


def play_reverse(game, rng) -> None:
    """One deal played by cardlab (two heuristic seats, two random ones, in random places), replayed in OpenSpiel."""
    options = options_of(game)
    offset = int(rng.integers(4)) if options.pass_cards else NO_PASS
    hands = random_deal(rng)
    policies = list(rng.permutation(["heuristic", "heuristic", "random", "random"]))
    state, moves = play_cardlab(options, hands, offset, policies, rng)
    replay_in_openspiel(game, offset, hands, moves, state)


def run(name: str, games: tuple, seed: int) -> None:
    """``games`` = (forward, reverse) random deals under parameter set ``name``."""
    forward, reverse = games
    index = list(PARAMETER_SETS).index(name)
    game = pyspiel.load_game("hearts", PARAMETER_SETS[name])
    rng = np.random.default_rng([seed, index])
    for _ in range(forward):
        play_forward(game, rng)
    for _ in range(reverse):
        play_reverse(game, rng)


def cards(*names: str) -> set:
    """Card ids from names (``"Q♠"``)."""
    return {parse_card(name) for name in names}


def suit_cards(suit: int, high: int = ACE) -> set:
    """The cards of ``suit`` from the 2 up to rank ``high``."""
    return {card(rank, suit) for rank in range(TWO, high + 1)}


#: Hands that random deals almost never hold, each given to one seat (the other 39 cards spread at random), to
#: reach the rare branches of the rules: a leader left with the Q♠ and hearts while hearts are unbroken (the A♣
#: wins the first trick), a seat void in clubs on the first trick holding only points, a leader holding only
#: hearts while they are unbroken, the 2♣'s holder with every club (and three seats void in clubs at once).
RARE_HANDS = {
    "q-spades-and-hearts-behind-a-clubs": (0, cards("A♣", "Q♠") | suit_cards(HEARTS, QUEEN)),
    "q-spades-and-hearts": (1, cards("Q♠") | suit_cards(HEARTS, KING)),
    "hearts-behind-a-clubs": (2, cards("A♣") | suit_cards(HEARTS, KING)),
    "every-club": (3, suit_cards(CLUBS)),
}
RARE_DEALS = {"fast": 10, "slow": 150}  # random continuations of each hand under each parameter set


def deal_around(seat: int, held: set, rng) -> list[set]:
    """Four hands: ``held`` to ``seat``, the other 39 cards shuffled among the other seats."""
    rest = rng.permutation(sorted(set(int(c) for c in DECK) - held))
    others = [p for p in range(PLAYERS) if p != seat]
    hands = [set() for _ in range(PLAYERS)]
    hands[seat] = set(held)
    for k, c in enumerate(rest):
        hands[others[k % 3]].add(int(c))
    return hands


def run_rare(name: str, deals: int, seed: int) -> None:
    """``deals`` deals from each of :data:`RARE_HANDS` (no passing, so the hand stays), played forward."""
    index = list(PARAMETER_SETS).index(name)
    game = pyspiel.load_game("hearts", PARAMETER_SETS[name])
    rng = np.random.default_rng([seed, index, 1])
    for seat, held in RARE_HANDS.values():
        for _ in range(deals):
            play_forward(game, rng, deal_around(seat, held, rng))


def test_numbering():
    """OpenSpiel's name of each card action ("QS", "TH") is the name of the cardlab card it maps to; the deal of a
    history and the deal actions of hands undo each other."""
    state = pyspiel.load_game("hearts").new_initial_state()
    state.apply_action(NO_PASS)
    assert [parse_card(state.action_to_string(action)) for action in range(DEAL_CARDS)] == \
        [cardlab_card(action) for action in range(DEAL_CARDS)]
    assert all(spiel_action(cardlab_card(action)) == action for action in range(DEAL_CARDS))
    hands = random_deal(np.random.default_rng(0))
    assert dealt_hands([NO_PASS] + deal_actions(hands)) == hands


def test_parameter_sets_cover_every_option():
    defaults = pyspiel.load_game("hearts").get_parameters()
    # cardlab's own: what OpenSpiel fixes (its scoring, its one direction per deal, four players, no whole games)
    own = {"players", "pass_direction", "target", "queen_points", "jack_points", "moon_scoring"}
    assert set(defaults) == {f for f in HeartsOptions.__dataclass_fields__} - own
    changed = {k for params in PARAMETER_SETS.values() for k, v in params.items() if v != defaults[k]}
    assert changed == set(defaults)


def test_rare_hands():
    assert all(len(held) == 13 for _, held in RARE_HANDS.values())


@pytest.mark.parametrize("name", PARAMETER_SETS)
def test_agrees_with_openspiel(name):
    run(name, FAST, FAST_SEED)
    run_rare(name, RARE_DEALS["fast"], FAST_SEED)


@pytest.mark.slow
@pytest.mark.parametrize("name", PARAMETER_SETS)
def test_agrees_with_openspiel_many(name):
    run(name, SLOW, SLOW_SEED)
    run_rare(name, RARE_DEALS["slow"], SLOW_SEED)
