"""``erma fan``: score one JSON record per line of input, one JSON result per line of output."""

from __future__ import annotations

import json
from typing import TextIO

from erma.scoring.pipeline import plan_for, score_record


def cli_fan(stdin: TextIO, stdout: TextIO, table: str = "mcr") -> int:
    """Read JSON records (one per line), write results (one per line); blank lines are skipped.

    A line that is not a JSON object gives an ``invalid_input`` result and the loop carries on. Returns
    the exit status: 0, or 2 if the table is unknown or malformed (the error goes to the output as JSON).
    """
    from erma.errors import RuleSetError

    try:
        plan_for(table)
    except RuleSetError as exc:
        stdout.write(json.dumps({"error": "invalid_table", "message": str(exc)}, ensure_ascii=False) + "\n")
        return 2
    for line in stdin:
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            result: dict[str, object] = {"error": "invalid_input", "message": f"not JSON: {exc}"}
        else:
            if isinstance(record, dict):
                result = score_record(record, table)
            else:
                result = {"error": "invalid_input", "message": "a record is a JSON object"}
        stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
        stdout.flush()
    return 0
