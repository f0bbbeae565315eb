"""The review of a hand in the browser: started by a seated person after the hand ends
(the result dialog's "Review my hand") or by anyone in the replay of a finished match,
worked in the heavy requests' process one decision at a time, polled for its progress.

Our specifications
------------------
* **Who may review what.** A seat's link reviews that seat's decisions in a hand of the
  match in play, once that hand is over (a hand not finished is refused by
  :func:`cherki.play.review.plan_review` before any rollout). Without a seat's link,
  a review is of a match that is over, whose replay the server shows anyone face up
  (``/api/tables/{id}/replay``); there any seat may be reviewed. Either way the evaluator
  reads only the reviewed seat's observation at each decision (:mod:`cherki.bots.review`).
* **Off the event loop, bounded.** Each decision is one job of the heavy requests'
  process (:class:`cherki.server.service.Heavy`: low priority, its own time limit), so a
  review never holds the loop nor that process for long, and a replay asked meanwhile
  waits one decision at most. At most ``reviews`` reviews run at once in all,
  ``reviews_per_table`` a table and ``reviews_per_address`` an address; a review stops
  after ``review_seconds`` and keeps what it found ("cut short", in words). Each decision
  takes ``review_budget`` sampled deals (the limits of :mod:`cherki.server.limits`).
* **Nothing of the record in the serving process.** The serving process pins what is
  reviewed (the table, the match, the hand, the seat) and hands only that to the jobs: the
  heavy process reads the match from the database itself (:mod:`cherki.server.stored`'s
  reader) and keeps the last few records it read, so the decisions after the first read
  nothing again. Where this process plays the table, a seat's hand is pinned at the
  request, under the table's lock, so every action of it is stored already and a hand dealt
  meanwhile is never the one reviewed; a hand once finished never changes, so a record read
  later holds it as it was. A table not played here (at rest, or another process's) is not
  loaded for it: the store's last match is reviewed, and its hand is found where it is
  read (one still in play is refused there, in words).
* A finished review is kept ``KEEP_SECONDS`` for its page to read, then forgotten.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar, TypeVarTuple

from fastapi import APIRouter, HTTPException, Request

from cherki.core.errors import CherkiError
from cherki.core.events import JSON
from cherki.i18n import normalise, words
from cherki.play.records import Record
from cherki.server.limits import Limits

if TYPE_CHECKING:
    from cherki.server.service import Server

_T = TypeVar("_T")
_Args = TypeVarTuple("_Args")

#: seconds a finished review is kept for its page
KEEP_SECONDS = 600.0
#: reviews kept at most (finished and running)
KEEP_MOST = 500

router = APIRouter()


# -- the jobs of the heavy requests' process (top-level: they are pickled) -------------------
#: the records this (heavy) process has read for reviews, by (database, table, match): a
#: hand of a match, once finished, never changes, so a record read once serves every
#: decision of a review of one of the hands it holds
_read: dict[tuple[str, str, int], Record] = {}
#: records kept at most
_READ_MOST = 8


def _record(url: str, table_id: str, match: int, hand: int | None) -> Record:
    """In the heavy process: match ``match`` of the table as stored, holding hand ``hand``
    (None: as it is now) if the table has played it; read from the database unless a
    record read before holds it already."""
    from cherki.server.stored import reader

    key = (url, table_id, match)
    kept = _read.get(key)
    if kept is not None and hand is not None and hand < len(kept.hands):
        return kept
    record = reader(url).stored(table_id, match)[0]
    _read.pop(key, None)
    while len(_read) >= _READ_MOST:
        del _read[next(iter(_read))]
    _read[key] = record
    return record


def _plan_job(url: str, table_id: str, match: int, seat: int, hand: int | None) -> tuple[int, str]:
    """(200, the plan's JSON) or (400, 404 or 503, why) for a review of ``seat`` in hand
    ``hand`` (None: the last) of match ``match`` of the table, read from the database."""
    from cherki.bots.review import thresholds_for
    from cherki.play.review import plan_evaluator, plan_review
    from cherki.server.store import StoreUnavailable

    try:
        record = _record(url, table_id, match, hand)
    except StoreUnavailable as err:
        return 503, str(err)
    except CherkiError as err:
        return 404, str(err)
    try:
        plan = plan_review(record, seat, hand)
    except CherkiError as err:
        return 400, str(err)
    out = {
        "game": record.game.name,
        "seat": seat,
        "hand": plan.hand + 1,
        "player": record.players[seat],
        "total": len(plan.points),
        "payment": plan.payment,
        "thresholds": thresholds_for(record.game.name).to_json(),
        # the learned bot's rollouts where it is measured as strong as the search's
        "evaluator": plan_evaluator(plan),
    }
    return 200, json.dumps(out)


def _judge_job(
    url: str, table_id: str, match: int, seat: int, hand: int, i: int, budget: int
) -> str:
    """Decision ``i`` of the review of ``seat`` in hand ``hand`` judged, as JSON."""
    from cherki.play.review import judge_decision, plan_review

    plan = plan_review(_record(url, table_id, match, hand), seat, hand)
    return json.dumps(judge_decision(plan, i, budget=budget).to_json())


# -- the reviews in hand ----------------------------------------------------------------------
class Runs(Protocol):
    """What runs a job off the event loop (the server's :class:`Heavy`)."""

    def run(self, fn: Callable[[*_Args], _T], *args: *_Args) -> Awaitable[_T]: ...


@dataclass
class Job:
    id: str
    table: str
    address: str
    lang: str
    state: str = "waiting"  # waiting, working, done, cut, refused
    done: int = 0
    total: int | None = None
    plan: dict[str, JSON] = field(default_factory=dict)
    decisions: list[JSON] = field(default_factory=list)
    why: str = ""
    loss: float = 0.0
    ended: float | None = None

    def to_json(self, budget: int) -> dict[str, JSON]:
        return {
            "id": self.id,
            "state": self.state,
            "done": self.done,
            "total": self.total,
            "why": self.why,
            "evaluator": "search",
            "budget": budget,
            **self.plan,
            "total_loss": round(self.loss, 4),
            "decisions": list(self.decisions),
        }


class Reviews:
    """The reviews of one serving process."""

    def __init__(self, heavy: Runs, limits: Limits) -> None:
        self.heavy = heavy
        self.limits = limits
        self.jobs: dict[str, Job] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def running(self) -> list[Job]:
        return [j for j in self.jobs.values() if j.ended is None]

    def refuse(self, table: str, address: str, lang: str) -> str | None:
        """Why a new review may not start now, in the reader's words, or None."""
        w = words(lang)
        live = self.running()
        if len(live) >= self.limits.reviews:
            return w.t("review.limit.all", n=self.limits.reviews)
        if sum(j.table == table for j in live) >= self.limits.reviews_per_table:
            return w.t("review.limit.table", n=self.limits.reviews_per_table)
        if sum(j.address == address for j in live) >= self.limits.reviews_per_address:
            return w.t("review.limit.address", n=self.limits.reviews_per_address)
        return None

    def start(
        self, url: str, table: str, address: str, lang: str, match: int, seat: int,
        hand: int | None,
    ) -> Job:  # fmt: skip
        why = self.refuse(table, address, lang)
        if why is not None:
            raise HTTPException(429, why)
        self._forget()
        job = Job(secrets.token_urlsafe(12), table, address, lang)
        self.jobs[job.id] = job
        task = asyncio.get_running_loop().create_task(self._run(job, url, match, seat, hand))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return job

    def _forget(self) -> None:
        now = time.monotonic()
        for key, job in list(self.jobs.items()):
            if job.ended is not None and (
                now - job.ended > KEEP_SECONDS or len(self.jobs) > KEEP_MOST
            ):
                del self.jobs[key]

    async def _heavy(self, deadline: float, fn: Callable[[*_Args], _T], *args: *_Args) -> _T:
        """One job in the heavy process, waiting for room there until ``deadline``."""
        while True:
            try:
                return await self.heavy.run(fn, *args)
            except HTTPException as err:
                if err.status_code != 503 or "busy" not in str(err.detail):
                    raise
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.5)

    async def _run(self, job: Job, url: str, match: int, seat: int, hand: int | None) -> None:
        w = words(job.lang)
        deadline = time.monotonic() + self.limits.review_seconds
        try:
            status, plan = await self._heavy(deadline, _plan_job, url, job.table, match, seat, hand)
            if status != 200:
                job.state, job.why = "refused", plan
                return
            job.plan = json.loads(plan)
            job.total = int(job.plan["total"])  # type: ignore[arg-type]
            job.state = "working"
            index = int(job.plan["hand"]) - 1  # type: ignore[arg-type]
            for i in range(job.total):
                if time.monotonic() > deadline:
                    job.state = "cut"
                    job.why = w.t("review.limit.time", seconds=f"{self.limits.review_seconds:g}")
                    return
                out = await self._heavy(
                    deadline, _judge_job, url, job.table, match, seat, index, i,
                    self.limits.review_budget,
                )  # fmt: skip
                judged = json.loads(out)
                job.decisions.append(judged)
                job.loss += float(judged["loss"]["mean"])
                job.done = i + 1
            job.state = "done"
        except HTTPException as err:
            job.state = "cut" if job.decisions else "refused"
            job.why = str(err.detail)
        except Exception as err:  # a fault in a job: said in words, never a stall
            job.state = "cut" if job.decisions else "refused"
            job.why = f"{type(err).__name__}: {err}"
        finally:
            job.ended = time.monotonic()

    def status(self, key: str) -> dict[str, JSON]:
        job = self.jobs.get(key)
        if job is None:
            raise HTTPException(404, words(None).t("review.unknown"))
        return job.to_json(self.limits.review_budget)

    def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()


# -- the routes ---------------------------------------------------------------------------------
def _reviews(request: Request) -> Reviews:
    srv = request.app.state.server
    reviews: Reviews | None = getattr(srv, "reviews", None)
    if reviews is None:
        reviews = Reviews(srv.heavy, srv.limits)
        srv.reviews = reviews
    return reviews


@router.post("/api/tables/{table_id}/review", response_model=None)
async def start_review(
    table_id: str,
    request: Request,
    token: str | None = None,
    seat: int | None = None,
    hand: int | None = None,
    match: int | None = None,
    lang: str | None = None,
) -> dict[str, JSON]:
    """Start a review: with a seat's ``token``, that seat's decisions in ``hand`` (from 1;
    default the last) of the match in play; without, ``seat``'s in a finished match
    (``match`` from 0, default the last), whose replay is public."""
    from cherki.server.api import address

    srv = request.app.state.server
    code = normalise(lang) or "en"
    index = None if hand is None else hand - 1
    # the limits before any work (a flood of requests is refused at no cost: issue 41)
    why = _reviews(request).refuse(table_id, address(request), code)
    if why is not None:
        raise HTTPException(429, why)
    try:
        if token is not None:
            owner, own = await asyncio.to_thread(srv.store.seat_of, token)
            if owner != table_id:
                raise CherkiError("this link holds no seat at that table")
            await srv.current()  # a process woken from a stop looks at its leases first
            table = srv.tables.live.get(table_id)
            if table is None:
                # not played in this process (at rest, or another's): the match in play is
                # the store's last, and its hand (the last unless asked) is read with it in
                # the heavy process, where one not finished is refused
                which = len(await asyncio.to_thread(srv.store.matches, table_id))
            else:
                # the hand is pinned here, under the table's lock (so everything the table
                # holds is stored): a hand dealt meanwhile is not the one reviewed
                async with table.lock:
                    state = table.session.state
                    live = state is not None and not state.is_terminal
                    hands = len(table.session.match.record.hands) + (state is not None)
                    which = table.number
                if hands == 0:
                    raise HTTPException(400, "the record holds no hand to review")
                if index is None:
                    index = hands - 1
                if live and index == hands - 1:
                    raise HTTPException(403, words(code).t("review.live_hand"))
            who = int(own)
        else:
            if seat is None:
                raise HTTPException(400, words(code).t("review.need_seat"))
            which = await _finished_match(srv, table_id, match, code)
            who = seat
    except CherkiError as err:
        raise HTTPException(404, str(err)) from None
    job = _reviews(request).start(
        srv.store.url, table_id, address(request), code, which, who, index
    )
    return {"id": job.id, "state": job.state}


async def _finished_match(srv: Server, table_id: str, match: int | None, lang: str) -> int:
    """Which of the table's matches (``match``, default the last) is reviewed: one that
    is over (its replay is public), else a refusal in words."""
    from cherki.server.store import FINISHED

    info = await asyncio.to_thread(srv.store.table, table_id)
    played = len(await asyncio.to_thread(srv.store.matches, table_id)) + 1
    which = played - 1 if match is None else match
    if not 0 <= which < played:
        raise HTTPException(404, words(lang).t("error.no_match", played=played, match=match))
    if which == played - 1 and info.status != FINISHED:
        raise HTTPException(403, words(lang).t("review.live"))
    return which


@router.get("/api/reviews/{key}", response_model=None)
async def review_status(key: str, request: Request) -> dict[str, JSON]:
    """A review's progress, and the decisions judged so far."""
    return _reviews(request).status(key)
