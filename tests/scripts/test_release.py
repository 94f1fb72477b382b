"""Tests of scripts/release.sh's version setting (docs/release.md), on a copy
of the repository's tracked files in a temporary directory, building
nothing (`release.sh VERSION --no-build`). Run: python3 -m unittest discover
-s tests/scripts. Standard library, git and cargo (offline); about 5 s."""

import json
import os
import re
import shutil
import subprocess
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What the version lives in or is read from; the rest of the tree (the
# certificates, the docs, the tests) plays no part.
COPIED = ("Cargo.toml", "Cargo.lock", "CHANGELOG.md", "pyproject.toml", "include", "crates",
          "benches", "examples", "fuzz", "scripts")


def copy_of_repository(dest: Path) -> None:
    """The files under COPIED that git tracks or would (as they are in the work tree)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *COPIED], cwd=ROOT, check=True,
                            capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def run(args: "list[str]", cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, RELEASE_DATE="2031-02-03",
               PATH=f"{Path.home() / '.cargo' / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
                          check=False)


class SetVersion(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.tmp = tempfile.TemporaryDirectory(prefix="release-test-")
        cls.repo = Path(cls.tmp.name)
        copy_of_repository(cls.repo)
        cls.old = re.search(r'^version = "([^"]+)"', (cls.repo / "Cargo.toml").read_text(),
                            re.M).group(1)
        cls.before = (cls.repo / "CHANGELOG.md").read_text()
        cls.result = run(["bash", "scripts/release.sh", "9.9.9", "--no-build"], cls.repo)

    @classmethod
    def tearDownClass(cls) -> None:
        cls.tmp.cleanup()

    def text(self, name: str) -> str:
        return (self.repo / name).read_text()

    def test_it_succeeds_and_builds_nothing(self) -> None:
        self.assertEqual(self.result.returncode, 0, self.result.stderr)
        self.assertIn("setting the version", self.result.stdout)
        self.assertFalse((self.repo / "dist").exists())

    def test_cargo_metadata_says_9_9_9_for_every_member(self) -> None:
        out = run(["cargo", "metadata", "--no-deps", "--offline", "--format-version", "1"],
                  self.repo)
        self.assertEqual(out.returncode, 0, out.stderr)
        packages = json.loads(out.stdout)["packages"]
        self.assertEqual({p["name"]: p["version"] for p in packages},
                         {p["name"]: "9.9.9" for p in packages})
        for package in packages:
            for dep in package["dependencies"]:
                if dep["name"].startswith("phutball") and dep.get("path"):
                    self.assertIn(dep["req"], ("^9.9.9", "*"), (package["name"], dep["name"]))

    def test_the_lock_files_follow(self) -> None:
        for lock in ("Cargo.lock", "fuzz/Cargo.lock"):
            versions = re.findall(r'name = "(phutball[a-z-]*)"\nversion = "([^"]+)"',
                                  self.text(lock))
            # The fuzz workspace's own package keeps its version (0.0.0).
            versions = [(n, v) for n, v in versions if n != "phutball-fuzz"]
            self.assertTrue(versions, lock)
            self.assertEqual({v for _, v in versions}, {"9.9.9"}, lock)

    def test_the_c_version_numbers_follow(self) -> None:
        for name, pattern in (("crates/phutball-capi/src/types.rs",
                               r"pub const PHUTBALL_VERSION_{}: u32 = (\d+);"),
                              ("include/phutball.h", r"#define PHUTBALL_VERSION_{} (\d+)")):
            text = self.text(name)
            got = [re.search(pattern.format(p), text).group(1) for p in ("MAJOR", "MINOR", "PATCH")]
            self.assertEqual(got, ["9", "9", "9"], name)

    def test_python_and_npm_take_the_workspace_version(self) -> None:
        # pyproject.toml's version is dynamic (maturin reads Cargo's), and
        # scripts/build-wasm.sh writes package.json's from Cargo.toml.
        self.assertIn('dynamic = ["version"]', self.text("pyproject.toml"))
        self.assertNotRegex(self.text("pyproject.toml"), r"(?m)^version\s*=")
        self.assertIn("crate_version=\"$(awk -F'\"' '/^version = / { print $2; exit }' Cargo.toml)\"",
                      self.text("scripts/build-wasm.sh"))
        self.assertIn('"version": "$crate_version"', self.text("scripts/build-wasm.sh"))

    def test_the_changelog_gets_a_dated_section_under_a_new_unreleased(self) -> None:
        text = self.text("CHANGELOG.md")
        self.assertIn("## [Unreleased]\n\n## [9.9.9] - 2031-02-03\n", text)
        self.assertEqual(text.count("## [Unreleased]"), 1)
        # Everything else is as it was.
        self.assertEqual(text.replace("## [Unreleased]\n\n## [9.9.9] - 2031-02-03\n",
                                      "## [Unreleased]\n"), self.before)

    def test_a_second_run_refuses_the_same_version(self) -> None:
        again = run(["bash", "scripts/release.sh", "9.9.9", "--no-build"], self.repo)
        self.assertNotEqual(again.returncode, 0)
        self.assertIn("already has a section for 9.9.9", again.stderr)

    def test_a_bad_version_is_refused_before_any_edit(self) -> None:
        bad = run(["bash", "scripts/release.sh", "9.9", "--no-build"], self.repo)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn("not a semantic version: 9.9", bad.stderr)
        self.assertIn('version = "9.9.9"', self.text("Cargo.toml"))


if __name__ == "__main__":
    unittest.main()
