"""Sending background work to the Celery broker: the one path every job and analysis takes.

Rules:
- A request checks the broker answers (`queue_check`, a connection with a short timeout) BEFORE
  it writes anything; if not, QueueUnavailable: the API answers 503 with a message, pages a 503
  page (fabricweb.middleware), and no design, version, job or analysis row exists.
- The message is published after the transaction commits, with a task id chosen here and
  recorded on the row first (`celery_task_id`, and for jobs `sent_at` and `sends`), so a task can
  tell the message its row expects from a stale duplicate, and the sweep (services.job.jobs_sweep)
  can tell a message still waiting in the broker from one that was lost.
- A publish failing after the commit (the broker went away in between) is logged, not raised:
  the row stays queued with no `sent_at` and the sweep sends it again.
- In-process mode (task_always_eager) checks nothing: tasks run inside the request.
"""
from __future__ import annotations

import json
import logging
import uuid
from typing import Any, Callable

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)


class QueueUnavailable(Exception):
    """The broker does not answer: nothing was written; the user should try again later."""

    def __init__(self, reason: str = ""):
        self.reason = reason
        super().__init__(queue_unavailable_message())


def queue_unavailable_message() -> str:
    return _(
        "The job queue is unreachable, so nothing was created. Try again in a few minutes; "
        "if it persists, ask your administrator to check Redis and the Celery worker."
    )


def queue_is_eager() -> bool:
    return bool(current_app.conf.task_always_eager)


def queue_check() -> None:
    """Raise QueueUnavailable unless the broker accepts a connection within FABRICWEB_BROKER_CHECK_TIMEOUT."""
    if queue_is_eager():
        return
    timeout = float(settings.FABRICWEB_BROKER_CHECK_TIMEOUT)
    try:
        with current_app.connection_for_write(connect_timeout=timeout) as connection:
            connection.ensure_connection(max_retries=1, interval_start=0, interval_step=0, timeout=timeout)
    except Exception as exc:  # kombu raises OperationalError, socket errors or redis errors by transport
        logger.warning("broker unreachable: %s", exc)
        raise QueueUnavailable(str(exc)) from None


def queue_new_task_id() -> str:
    return str(uuid.uuid4())


def queue_send(*, task: Any, args: list[Any], task_id: str, on_failure: Callable[[], None] | None = None) -> bool:
    """Publish `task(*args)` under `task_id` now; False (logged, `on_failure` called) if the broker refuses."""
    try:
        task.apply_async(args=args, task_id=task_id)
    except Exception:
        logger.exception("could not send %s%s to the broker; the sweep will send it again", task.name, args)
        if on_failure is not None:
            on_failure()
        return False
    return True


def queue_send_on_commit(*, task: Any, args: list[Any], task_id: str,
                         on_failure: Callable[[], None] | None = None) -> None:
    """Publish once the current transaction commits (at once outside one)."""
    transaction.on_commit(lambda: queue_send(task=task, args=args, task_id=task_id, on_failure=on_failure))


def _loads(raw: bytes | str) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return None


def queue_waiting_task_ids() -> set[str] | None:
    """Ids of the task messages the broker still holds (queued, or delivered and not yet acknowledged).

    None when that cannot be known (a transport other than Redis, or the broker unreachable): the
    sweep then trusts time alone.
    """
    if queue_is_eager():
        return None
    queues = {settings.CELERY_TASK_DEFAULT_QUEUE}
    try:
        with current_app.connection_for_write(
            connect_timeout=float(settings.FABRICWEB_BROKER_CHECK_TIMEOUT)
        ) as connection:
            channel = connection.default_channel
            client = getattr(channel, "client", None)
            if client is None or not hasattr(channel, "_q_for_pri"):
                return None
            messages: list[Any] = []
            for queue in queues:
                for priority in channel.priority_steps:
                    messages.extend(_loads(raw) for raw in client.lrange(channel._q_for_pri(queue, priority), 0, -1))
            # Delivered, not yet acknowledged: kombu keeps [message, exchange, routing key] by delivery tag.
            for raw in client.hvals(channel.unacked_key):
                entry = _loads(raw)
                messages.append(entry[0] if isinstance(entry, list) and entry else None)
    except Exception as exc:
        logger.warning("could not list the broker's messages: %s", exc)
        return None
    ids: set[str] = set()
    for message in messages:
        if not isinstance(message, dict):
            continue
        headers = message.get("headers") or {}
        task_id = headers.get("id") or (message.get("properties") or {}).get("correlation_id")
        if task_id:
            ids.add(str(task_id))
    return ids
