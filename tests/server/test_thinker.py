"""The thinker: bots choose in worker processes as they would in this one, and survive a dead worker."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

from erma.bots import make_bot
from erma.game import apply, legal_actions, seat_view
from erma.game.match import Match
from erma.game.state import Phase
from erma.rules.ruleset import find_ruleset
from erma.server.thinker import Thinker


def _decisions(
    thinker: Thinker, rules: str, seed: str, limit: int = 60, bots: tuple[str, str] = ("greedy", "random")
) -> list[str]:
    """Play a hand, greedy against random, thinking through ``thinker``; the actions taken."""

    async def play() -> list[str]:
        state = Match(find_ruleset(rules), seed).next_hand()
        players = [make_bot(bots[0]), make_bot(bots[1])]
        out: list[str] = []
        while state.phase is not Phase.END and len(out) < limit:
            seat = state.actor
            legal = legal_actions(state, seat)
            action = await thinker.choose(players[seat], f"{seed}:{len(out)}", seat_view(state, seat), legal)
            apply(state, seat, action)
            out.append(str(action))
        return out

    return asyncio.run(play())


def test_a_worker_process_decides_as_this_process_does() -> None:
    local = Thinker(workers=0)
    remote = Thinker(workers=1)
    remote.start()
    try:
        for rules in ("cuopai789", "wenzhou2p"):
            here = _decisions(local, rules, "t1")
            there = _decisions(remote, rules, "t1")
            assert there == here and len(here) > 10
        assert remote.decisions == local.decisions > 20
        assert remote.restarts == 0
    finally:
        remote.stop()


def test_every_level_thinks_in_a_worker_as_here() -> None:
    """The levels (the expert reads every field of the packed view) decide in a worker as in this process."""
    local = Thinker(workers=0)
    remote = Thinker(workers=1)
    remote.start()
    try:
        for rules in ("cuopai789", "wenzhou2p"):
            for pair in (("level5", "level1"), ("level3", "level2"), ("level4", "level5")):
                here = _decisions(local, rules, "lv", bots=pair)
                assert _decisions(remote, rules, "lv", bots=pair) == here and len(here) > 5
    finally:
        remote.stop()


def test_a_dead_worker_is_replaced_and_no_decision_is_lost() -> None:
    thinker = Thinker(workers=1)
    thinker.start()
    try:
        before = _decisions(thinker, "cuopai789", "t2", limit=5)
        pool = thinker._pool
        assert pool is not None
        for pid in list(pool._processes):  # type: ignore[attr-defined]
            os.kill(pid, signal.SIGKILL)
        after = _decisions(thinker, "cuopai789", "t2", limit=30)
        assert after[:5] == before and len(after) == 30
        assert thinker.restarts >= 1
        again = _decisions(thinker, "cuopai789", "t2", limit=30)
        assert again == after
    finally:
        thinker.stop()


def test_a_decision_depends_on_its_seed_only() -> None:
    """No state between decisions: the same seed gives the same choice, a bot of the kind decides alike."""
    thinker = Thinker(workers=0)
    state = Match(find_ruleset("cuopai789"), "t3").next_hand()
    seat = state.actor
    legal = legal_actions(state, seat)

    async def pick(seed: str) -> str:
        return str(await thinker.choose(make_bot("random", "ignored"), seed, seat_view(state, seat), legal))

    picks = [asyncio.run(pick(f"s{i}")) for i in range(30)]
    assert picks == [asyncio.run(pick(f"s{i}")) for i in range(30)]
    view = seat_view(state, seat)
    assert picks == [str(make_bot("random", f"s{i}").choose(view, legal)) for i in range(30)]
    assert len(set(picks)) > 1


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as f:
            return not any(line.startswith("State:") and "Z" in line for line in f)
    except FileNotFoundError:
        return False


def test_workers_exit_when_the_server_is_killed() -> None:
    """A server killed with SIGKILL (a crash, a failover test) leaves no bot worker behind."""
    code = (
        "import time\n"
        "from erma.server.thinker import Thinker\n"
        "t = Thinker(2)\nt.start()\ntime.sleep(1.5)\n"
        "print(*t._pool._processes, flush=True)\ntime.sleep(60)\n"
    )
    server = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        workers = [int(p) for p in server.stdout.readline().split()]
        assert len(workers) == 2 and all(_alive(p) for p in workers)
    finally:
        server.kill()
        server.wait()
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_alive(p) for p in workers)
