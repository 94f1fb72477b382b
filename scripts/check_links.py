#!/usr/bin/env python3
"""Checks every relative link of the repository's Markdown files: each
[text](target) whose target is not a URL or an anchor must name a file or
folder that exists (relative to the Markdown file, `#fragment` ignored).
Prints each dead link as FILE:LINE: TARGET; exits 1 if there is one.
Usage: scripts/check_links.py (from anywhere in the repository)."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# [text](target) and [text](target "title"); images too. Code spans and
# fenced blocks are removed first: their brackets are not links.
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"`[^`]*`")


def dead_links(md: Path):
    in_fence = False
    for number, line in enumerate(md.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for target in LINK.findall(CODE_SPAN.sub("", line)):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
                continue
            path = target.split("#", 1)[0]
            if not (md.parent / path).exists():
                yield number, target


def main() -> int:
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout.split()
    dead = 0
    for name in files:
        md = ROOT / name
        if not md.exists():
            continue
        for number, target in dead_links(md):
            print(f"{name}:{number}: dead link {target}")
            dead += 1
    print(f"check_links: {len(files)} Markdown files, {dead} dead links")
    return 1 if dead else 0


if __name__ == "__main__":
    sys.exit(main())
