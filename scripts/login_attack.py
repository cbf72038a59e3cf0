"""How many passwords an attacker can try against the login limits of one server process (docs/operations.md,
"Failed logins"), simulated on a fake clock with the server's own guard and windows and the default settings
(or ``NAME=VALUE`` overrides of them): a greedy attacker who tries again the moment it may.

``python scripts/login_attack.py [login_slow_s=20 ...]``
"""

from __future__ import annotations

import dataclasses
import sys

from erma.server.auth_limits import Limit, Limiter, Refused
from erma.server.config import Settings
from erma.server.login_guard import Backoff, LoginGuard

HOUR = 3600.0
STEP = 0.05
"""How soon a refused attacker tries again (s)."""


class World:
    def __init__(self, s: Settings) -> None:
        self.now = 0.0
        clock = lambda: self.now  # noqa: E731
        self.per_address = Limit("login_per_address", s.login_per_address, s.auth_window_s, "logins")
        self.limiter = Limiter(clock=clock)
        per_name = Limit("login_per_name", s.login_per_name, s.auth_window_s, "failed logins")
        backoff = Backoff(s.login_free_failures, s.login_backoff_s, s.login_backoff_max_s)
        self.guard = LoginGuard(backoff, per_name, s.login_slow_s, clock=clock)

    def attempt(self, name: str, address: str, right: bool = False) -> bool:
        """One login as the server makes it: True if the password was checked."""
        try:
            self.guard.admit(name, address)
            self.limiter.check((self.per_address, address))
        except Refused:
            return False
        if right:
            self.guard.succeeded(name, address)
        else:
            self.guard.failed(name, address)
        return True


def one_address_one_name(s: Settings, hours: float) -> int:
    w, guesses = World(s), 0
    while w.now < hours * HOUR:
        if w.attempt("victim", "A"):
            guesses += 1
        w.now += max(STEP, w.guard.wait("victim", "A"))
    return guesses


def one_address_many_names(s: Settings, hours: float) -> int:
    w, guesses, i = World(s), 0, 0
    while w.now < hours * HOUR:
        if w.attempt(f"name{i}", "A"):
            guesses += 1
            i += 1
        else:
            w.now += STEP
    return guesses


def many_addresses_one_name(s: Settings, hours: float) -> tuple[int, int, int]:
    """(the attackers' guesses, the owner's logins from their known address, from new addresses) when the
    owner tries once a minute from each while the attack goes on."""
    w, guesses, home, away, k = World(s), 0, 0, 0, 0
    w.attempt("victim", "home", right=True)
    next_owner = 30.0
    while w.now < hours * HOUR:
        if w.now >= next_owner:  # the owner, once a minute (the attacker is as quick at the slow lane)
            home += w.attempt("victim", "home", right=True)
            away += w.attempt("victim", f"travel{k}", right=True)
            next_owner += 60.0
        if w.attempt("victim", f"bot{k}"):
            guesses += 1
        k += 1
        w.now += STEP
    return guesses, home, away


def main(argv: list[str]) -> None:
    over = {}
    for arg in argv:
        key, value = arg.split("=", 1)
        over[key] = type(getattr(Settings(), key))(value)
    s = dataclasses.replace(Settings(), **over)
    print(
        f"settings: login_per_address={s.login_per_address} login_per_name={s.login_per_name} per "
        f"{s.auth_window_s:g} s, free failures {s.login_free_failures}, backoff {s.login_backoff_s:g} s "
        f"doubling to {s.login_backoff_max_s:g} s, slow lane one per {s.login_slow_s:g} s"
    )
    for hours in (1.0, 24.0):
        print(f"{hours:g} h, one address, one name: {one_address_one_name(s, hours)} guesses")
        print(f"{hours:g} h, one address, many names (spraying): {one_address_many_names(s, hours)} guesses")
        guesses, home, away = many_addresses_one_name(s, hours)
        tries = int(hours * 60)
        print(
            f"{hours:g} h, a new address for every guess, one name: {guesses} guesses; the owner once a "
            f"minute logs in {home}/{tries} from a known address, {away}/{tries} from new ones"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
