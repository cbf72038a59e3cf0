"""Commands on game records: ``erma replay``, ``erma review`` (复盘) and ``erma verify`` (a served hand's
commitment, seed and replay)."""

from __future__ import annotations

import argparse
import json
import sys


def _cmd_replay(args: argparse.Namespace) -> int:
    from erma.game.record import describe, load, verify

    record = load(args.file)
    if args.verify:
        problems = verify(record)
        if problems:
            for p in problems:
                print(p, file=sys.stderr)
            return 1
        print(f"{args.file}: replays exactly ({len(record['actions'])} actions)")
        return 0
    print("\n".join(describe(record)))
    return 0


def _cmd_review(args: argparse.Namespace) -> int:
    from erma.coach import review_record
    from erma.coach.text import review_lines
    from erma.game.record import load

    review = review_record(load(args.file), args.seat, seed=args.seed, samples=args.samples)
    if args.json:
        print(json.dumps(review, ensure_ascii=False))
    else:
        print("\n".join(review_lines(review)))
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    import hashlib

    from erma.game.match import deal_seed
    from erma.game.record import load, verify
    from erma.server.commitment import deal_digest

    record = load(args.file)
    problems = []
    checked = []
    seed, salt, digest = record.get("seed"), record.get("salt"), record.get("digest")
    if not (isinstance(seed, str) and isinstance(salt, str) and isinstance(digest, str)):
        problems.append("the record has no seed, salt and digest (it did not come from a server deal)")
    elif deal_digest(salt, seed) != digest:
        problems.append(f"the seed and salt do not match the digest sent with the deal ({digest})")
    else:
        checked.append("the seed matches the digest sent with the deal")
    server, commitment, contributions = (
        record.get("server_seed"),
        record.get("commitment"),
        record.get("contributions"),
    )
    if not problems and commitment is not None:
        if not (
            isinstance(server, str)
            and isinstance(commitment, str)
            and isinstance(contributions, list)
            and len(contributions) == 2
            and all(isinstance(c, str) for c in contributions)
        ):
            problems.append("the record's server_seed, commitment and contributions are incomplete")
        elif hashlib.sha256(server.encode()).hexdigest() != commitment:
            problems.append(f"the server's part does not match its commitment ({commitment})")
        elif deal_seed(server, contributions) != seed:
            problems.append("the seed is not the server's part combined with both contributions")
        else:
            shown = ", ".join(c or "(none)" for c in contributions)
            checked.append(f"the seed combines the committed server part with both contributions ({shown})")
    if not problems:
        problems += verify(record)
    if problems:
        for p in problems:
            print(p, file=sys.stderr)
        return 1
    for line in checked:
        print(f"{args.file}: {line}")
    print(f"{args.file}: the hand replays exactly from the seed")
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add this group's commands to the ``erma`` parser."""
    replay = sub.add_parser("replay", help="show a game record as text, or verify it")
    replay.add_argument("file")
    replay.add_argument(
        "--verify", action="store_true", help="exit 0 only if the replay reproduces the record"
    )
    replay.set_defaults(func=_cmd_replay)

    review = sub.add_parser(
        "review", help="复盘: each decision of a hand beside the expert's, the value it cost, the mistakes"
    )
    review.add_argument("file", metavar="RECORD", help="a record file (erma.record JSON)")
    review.add_argument("--seat", type=int, default=None, help="the seat to review, 0 or 1 (default: both)")
    review.add_argument("--json", action="store_true", help="print one JSON object (format erma.review/1)")
    review.add_argument("--seed", default="review", help="seed of the samples of hidden tiles")
    review.add_argument(
        "--samples", type=int, default=None, help="samples of the hidden tiles per decision (default 16)"
    )
    review.set_defaults(func=_cmd_review)

    verify = sub.add_parser(
        "verify",
        help="check a served hand: the commitment, both players' shares of the seed, the digest, the replay",
    )
    verify.add_argument("file")
    verify.set_defaults(func=_cmd_verify)
