"""Work other apps add to a version's generation, without designs knowing them.

Generation (apps.designs.services.design.design_version_generate) plans the version with the
engine, then saves its rows in one transaction. A registered step runs in two halves:

- `compute(plan, version, progress)` after the plan, outside the transaction: the Plan is in
  memory, so the step need not read the rows back. `progress(stage, percent)` moves the job's bar
  across the part kept for steps (GENERATION_STEPS_SPAN, shared evenly by the steps in order).
  Exceptions propagate and fail the generation: a step that must not (advice, not the fabric)
  stores its own failure in what it returns.
- `save(version, result)` inside the generation's transaction, so what it writes appears with
  the version's rows or not at all; it returns the seconds to add to the version's
  summary["timings_s"] (name -> seconds).

Register once, from your AppConfig.ready():

    from apps.designs.generation import GenerationStep, generation_step_register
    generation_step_register(GenerationStep(key="analysis", compute=..., save=..., order=10))

The analysis app adds the traffic analysis and the RoCE review this way.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from apps.engine.model import Plan

    from .models import DesignVersion

Progress = Callable[[str, int], None]

# The part of the job's progress bar the registered steps share (the engine takes 5-75, saving 90-100).
GENERATION_STEPS_SPAN = (77, 89)


@dataclass(frozen=True)
class GenerationStep:
    key: str
    compute: Callable[[Plan, DesignVersion, Progress], Any]
    save: Callable[[DesignVersion, Any], dict[str, float]]
    order: int = 100


_STEPS: dict[str, GenerationStep] = {}


def generation_step_register(step: GenerationStep) -> None:
    """Add or replace (same key) a step; registering twice is harmless."""
    _STEPS[step.key] = step


def generation_step_unregister(*, key: str) -> None:
    _STEPS.pop(key, None)


def generation_step_list() -> list[GenerationStep]:
    return sorted(_STEPS.values(), key=lambda step: (step.order, step.key))


def generation_step_spans(count: int) -> list[tuple[int, int]]:
    """GENERATION_STEPS_SPAN cut into `count` consecutive parts (one step: the whole span)."""
    low, high = GENERATION_STEPS_SPAN
    width = (high - low) / max(count, 1)
    return [(low + round(i * width), low + round((i + 1) * width)) for i in range(count)]
