"""No game's search peeks: two deals that a searching seat cannot tell apart get the same search.

For every game a deal is played with one ``search`` seat among heuristic seats, then played again
with some of the cards that seat has not seen moved: swapped between the other seats, with the
kitty's hidden cards (Euchre for five) or the unseen discards (Minchiate), and the stock reordered
(Rami). At every decision of the searcher, as long as everything it has seen so far is the same in
both deals (its own cards, every public action, what it alone was shown), its candidate means must
be bit-identical; and the first public difference is never the searcher's own move. The hidden cards
soon change what the other seats do, and from there the two views differ and nothing is compared.

Each test also counts what it compared, so that a harness that stops too early cannot pass vacuously.
"""
import numpy as np
import pytest

from cardlab.sim.rng import deal_state


def no_numba_seat(name: str, key: str | None = None):
    """The callback a run without a Numba seat hands game ``name``'s searched kernels for decision ``key`` (the
    seat's main one by default): it is never called."""
    from cardlab.sim.games import game
    from cardlab.sim.user import run_callback

    return run_callback("", game(name).numba_seat, key, searched=True)


WORLDS = 8  # small: the means only need to exist, not to be good


def rng_swaps(rng, owners, count):
    """``count`` random transpositions of cards held by different hidden owners: ``owners`` is a list of
    (owner, card) pairs, changed in place; returns it."""
    for _ in range(count):
        while True:
            i, j = rng.integers(len(owners), size=2)
            if owners[i][0] != owners[j][0]:
                break
        (a, x), (b, y) = owners[i], owners[j]
        owners[i], owners[j] = (a, y), (b, x)
    return owners


def same_bits(a, b):
    """Bit-identical float arrays (NaN where the other has NaN)."""
    return a.shape == b.shape and np.array_equal(np.ascontiguousarray(a).view(np.uint8),
                                                 np.ascontiguousarray(b).view(np.uint8))


# ---------------------------------------------------------------- Euchre for five

EUCHRE_RULES = [
    dict(),
    dict(call_rule="ace_of_suit", stick_the_dealer=False),
    dict(call_before_exchange=True, dealer_may_discard_upcard=False),
    dict(allow_call_own_card=True, call_rule="non_trump", stick_the_dealer=False),
]


def euchre_hand(rules, seed, unit, hands, kitty, dealer, policies, eps):
    from cardlab.sim.euchre5.kernels import N_RES
    from cardlab.sim.euchre5.rules import MAX_ACTIONS
    from cardlab.sim.euchre5.search import play_search_hand_nb

    log = np.full((MAX_ACTIONS, 3), -1, np.int8)
    means = np.full((MAX_ACTIONS, 64), np.nan, np.float32)
    res = np.zeros(N_RES, np.int64)
    play_search_hand_nb(seed, unit, 0, hands.copy(), kitty.copy(), dealer, rules, policies, -1, -1, WORLDS, 1, 1,
                        eps, np.uint64(deal_state(seed, unit)), log, means, res, no_numba_seat("euchre5", "bid"),
                        no_numba_seat("euchre5"), np.zeros(2, np.int64), -1)
    return log, means


def euchre_seen(log, s, dealer):
    """The hand's log as seat ``s`` saw it: the dealer's discard is hidden from the others."""
    from cardlab.sim.euchre5.rules import DISCARD

    seen = log.astype(np.int64)
    if s != dealer:
        seen[seen[:, 1] == DISCARD, 2] = -9
    return seen


@pytest.mark.parametrize("inference", [False, True])
@pytest.mark.parametrize("rules", range(len(EUCHRE_RULES)))
def test_euchre5_search_sees_only_what_its_seat_has_seen(rules, inference):
    """With inference (worlds weighted by the others' bids, call and cards) as without: the likelihood reads
    each world's partner (its holder of the called card), never the true one before the called card is out."""
    from cardlab.sim.euchre5.kernels import deal_nb
    from cardlab.sim.euchre5.rules import CALL, DECK, PLAY, Euchre5Options, kernel_rules
    from cardlab.sim.euchre5.search import INFERENCE_EPSILON, SEARCH

    kr = kernel_rules(Euchre5Options(**EUCHRE_RULES[rules]))
    seed = 321
    rng = np.random.default_rng(rules)
    compared = late = 0
    for unit in range(50):
        hands = np.empty(5, np.uint64)
        kitty = np.empty(3, np.int64)
        deal_nb(np.uint64(deal_state(seed, unit)), np.empty(DECK.shape[0], np.int8), hands, kitty)
        dealer = unit % 5
        s = (dealer + unit // 10) % 5  # the dealer, then each seat after it
        policies = np.full(5, 1, np.int64)
        policies[s] = SEARCH
        eps = np.where(policies == SEARCH, INFERENCE_EPSILON if inference else 0.0, 0.0)
        log_a, means_a = euchre_hand(kr, seed, unit, hands, kitty, dealer, policies, eps)
        seen_a = euchre_seen(log_a, s, dealer)
        # the cards s has not seen: the other hands and the kitty's two face-down cards
        hidden = [(q, int(c)) for q in range(5) if q != s for c in range(64) if int(hands[q]) >> c & 1]
        hidden += [(5, int(kitty[1])), (5, int(kitty[2]))]
        calls = log_a[log_a[:, 1] == CALL, 2]
        called = int(calls[0]) if len(calls) and any(c == calls[0] for _, c in hidden) else -1
        for trial in range(12):
            moved = rng_swaps(rng, list(hidden), trial % 3)
            if called >= 0 and trial % 2 == 0:  # the called card to another holder: another partner
                i = next(i for i, (_, c) in enumerate(moved) if c == called)
                j = rng.choice([j for j, (q, _) in enumerate(moved) if q != moved[i][0]])
                (a, x), (b, y) = moved[i], moved[j]
                moved[i], moved[j] = (a, y), (b, x)
            elif trial % 3 == 0:
                moved = rng_swaps(rng, moved, 1)
            h = hands.copy()
            for q in range(5):
                if q != s:
                    h[q] = np.uint64(sum(1 << c for p, c in moved if p == q))
            k = kitty.copy()
            k[1:] = sorted(c for p, c in moved if p == 5)
            log_b, means_b = euchre_hand(kr, seed, unit, h, k, dealer, policies, eps)
            seen_b = euchre_seen(log_b, s, dealer)
            differ = np.flatnonzero((seen_a != seen_b).any(axis=1))
            first = int(differ[0]) if len(differ) else len(log_a)
            assert first == len(log_a) or log_a[first, 0] != s, f"hand {unit}: the searcher acted differently"
            for n in range(min(first + 1, len(log_a))):
                if log_a[n, 0] == s and not np.isnan(means_a[n]).all():
                    assert same_bits(means_a[n], means_b[n]), f"hand {unit}, swap {trial}: action {n} peeked"
                    compared += 1
                    late += log_a[n, 1] == PLAY and (log_a[:n, 1] == PLAY).sum() >= 5
    assert compared > 150 and late > 30


# ---------------------------------------------------------------- Barbu (trick contracts and Domino)

BARBU_CASES = [("no-queens", 4, 52, True), ("trumps", 4, 52, True), ("salade", 3, 32, True), ("no-hearts", 5, 52, True),
               ("domino", 4, 52, False), ("no-queens", 4, 52, False), ("last-two", 5, 32, False)]


@pytest.mark.parametrize("contract,players,deck,inference", BARBU_CASES)
def test_barbu_search_sees_only_what_its_seat_has_seen(contract, players, deck, inference):
    """With inference (worlds weighted by the others' past cards) as without."""
    from cardlab.sim.barbu import BarbuOptions, Study
    from cardlab.sim.barbu.rules import CONTRACT_NAMES
    from cardlab.sim.barbu.search import INFERENCE_EPSILON, SEARCH
    from cardlab.sim.barbu.play import domino_callback, user_callback
    from cardlab.sim.barbu.search_deals import TRUMP_BY_POLICY, play_searched_contract_nb, searched_trump_nb
    from cardlab.sim.dealing import deal_hands_nb

    options = BarbuOptions(players=players, deck=deck)
    a = Study(options=options, policies=("heuristic",) * players, seed=1, search_worlds=32, search_rollout="heuristic",
              contracts=(contract,)).kernel_args
    c = CONTRACT_NAMES.index(contract)
    n = players
    width = a["log_width"]
    seed = 12
    rng = np.random.default_rng(players)
    compared = 0

    def play(hands, deal, declarer, policies):
        trump_means = np.full(4, np.nan, np.float32)
        state = np.uint64(deal_state(seed, deal))
        trump = -1
        if contract == "trumps":
            state, trump = searched_trump_nb(seed, deal, hands, n, declarer, TRUMP_BY_POLICY, a["card_values"],
                                             a["trick_values"], a["last_two"], a["flags"], a["point_masks"],
                                             policies, a["duties"], a["weights"], WORLDS, 1, state, trump_means)
            state = np.uint64(state)
        moves = np.full(width, -1, np.int8)
        means = np.full((width, 64), np.nan, np.float32)
        play_searched_contract_nb(seed, deal, hands.copy(), n, declarer, c, trump, a["card_values"],
                                  a["trick_values"], a["last_two"], a["flags"], a["point_masks"], policies,
                                  a["duties"], a["lead_rule"], a["early_stop"], a["domino_variant"],
                                  a["domino_start_rank"], a["domino_starter"], a["ace_replay_optional"], a["places"],
                                  WORLDS, 1, state, moves, means, np.zeros(n, np.int32), user_callback("", True),
                                  domino_callback("", True),
                                  np.zeros(2, np.int64), np.where(policies == SEARCH, eps, 0.0), 1)
        return trump, trump_means, moves, means

    eps = INFERENCE_EPSILON if inference else 0.0

    for deal in range(10):
        hands = np.empty(n, np.uint64)
        deal_hands_nb(np.uint64(deal_state(seed, deal)), a["deck"], np.empty(len(a["deck"]), np.int8), n, hands)
        declarer = deal % n
        s = (declarer + deal // n) % n
        policies = np.full(n, 1, np.int64)
        policies[s] = SEARCH
        trump_a, tm_a, moves_a, means_a = play(hands, deal, declarer, policies)
        hidden = [(q, x) for q in range(n) if q != s for x in range(64) if int(hands[q]) >> x & 1]
        for trial in range(6):
            moved = rng_swaps(rng, list(hidden), 1 + trial % 3)
            h = hands.copy()
            for q in range(n):
                if q != s:
                    h[q] = np.uint64(sum(1 << x for p, x in moved if p == q))
            trump_b, tm_b, moves_b, means_b = play(h, deal, declarer, policies)
            assert same_bits(tm_a, tm_b), f"deal {deal}: the trump search peeked"
            if trump_a != trump_b:
                continue  # a heuristic declarer named another trump: the views differ from the start
            differ = np.flatnonzero(moves_a != moves_b)
            first = int(differ[0]) if len(differ) else width
            assert first == width or np.isnan(means_a[first]).all(), f"deal {deal}: the searcher moved differently"
            for k in range(min(first + 1, width)):
                if not np.isnan(means_a[k]).all():
                    assert same_bits(means_a[k], means_b[k]), f"deal {deal}, swap {trial}: move {k} peeked"
                    compared += 1
    assert compared > 40


# ---------------------------------------------------------------- Minchiate

MINCHIATE_RULES = [dict(), dict(expose_last_cards="all_four", discards_to="own_team_pile", cutter_cap=6)]
MINCHIATE_CASES = [(0, False), (1, False), (0, True), (1, True)]  # (rules, inference)


def minchiate_setup(study, deal, plain):
    from cardlab.sim.minchiate.kernels import COL, LOG_WIDTH, WORK_SIZE, setup_deal_nb

    work = np.empty(WORK_SIZE, np.int64)
    words = np.empty(12, np.uint64)
    out = np.zeros(COL.WIDTH, np.int32)
    log = np.empty(LOG_WIDTH, np.int8)
    state, delta, max_delta, *words_out = setup_deal_nb(study.seed, deal, study.rules, plain, True, work, words, out,
                                                        log, np.empty(4, np.int16), np.empty(12, np.int64))
    return work, words, out, log, [np.uint64(state), np.int64(delta), np.int64(max_delta), *map(np.uint64, words_out)]


@pytest.mark.parametrize("rules,inference", MINCHIATE_CASES)
def test_minchiate_search_sees_only_what_its_seat_has_seen(rules, inference):
    """With inference (worlds weighted by the others' past cards) as without."""
    from cardlab.sim.minchiate.kernels import COL, LOG_PLAYS
    from cardlab.sim.minchiate.policies import DISCARD_HI, DISCARD_LO
    from cardlab.sim.policy import POLICY
    from cardlab.sim.minchiate.rules import N_CARDS, OPT, join, split
    from cardlab.sim.minchiate.search import INFERENCE_EPSILON, N_MOVES, SEARCH, combo_cards_nb, play_searched_cards_nb
    from cardlab.sim.minchiate import Study

    study = Study.build(policy="heuristic", seed=31, **MINCHIATE_RULES[rules])
    opts = study.rules
    blank = set(join(int(DISCARD_LO), int(DISCARD_HI)))
    rng = np.random.default_rng(rules)
    compared = early = 0

    def play(setup, policies, words, piles):
        work, _, out, log, scalars = setup
        scalars = list(scalars)
        scalars[3:7] = piles  # the discards: cutter's lo, hi, dealer's lo, hi
        means = np.full((N_MOVES, N_CARDS), np.nan, np.float32)
        log = log.copy()
        eps = np.where(policies == SEARCH, INFERENCE_EPSILON if inference else 0.0, 0.0)
        play_searched_cards_nb(study.seed, deal, opts, policies, WORLDS, 0, 1, eps, True, work.copy(), words.copy(),
                               out.copy(), log, np.empty(12, np.int64), means, *scalars, no_numba_seat("minchiate"),
                               np.zeros(2, np.int64), -1, np.zeros((2, 0), np.uint64))
        return log[LOG_PLAYS:LOG_PLAYS + N_MOVES].astype(np.int64), means

    for deal in range(6):
        dealer, cutter = deal % 4, (deal + 3) % 4
        s = (dealer + 1 + deal // 4) % 4
        policies = np.full(4, POLICY.HEURISTIC, np.int64)
        policies[s] = SEARCH
        setup = minchiate_setup(study, deal, np.full(4, POLICY.HEURISTIC, np.int64))  # a searcher discards so too
        work, words, out, log, scalars = setup
        cd, dd = set(join(*map(int, scalars[3:5]))), set(join(*map(int, scalars[5:7])))
        hands = [set(join(int(words[p]), int(words[4 + p]))) for p in range(4)]
        perm = work[:N_CARDS]
        k = int(out[COL.CUTTER_CARDS])
        shown = set(int(c) for c in perm[:k]) | set(int(c) for c in perm[k + 84:])  # draws, the Fola as dealt
        shown |= set(int(perm[k + 40 + 11 * j - 1]) for j in range(1, 5))  # exposed (the dealer's, or all four)
        declared = [set(join(*map(int, combo_cards_nb(words[p], words[4 + p], opts[OPT.C5_MERGE] != 0, opts[OPT.MAY_SHARE] != 0))))
                    for p in range(4)]
        plays_a, means_a = play(setup, policies, words, scalars[3:7])
        # hidden from s: the other hands (not drawn, exposed or declared) and the discards s did not make
        owners = [(q, c) for q in range(4) if q != s for c in hands[q] if c not in shown | declared[q]]
        owners += [(4, c) for c in cd if s != cutter and c not in shown]
        owners += [(5, c) for c in dd if s != dealer and c not in shown]
        for trial in range(8):
            moved = rng_swaps(rng, list(owners), 1 + trial % 4)
            new = [set(hands[q]) for q in range(4)] + [set(cd), set(dd)]
            for q, c in owners:
                new[q].discard(c)
            for q, c in moved:
                new[q].add(c)
            if any(c not in blank for q in (4, 5) for c in new[q] - (cd if q == 4 else dd)):
                continue  # only a card that may be discarded can lie in the discards
            w = words.copy()
            for q in range(4):
                w[q], w[4 + q] = map(np.uint64, split(new[q]))
            if any(set(join(*map(int, combo_cards_nb(w[q], w[4 + q], opts[OPT.C5_MERGE] != 0, opts[OPT.MAY_SHARE] != 0)))) != declared[q]
                   for q in range(4)):
                continue  # the declarations would differ: the table would have seen it
            piles = [*map(np.uint64, split(new[4])), *map(np.uint64, split(new[5]))]
            plays_b, means_b = play(setup, policies, w, piles)
            differ = np.flatnonzero(plays_a != plays_b)
            first = int(differ[0]) if len(differ) else N_MOVES
            last = N_MOVES - 1 if new[4] == cd and new[5] == dd else 3  # the discards are shown after trick 1
            if first <= last:
                assert np.isnan(means_a[first]).all(), f"deal {deal}: the searcher played differently"
            for m in range(min(first, last) + 1):
                if not np.isnan(means_a[m]).all():
                    assert same_bits(means_a[m], means_b[m]), f"deal {deal}, swap {trial}: move {m} peeked"
                    compared += 1
                    early += m < 4
    assert compared > 60 and early > 3


# ---------------------------------------------------------------- Rami

RAMI_RULES = [dict(), dict(players=3, discard_take_must_use=False, recycle_discards=True)]


@pytest.mark.parametrize("rules,inference", [(0, False), (0, True), pytest.param(1, False, marks=pytest.mark.slow),
                                              pytest.param(1, True, marks=pytest.mark.slow)])  # RAMI_RULES
def test_rami_search_sees_only_what_its_seat_has_seen(rules, inference):
    """With inference (worlds weighted by the others' last draw and discard) as without."""
    from cardlab.sim.rami import search as S
    from cardlab.sim.rami.kernels import DECK_MAX, EV_DISCARD, EV_DRAW, EV_RECYCLE, EV_TAKE, LOG_ROWS, LOG_W
    from cardlab.sim.rami.melds import MAX_MELDS, MELD_W
    from cardlab.sim.rami.rules import HAND_W
    from cardlab.sim.rami import Study
    from cardlab.sim.games import game
    from cardlab.sim.user import run_callbacks

    study = Study.build(seed=17, **RAMI_RULES[rules])
    o = study.options.kernel_ints()
    P = study.options.players
    n_cards = study.options.deck_size
    rng = np.random.default_rng(rules)
    compared = 0

    def deal_round(deal):
        hands = np.zeros((P, HAND_W), np.int64)
        deck = np.zeros(DECK_MAX, np.int64)
        pile = np.zeros(DECK_MAX, np.int64)
        table = np.zeros((MAX_MELDS, MELD_W), np.int64)
        seats = np.zeros((3, P), np.int64)
        sc = np.zeros(S.SC_W, np.int64)
        state = S.deal_round_nb(np.uint64(deal_state(study.seed, deal)), deal % P, o, hands, deck, pile, table, seats,
                                sc, np.zeros(0, np.int64))
        return [np.uint64(state), hands, deck, pile, table, seats, sc]

    def play(deal, dealt, pols):
        state, *arrays = dealt
        arrays = [x.copy() for x in arrays]
        log = np.zeros((LOG_ROWS, LOG_W), np.int64)
        means = np.zeros((S.MEAN_ROWS, S.MEAN_W), np.float64)
        eps = np.where(pols == S.SEARCH, S.INFERENCE_EPSILON if inference else 0.0, 0.0)
        *_, li, mi = S.play_search_dealt_nb(study.seed, deal, 0, state, o, pols, WORLDS, 0, S.SHORTLIST, eps, log,
                                             np.zeros((4, P), np.int64), means, *arrays,
                                             run_callbacks("", game("rami").numba_seat, searched=True),
                                             np.zeros(2, np.int64))
        return log[:li], means[:mi]

    def seen_by(log, s):
        seen = log.copy()
        seen[(seen[:, 0] == EV_DRAW) & (seen[:, 1] != s), 2] = -9  # a stock draw shows only to the drawer
        return seen

    def decisions(log, means):
        """Each searched decision: ((turn, phase), log position it was made at, its rows of ``means``)."""
        at = {}
        turn = -1
        for i, row in enumerate(log):
            if row[0] in (EV_DRAW, EV_TAKE):
                turn += 1
                at[(turn, S.PHASE_DRAW)] = i
            elif row[0] == EV_DISCARD:
                at[(turn, S.PHASE_DISCARD)] = i
        out = {}
        for row in means:
            key = (int(row[0]), int(row[2]))
            out.setdefault(key, [at[key], []])[1].append(row)
        return {k: (i, np.array(r)) for k, (i, r) in out.items()}

    for deal in range(12):
        s = (deal + 1 + deal // P) % P
        pols = np.zeros(P, np.int64)
        pols[s] = S.SEARCH
        dealt = deal_round(deal)
        hands, deck, sc = dealt[1], dealt[2], dealt[6]
        log_a, means_a = play(deal, dealt, pols)
        seen_a = seen_by(log_a, s)
        dec_a = decisions(log_a, means_a)
        sp = int(sc[S.S_SP])
        mine = set()  # the stock cards s drew (until a recycle): they stay where they are
        pos = sp
        for row in log_a:
            if row[0] == EV_RECYCLE:
                break
            if row[0] == EV_DRAW:
                if row[1] == s:
                    mine.add(pos)
                pos += 1
        free = [j for j in range(sp, n_cards) if j not in mine]
        cards = [(q, k) for q in range(P) if q != s for k in range(HAND_W) for _ in range(hands[q, k])]
        for trial in range(6):
            b = [x.copy() if hasattr(x, "copy") else x for x in dealt]
            if trial % 2 == 0:  # the stock reordered
                b[2][free] = deck[rng.permutation(free)]
            if trial > 0:  # cards swapped between the other hands
                b[1][[q for q in range(P) if q != s]] = 0
                for q, k in rng_swaps(rng, list(cards), trial):
                    b[1][q, k] += 1
            log_b, means_b = play(deal, b, pols)
            seen_b = seen_by(log_b, s)
            n = min(len(seen_a), len(seen_b))
            differ = np.flatnonzero((seen_a[:n] != seen_b[:n]).any(axis=1))
            first = int(differ[0]) if len(differ) else n
            assert first == n or seen_a[first, 1] != s, f"round {deal}: the searcher acted differently"
            dec_b = decisions(log_b, means_b)
            for key, (i, rows) in dec_a.items():
                if i <= first:
                    assert key in dec_b and dec_b[key][0] == i, f"round {deal}: decision {key} not searched in both"
                    assert same_bits(rows, dec_b[key][1]), f"round {deal}, trial {trial}: decision {key} peeked"
                    compared += 1
    assert compared > 40


# ---------------------------------------------------------------- Hearts

HEARTS_CASES = [(4, False), (4, True), (3, True), (5, True)]


@pytest.mark.parametrize("players,inference", HEARTS_CASES)
def test_hearts_search_sees_only_what_its_seat_has_seen(players, inference):
    """With inference (worlds weighted by the others' past cards) as without: at every searched card of seat 0 among
    heuristic seats, a deal redealt consistently with the seat's view (its hidden cards moved between the other
    seats, voids, the cards it passed and the lead card with the first leader respected; the same public history)
    gives the same card and bit-identical candidate means; the oracle, which sees the deal, does not."""
    from cardlab.sim.hearts import HEARTS
    from cardlab.sim.hearts.state_policies import searched_move
    from tests.search_checks import hidden_cards_checked

    study = HEARTS.build("deals", seed=4, policy=["search"] + ["heuristic"] * (players - 1), players=players,
                         search_worlds=WORLDS, search_inference="on" if inference else "off")

    def decisions():
        for deal in range(3):
            state = HEARTS.new_state(study, deal)
            while not state.is_over:
                if state.current_player == 0 and not state.passing and len(state.legal_actions()) > 1:
                    yield state
                state.apply(state.policy_action(study.policies[state.current_player]))

    def exact(state, policy="search"):  # the means compared bit for bit (hidden_cards_checked compares with ==)
        move, means = searched_move(state, policy)
        return move, {c: np.float64(m).tobytes() for c, m in means.items()}

    checked, differ = hidden_cards_checked(decisions(), exact)
    assert checked > 10 * (3 if players == 4 else 2) // 2 and differ > 0
