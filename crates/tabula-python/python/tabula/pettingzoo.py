"""A PettingZoo AEC environment for Tabula's games, whose Tabula engine can play as an opponent.

>>> from tabula.pettingzoo import env
>>> game = env("connect4")
>>> game.reset(seed=0)
>>> observation, reward, termination, truncation, info = game.last()
>>> observation["observation"].shape, observation["action_mask"].tolist()
((6, 7, 2), [1, 1, 1, 1, 1, 1, 1])
>>> game.step(game.unwrapped.engine_action(depth=6))  # the engine plays for the agent to move

Games: ``connect4`` (actions are the columns, 0 to 6), ``gomoku`` (a cell, row by row from the top left;
``size`` and ``rule`` choose the variant), ``xiangqi`` (the cell a piece leaves times 90 plus the cell it
reaches, rows from Black's side) and ``tictactoe``. The observation has, for the agent observing, a plane per
kind of its own pieces and then a plane per kind of its opponent's (one kind of stone in Connect Four, Gomoku
and tic-tac-toe; xiangqi's seven roles), and the mask of the legal actions.

Needs ``pettingzoo``, ``gymnasium`` and ``numpy`` (``pip install tabula-games[pettingzoo]``).
"""

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import AgentSelector, wrappers  # type: ignore[import-untyped]

import tabula

# Each game's module, and each mark of its board cells as (player, kind): player 0 moves first.
_XIANGQI_ROLES = [("帥", "將"), ("仕", "士"), ("相", "象"), ("傌", "馬"), ("俥", "車"), ("炮", "砲"), ("兵", "卒")]
GAMES = {
    "connect4": (tabula.connect4, {"x": (0, 0), "o": (1, 0)}),
    "gomoku": (tabula.gomoku, {"b": (0, 0), "w": (1, 0)}),
    "tictactoe": (tabula.tictactoe, {"x": (0, 0), "o": (1, 0)}),
    "xiangqi": (
        tabula.xiangqi,
        {mark: (player, kind) for kind, pair in enumerate(_XIANGQI_ROLES) for player, mark in enumerate(pair)},
    ),
}


def env(game="connect4", **kwargs):
    """The environment of ``game``, wrapped as PettingZoo's classic environments are: an illegal action ends the
    game with a reward of -1 for the agent that made it."""
    raw = raw_env(game, **kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):
    """A two-player game of Tabula's as an AEC environment (see the module's documentation)."""

    metadata = {"render_modes": ["human", "ansi"], "name": "tabula_v0", "is_parallelizable": False}

    def __init__(self, game="connect4", render_mode=None, max_plies=None, hash_mib=16, **setup):
        """``setup``: the game's variant (Gomoku's ``size`` and ``rule``); ``max_plies``: the game is truncated
        after this many plies; ``hash_mib``: the engine's table."""
        super().__init__()
        if game not in GAMES:
            raise ValueError(f"no game {game!r} here: {', '.join(GAMES)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.game = game
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.metadata = dict(self.metadata, name=f"tabula_{game}_v0")
        self._module, self._marks = GAMES[game]
        self._setup = setup
        self._hash_mib = hash_mib
        self._engine = None
        self.position = self._module.Position(**setup)
        width, height, _, self._drop = self.position.cells()
        self._width, self._height = width, height
        self._kinds = 1 + max(kind for _, kind in self._marks.values())
        moves = self.position.legal_moves()
        self._moving = any(self.position.move_cells(m)[0] is not None for m in moves)
        cells = width * height
        actions = width if self._drop else cells * cells if self._moving else cells
        self.possible_agents = ["player_0", "player_1"]
        self.agents = self.possible_agents[:]
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        observation = spaces.Box(low=0, high=1, shape=(height, width, 2 * self._kinds), dtype=np.int8)
        mask = spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": observation, "action_mask": mask}) for a in self.possible_agents
        }

    def observation_space(self, agent):
        """The observation's space: the planes of pieces, and the mask of legal actions."""
        return self.observation_spaces[agent]

    def action_space(self, agent):
        """The actions: a column (drop games), a cell, or a source cell times the cells plus a target cell."""
        return self.action_spaces[agent]

    def action(self, move):
        """The action of a legal move given in the game's coordinates."""
        source, target = self.position.move_cells(move)
        if self._drop:
            return target % self._width
        if self._moving:
            return source * self._width * self._height + target
        return target

    def _legal(self):
        """The legal moves by action."""
        return {self.action(m): m for m in self.position.legal_moves()}

    def observe(self, agent):
        """The board as ``agent`` sees it (its own pieces' planes first), and the mask of its legal actions."""
        player = self.possible_agents.index(agent)
        width, height, marks, _ = self.position.cells()
        planes = np.zeros((height * width, 2 * self._kinds), dtype=np.int8)
        for cell, mark in enumerate(marks):
            if mark:
                owner, kind = self._marks[mark]
                planes[cell, kind if owner == player else self._kinds + kind] = 1
        mask = np.zeros(self.action_spaces[agent].n, dtype=np.int8)
        if agent == self.agent_selection and not self.terminations[agent]:
            mask[list(self._legal())] = 1
        return {"observation": planes.reshape(height, width, 2 * self._kinds), "action_mask": mask}

    def reset(self, seed=None, options=None):
        """Back to the start position (the game has no randomness: ``seed`` changes nothing)."""
        self.position = self._module.Position(**self._setup)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()

    def step(self, action):
        """Plays ``action`` for the agent to move; the game's end gives +1 to the winner and -1 to the loser."""
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            return self._was_dead_step(action)
        mover = self.agent_selection
        legal = self._legal()
        if action not in legal:
            raise ValueError(f"action {action} is not legal here")
        self.position.play(legal[action])
        other = self._agent_selector.next()
        outcome = self.position.outcome()
        if outcome is not None:
            # The outcome is the side to move's, that is the other agent's.
            won = {"win": -1, "loss": 1, "draw": 0}.get(outcome) if isinstance(outcome, str) else -int(np.sign(outcome))
            self.rewards[mover] += won
            self.rewards[other] -= won
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_plies is not None and len(self.position.moves) >= self.max_plies:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = other
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def engine_action(self, depth=None, nodes=None, time=None):
        """The action the game's Tabula engine chooses for the agent to move, within the limits given (one
        second if none)."""
        if self._engine is None:
            self._engine = self._module.Engine(hash_mib=self._hash_mib)
        best = self._engine.analyse(self.position, depth=depth, nodes=nodes, time=time).best
        return self.action(best)

    def render(self):
        """The board as text: printed (``human``) or returned (``ansi``)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: raw_env(..., render_mode='ansi')")
            return None
        text = self.position.board()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        """Nothing to release."""
