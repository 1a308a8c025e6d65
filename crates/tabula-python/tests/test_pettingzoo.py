"""The PettingZoo environment: PettingZoo's own api_test for each game, and the engine as an opponent."""

import random

import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

from tabula.pettingzoo import env, raw_env  # noqa: E402


@pytest.mark.parametrize(
    "game,setup",
    [("connect4", {}), ("gomoku", {"size": 9}), ("xiangqi", {"max_plies": 300}), ("tictactoe", {})],
)
def test_pettingzoos_api_test_passes(game, setup):
    api_test(env(game, **setup), num_cycles=300)


def test_observations_are_the_agents_own_pieces_first():
    e = raw_env("xiangqi")
    e.reset()
    red = e.observe("player_0")["observation"]
    black = e.observe("player_1")["observation"]
    assert red.shape == (10, 9, 14)
    assert red[9, 4, 0] == 1 and black[9, 4, 7] == 1  # Red's king (帥) on e0, the bottom row
    assert (red[:, :, :7] == black[:, :, 7:]).all()
    assert e.observe("player_0")["action_mask"].sum() == 44 and e.observe("player_1")["action_mask"].sum() == 0


def play(game, engine_agent, seed, depth, **setup):
    """A game of the engine against a random player; the engine agent's final reward."""
    e = env(game, **setup)
    e.reset(seed=seed)
    rng = random.Random(seed)
    rewards = {}
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        rewards[agent] = reward
        if termination or truncation:
            e.step(None)
            continue
        if agent == engine_agent:
            action = e.unwrapped.engine_action(depth=depth)
        else:
            action = rng.choice([a for a, legal in enumerate(observation["action_mask"]) if legal])
        e.step(action)
    return rewards[engine_agent]


@pytest.mark.parametrize("game,depth,setup", [("connect4", 6, {}), ("gomoku", 3, {"size": 9}), ("tictactoe", 9, {})])
def test_the_engine_as_an_opponent_never_loses_to_random_play(game, depth, setup):
    results = [play(game, f"player_{seed % 2}", seed, depth, **setup) for seed in range(6)]
    assert min(results) >= 0, results
    if game != "tictactoe":
        assert sum(results) >= 5, results
