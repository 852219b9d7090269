"""What the explorer is asked (ExploreRequest, Bar) and what it answers (Exploration, Candidate, Quote)."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Sizing, Wiring
from ..spec import DesignSpec, SwitchHw

# The customer's bar, each optional: name -> (what it bounds, "max" or "min").
BARS = {
    "max_oversubscription": ("oversubscription", "max"),
    "max_hops": ("max_hops", "max"),
    "min_growth_gpus": ("max_gpus", "min"),
    "budget": ("total_cost", "max"),
    "max_power_w": ("power_typical_w", "max"),
}


@dataclass(frozen=True, slots=True)
class Bar:
    """What a fabric must meet; None = no bar on that figure. Power is the network's typical power."""

    max_oversubscription: float | None = None
    max_hops: int | None = None
    min_growth_gpus: int | None = None
    budget: float | None = None
    max_power_w: float | None = None

    def given(self) -> dict[str, float]:
        return {name: getattr(self, name) for name in BARS if getattr(self, name) is not None}


@dataclass(frozen=True, slots=True)
class ExploreRequest:
    """`base` gives everything but the structure (server, NIC, GPUs, layout, prices, spares, optics ...);
    its leaf, spine, core, planes, tiers and oversubscription are replaced by each candidate's.

    `switches`: every catalog switch model in every breakout mode (the explorer keeps those of the
    base's fabric at the NIC speed). `oversubscriptions`: the o:1 ratios to try (default 1:1 and, when the
    bar allows more, nothing else: a user asks for 2:1 or 3:1 explicitly). `blocking`: also list the
    fewest-spines wiring of each structure when that is cheaper (below its stated oversubscription).
    """

    base: DesignSpec
    switches: tuple[SwitchHw, ...]
    bar: Bar = field(default_factory=Bar)
    oversubscriptions: tuple[float, ...] = (1.0,)
    blocking: bool = False
    nearest: int = 5  # candidates shown when nothing meets the bar


@dataclass(slots=True)
class Quote:
    """A fabric sized, proved and priced without a link table (engine.explore.fast): what plan() would give."""

    sizing: Sizing
    wiring: Wiring
    total_cost: float
    subtotal: float
    power_typical_w: float
    power_max_w: float
    rack_units: int
    currency: str
    racks: int = 0  # racks the fabric's devices stand in (engine.racks.place), as the hall counts them


@dataclass(frozen=True, slots=True)
class Miss:
    """One bar a candidate misses: the bar's name, its limit and the candidate's value."""

    bar: str
    limit: float
    value: float

    @property
    def shortfall(self) -> float:
        """How far off, relative to the limit (0.1 = 10 % beyond it)."""
        return abs(self.value - self.limit) / max(abs(self.limit), 1e-9)


@dataclass(slots=True)
class Candidate:
    spec: DesignSpec
    quote: Quote
    blocking: bool = False
    pareto: bool = False
    misses: list[Miss] = field(default_factory=list)

    @property
    def meets_bar(self) -> bool:
        return not self.misses

    @property
    def sizing(self) -> Sizing:
        return self.quote.sizing

    @property
    def oversubscription(self) -> float:
        return float(self.spec.oversubscription)

    def figure(self, name: str) -> float:
        """The value a bar bounds (see BARS)."""
        attr = BARS[name][0]
        if attr == "oversubscription":
            return self.oversubscription
        if attr in ("max_hops", "max_gpus"):
            return getattr(self.quote.sizing, attr)
        return getattr(self.quote, attr)


@dataclass(slots=True)
class Exploration:
    """Every candidate shown, cheapest first; `bar_met` False = `candidates` are the nearest misses."""

    candidates: list[Candidate]
    bar: Bar
    bar_met: bool
    explored: int  # structures tried (switch models x breakouts x planes x tiers x oversubscriptions)
    feasible: int  # of those, fabrics the engine can build (as stated; blocking ones not counted)
    seconds: float = 0.0
