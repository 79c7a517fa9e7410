"""Numbers of La parlote coinchée that a designer might tune (bids, points, clocks)."""

from __future__ import annotations

PLAYERS = 4
HAND_SIZE = 7
TRICKS = 7
CARDS_PER_COLOUR = 4  # one of each depth in the selection of 28

MIN_BID = 80
MAX_BID = 150
BID_STEP = 10
CAPOT = 250  # the amount a « capot » (all seven tricks) counts for
FAILED_BONUS = 160  # what the defenders score on top of the bid when the contract fails
COINCHE_FACTOR = 2

NON_TRUMP_POINTS_PER_DEPTH = 2  # a non-trump card is worth 2 × depth
TRUMP_POINTS_BASE = 12  # a trump card is worth 12 − 2 × depth
DEAL_POINTS = 156  # card points in a deal (5 colours × 20 + 2 trump colours × 28)

CONTESTS_PER_DEAL = 2  # per team
MAX_ARGUMENT = 280
TARGET = 1000  # the first team over this many points wins

# clocks, in seconds
PLAY_SECONDS = 90  # default of the table option, also used for a bid
LIAR_SECONDS = 10  # the « moi ! » buttons before the first deal
DRAW_SECONDS = 30  # the reader chooses a pile
CONTEST_SECONDS = 15
VOTE_SECONDS = 30
JUDGE_SECONDS = 30
