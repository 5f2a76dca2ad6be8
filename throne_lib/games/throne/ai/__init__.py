"""AI agents beyond the uniform random one: the seed's scripted AI (R-AI-1, R-AI-2)
and a search agent that looks ahead on copies of the match."""

from throne_lib.games.throne.ai.evaluate import DEFAULT_WEIGHTS, Weights, evaluate
from throne_lib.games.throne.ai.standard import StandardAgent

__all__ = ["DEFAULT_WEIGHTS", "StandardAgent", "Weights", "evaluate"]
