"""The type stubs' docstrings: every method and property of
``python/phutball/_phutball.pyi`` has a one-line docstring, and it stays in
step with the extension's own docstring (written in the Rust source): it
starts with the same first sentence and names the same exceptions."""

import ast
import pathlib
import re

import pytest

from phutball import _phutball

STUBS = pathlib.Path(__file__).resolve().parents[2] / "python" / "phutball" / "_phutball.pyi"

# Names of exceptions a docstring mentions: ParseError, OSError, KeyboardInterrupt, ...
RAISED = re.compile(r"\b(\w+Error|KeyboardInterrupt)\b")


def stub_members():
    """(class, member, docstring or None) for every def of every class of the stubs."""
    tree = ast.parse(STUBS.read_text())
    for cls in tree.body:
        if isinstance(cls, ast.ClassDef):
            for item in cls.body:
                if isinstance(item, ast.FunctionDef):
                    yield cls.name, item.name, ast.get_docstring(item, clean=False)


MEMBERS = list(stub_members())


def words(text):
    return " ".join(text.split())


def first_sentence(text):
    """Up to the first full stop that ends a sentence (or the whole first paragraph)."""
    paragraph = words(text.split("\n\n")[0])
    match = re.search(r"\.(\s|$)", paragraph)
    return paragraph[: match.end()].strip() if match else paragraph


def runtime_doc(cls_name, member):
    """The extension's docstring of the member, or None where it has none of its own
    (``__new__`` documents the class; comparisons and hashing are Python's slots)."""
    if member.startswith("__") and member.endswith("__"):
        return None
    doc = getattr(getattr(_phutball, cls_name), member).__doc__
    return doc if doc and doc.strip() else None


def test_the_stubs_have_members():
    assert len(MEMBERS) > 100


@pytest.mark.parametrize("cls_name, member, doc", MEMBERS, ids=lambda v: v if isinstance(v, str) else "")
def test_every_stub_member_has_a_one_line_docstring(cls_name, member, doc):
    assert doc, f"{cls_name}.{member} has no docstring in the stubs"
    assert "\n" not in doc.strip(), f"{cls_name}.{member}: more than one line"


@pytest.mark.parametrize("cls_name, member, doc", MEMBERS, ids=lambda v: v if isinstance(v, str) else "")
def test_stub_docstrings_follow_the_extension(cls_name, member, doc):
    runtime = runtime_doc(cls_name, member)
    if runtime is None:
        return
    assert words(doc).startswith(first_sentence(runtime)), (
        f"{cls_name}.{member}: the stub should start with the extension's first sentence"
    )
    assert set(RAISED.findall(doc)) == set(RAISED.findall(runtime)), (
        f"{cls_name}.{member}: the stub and the extension name different exceptions"
    )


def test_every_documented_extension_member_is_compared():
    # A member the extension documents but the stubs miss would escape the check
    # above; stubtest finds missing members, this finds missing comparisons.
    compared = {(c, m) for c, m, _ in MEMBERS if runtime_doc(c, m) is not None}
    assert len(compared) > 90
