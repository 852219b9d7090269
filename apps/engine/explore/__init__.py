"""Design-space explorer: every feasible fabric the catalog offers for one request, priced as plan() prices.

    explore(request) -> Exploration            engine.explore.search
    quote(spec, *, even=True) -> Quote          engine.explore.quote: the fast path, no devices, no addresses
    alternatives.alternatives(spec) / .size(spec)   engine.plan.alternatives / size priced by the fast path
    request_from_dict(data) / exploration_dict(result)   engine.explore.io: the CLI's JSON

See search.py for what is enumerated, the bar and the Pareto frontier.
"""
from .model import BARS, Bar, Candidate, Exploration, ExploreRequest, Miss, Quote
from .fast import quote
from .search import explore, switch_options

__all__ = ["BARS", "Bar", "Candidate", "Exploration", "ExploreRequest", "Miss", "Quote", "explore", "quote",
           "switch_options"]
