#!/usr/bin/env python3
"""Checks every relative link of the repository's Markdown files: each
[text](target) whose target is not a URL or an anchor must name a file or
folder that exists (relative to the Markdown file, `#fragment` ignored).
Prints each dead link as FILE:LINE: TARGET; exits 1 if there is one.

With --map it also checks the file-by-file map in docs/design.md (the fenced block
of "crates/NAME/src/" lines, read by map_names): every file of SOURCES
(the crates' sources and build files, the Python package, scripts/,
benches/, web/, fuzz/, tests/, .ci/, examples/ and docs/ but its images) must be
named in it, and every file or folder it names must exist. Prints each
miss; exits 1 if there is one.
Usage: scripts/check_links.py [--map] (from anywhere in the repository)."""

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


def repository_files(*patterns: str) -> list[str]:
    """The files git tracks, and the untracked ones it does not ignore, that
    match `patterns` (git pathspecs), relative to the repository's root."""
    return subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", *patterns],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout.split()


# The files the map must name, as git pathspecs: every file of these
# folders (the pictures of docs/images excepted), and of the crates their
# sources and the C library's build files.
SOURCES = (
    ":(glob)crates/*/src/**/*.rs",
    ":(glob)crates/*/build.rs",
    ":(glob)crates/*/cbindgen.toml",
    ":(glob)crates/*/install/**",
    ":(glob)python/phutball/**",
    "scripts",
    "benches",
    "web",
    "fuzz",
    "tests",
    ".ci",
    "examples",
    "docs",
    ":(exclude)docs/images",
)
# A folder line of the map ("crates/phutball/src/   the core") and an entry
# line under it ("  walk.rs, mailbox.rs   what they are"): names, then two
# or more spaces, then words. Deeper indented lines carry on the words.
MAP_FOLDER = re.compile(r"^(\S+/)(?:\s{2,}(.*))?$")
MAP_ENTRY = re.compile(r"^  (\S.*?)(?:\s{2,}(.*))?$")
# A file named in a folder line's words: "__init__.py, env.py (PettingZoo)".
NAMED_FILE = re.compile(r"[\w.-]+(?:/[\w.-]+)*\.(?:rs|pyi?|js)\b")


def map_lines(readme: Path):
    """The lines of the map: the fenced block whose lines start
    with crate source folders, with their line numbers."""
    block, in_fence = [], False
    for number, line in enumerate(readme.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            if in_fence and any(text.startswith("crates/") for _, text in block):
                return block
            block, in_fence = [], not in_fence
        elif in_fence:
            block.append((number, line))
    return []


def map_names(lines):
    """Each folder of the map with the names under it, paths relative to
    the folder: its entries' names (split at "," and "+", a folder ends in
    "/"), or, for a folder with no entries, the files its words name."""
    folders = {}
    for number, line in lines:
        folder = MAP_FOLDER.match(line)
        entry = MAP_ENTRY.match(line)
        if folder:
            current = folders.setdefault(folder[1], {"entries": {}, "words": {}})
            for name in NAMED_FILE.findall(folder[2] or ""):
                current["words"][name] = number
        elif entry and folders:
            for name in re.split(r"[,+]", entry[1]):
                current["entries"][name.strip()] = number
        elif line.strip() and folders and not current["entries"]:
            for name in NAMED_FILE.findall(line):
                current["words"][name] = number
    return {
        folder: names["entries"] or names["words"] for folder, names in folders.items()
    }


def is_named(path: str, folders) -> bool:
    """Whether the map names `path`: itself, or a folder it is in, under a
    map folder it is in. A crate's lib.rs is its folder line."""
    for folder, names in folders.items():
        if not path.startswith(folder):
            continue
        relative = path[len(folder):]
        if relative == "lib.rs" and folder.endswith("/src/"):
            return True
        if relative in names or any(
            name.endswith("/") and relative.startswith(name) for name in names
        ):
            return True
    return False


#: The Markdown file that holds the map (the README points to it).
MAP_FILE = "docs/design.md"


def map_misses() -> int:
    """Prints each source file the map leaves out, and each name in it that
    is not there; returns how many there are."""
    lines = map_lines(ROOT / MAP_FILE)
    if not lines:
        print(f"{MAP_FILE}: no file-by-file map (a fenced block of crates/NAME/src/ lines)")
        return 1
    folders = map_names(lines)
    misses = 0
    for path in repository_files(*SOURCES):
        if (ROOT / path).exists() and not is_named(path, folders):
            print(f"{MAP_FILE}: map: {path} is not in the map")
            misses += 1
    for folder, names in folders.items():
        for name, number in names.items():
            if not (ROOT / folder / name).exists():
                print(f"{MAP_FILE}:{number}: map names {folder}{name}, which is not there")
                misses += 1
    named = sum(map(len, folders.values()))
    print(f"check_links: the map names {named} files and folders, {misses} misses")
    return misses


def main() -> int:
    files = repository_files("*.md")
    dead = 0
    for name in files:
        md = ROOT / name
        if not md.exists():
            continue
        for number, target in dead_links(md):
            print(f"{name}:{number}: dead link {target}")
            dead += 1
    print(f"check_links: {len(files)} Markdown files, {dead} dead links")
    failed = dead > 0
    if "--map" in sys.argv[1:]:
        failed |= map_misses() > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
