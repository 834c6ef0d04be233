"""Summarises schemathesis NDJSON reports for `make fuzz` (app-server/dev/fuzz.sh).

Usage: fuzz_summary.py REPORT.ndjson [REPORT.ndjson ...]

Prints the number of requests sent, the 5xx answers and the response-schema violations, then each distinct
failure once (operation, status, what was sent) so it can be reproduced with curl. Exits 1 unless both
counts are 0.
"""

import base64
import json
import sys


def cases_and_failures(path):
    """Yields (interaction, case, failed checks) for every request recorded in one report."""
    with open(path, encoding="utf-8") as report:
        for line in report:
            event = json.loads(line)
            finished = event.get("ScenarioFinished")
            if not finished:
                continue
            recorder = finished.get("recorder") or {}
            checks = recorder.get("checks") or {}
            cases = recorder.get("cases") or {}
            for case_id, interaction in (recorder.get("interactions") or {}).items():
                failed = [
                    c["failure_info"]["failure"]
                    for c in checks.get(case_id, [])
                    if c.get("status") == "failure" and c.get("failure_info")
                ]
                yield interaction, (cases.get(case_id) or {}).get("value") or {}, failed


def sent(case):
    """What a case sent, briefly: query, body (shortened), as JSON text."""
    parts = {}
    for key in ("query", "path_parameters", "body"):
        if case.get(key) not in (None, {}, ""):
            parts[key] = case[key]
    text = json.dumps(parts, ensure_ascii=True)
    return text if len(text) <= 300 else text[:300] + "..."


def answer(interaction):
    content = (interaction.get("response") or {}).get("content") or {}
    raw = content.get("$base64")
    text = base64.b64decode(raw).decode("utf-8", "replace") if raw else str(content.get("string", ""))
    return text if len(text) <= 200 else text[:200] + "..."


def main(paths):
    requests = 0
    server_errors = 0
    violations = 0
    distinct = {}
    for path in paths:
        for interaction, case, failed in cases_and_failures(path):
            requests += 1
            response = interaction.get("response") or {}
            status = response.get("status_code")
            request = interaction.get("request") or {}
            operation = f"{request.get('method', '?')} {case.get('path') or request.get('uri', '?')}"
            if isinstance(status, int) and status >= 500:
                server_errors += 1
                distinct.setdefault((operation, f"{status} answer"), (case, interaction))
            schema_failures = [f for f in failed if f.get("code") == "ST108"]
            violations += 1 if schema_failures else 0
            for failure in schema_failures:
                title = failure.get("message", "").split("\n")[0]
                distinct.setdefault((operation, f"schema violation: {title}"), (case, interaction))
    print(f"fuzz: {requests} requests, {server_errors} answered 5xx, {violations} responses that violate their schema")
    for (operation, what), (case, interaction) in sorted(distinct.items()):
        print(f"  {operation}: {what}")
        print(f"      sent {sent(case)}")
        print(f"      got  {answer(interaction)}")
    if requests == 0:
        print("fuzz: no request was sent")
        return 1
    return 0 if server_errors == 0 and violations == 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
