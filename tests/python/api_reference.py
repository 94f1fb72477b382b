"""The Python API reference: pdoc's HTML pages of the installed package
(tests/python/run.sh runs this in the wheel's environment), every public
name documented and pdoc's warnings as errors.

Each public module is a page: its classes, functions and constants, with
their docstrings and signatures. The extension's classes and functions,
which the package re-exports, take their signatures and docstrings from
the stubs (``_phutball.pyi``), as mypy and editors see them. A public name
is one pdoc shows: in the module's ``__all__``, or not starting with ``_``
(``__init__`` and the other dunders aside). The prose guide stays
``docs/python.md``.

Usage: python tests/python/api_reference.py OUT_DIR   (exits 1 on a miss)
"""

import pkgutil
import sys
import warnings
from pathlib import Path
from unittest import mock

import pdoc
import pdoc.doc
import pdoc.doc_pyi
import pdoc.extract
import pdoc.render

#: The public modules, each a page (``phutball.svg`` comes with
#: ``phutball``, which lists it in ``__all__``).
MODULES = [
    "phutball",
    "phutball.env",
    "phutball.gym",
    "phutball.rl",
    "phutball.widget",
    "phutball.distributed",
    "phutball.distributed.jobs",
    "phutball.train",
    "phutball.train.loop",
]
EXTENSION = "phutball._phutball"
PDOC_DIR = str(Path(pdoc.__file__).parent)


def patch_with_extension_stubs(module: pdoc.doc.Module) -> None:
    """pdoc reads the stubs of the module it documents only (a
    ``phutball.pyi``): the names ``phutball`` re-exports from the extension
    get the extension's stubs here, their signatures and annotations. The
    docstrings stay the extension's own, which are whole (the stubs' are
    their first lines: tests/python/test_stubs.py), and the stubs' stand
    where the extension has none. The stubs are read with pdoc's own
    helpers (private: pdoc's version is pinned in run.sh)."""
    stub_file = pdoc.doc_pyi.find_stub_file(EXTENSION)
    if stub_file is None:
        raise SystemExit(f"api_reference: no stubs for {EXTENSION}")
    imported = pdoc.doc_pyi._import_stub_file(EXTENSION, stub_file)
    pdoc.doc_pyi._prepare_module(module)
    stubs = pdoc.doc.Module(imported)
    extension = sys.modules[EXTENSION]
    with mock.patch.dict("sys.modules", {EXTENSION: imported}):
        for member in module.members.values():
            # By name: the extension's classes say they are phutball's
            # (their __module__), and a constant has no module at all.
            if hasattr(extension, member.name):
                patch(member, stubs)


def patch(target: pdoc.doc.Doc, stubs: pdoc.doc.Module) -> None:
    """`target` (and a class's members) with its stub's signature or
    annotation, and the stub's docstring where it has none."""
    stub = stubs.get(target.qualname)
    if stub is None:
        return
    if not (target.docstring or "").strip():
        target.docstring = stub.docstring
    if isinstance(target, pdoc.doc.Function) and isinstance(stub, pdoc.doc.Function):
        target.signature = stub.signature
        target.funcdef = stub.funcdef
    elif isinstance(target, pdoc.doc.Variable) and isinstance(stub, pdoc.doc.Variable):
        target.annotation = stub.annotation
    elif isinstance(target, pdoc.doc.Class):
        for member in target.own_members:
            patch(member, stubs)


def take_reexported_constant_docstrings(module: pdoc.doc.Module) -> None:
    """pdoc reads a constant's docstring where the constant is assigned: a
    module that imports it from another of the package
    (``phutball.distributed``'s schemas) takes the docstring from there."""
    package = module.fullname.split(".")[0] + "."
    for member in module.members.values():
        if not isinstance(member, pdoc.doc.Variable) or (member.docstring or "").strip():
            continue
        value = getattr(module.obj, member.name, None)
        for name, source in list(sys.modules.items()):
            if value is None or not name.startswith(package) or name == module.fullname:
                continue
            if getattr(source, member.name, None) is value:
                origin = pdoc.doc.Module(source).members.get(member.name)
                if origin is not None and (origin.docstring or "").strip():
                    member.docstring = origin.docstring
                    break


def is_public(member: pdoc.doc.Doc, module: pdoc.doc.Module) -> bool:
    """What pdoc's default template shows, less its documented-only rules."""
    if member.name.startswith("__") and member.name.endswith("__"):
        return False
    if member.name in (getattr(module.obj, "__all__", None) or []):
        return True
    return not member.name.startswith("_")


def undocumented(namespace: pdoc.doc.Namespace, module: pdoc.doc.Module):
    """The public names under `namespace` with no docstring: its own
    members (inherited ones are checked where they are defined)."""
    for member in namespace.own_members:
        if not is_public(member, module):
            continue
        if not (member.docstring or "").strip():
            yield member.fullname
        if isinstance(member, pdoc.doc.Class):
            yield from undocumented(member, module)


def public_modules() -> set:
    """Every module of the installed package whose dotted name has no part
    starting with ``_``: each must have its page."""
    import phutball

    return {
        info.name
        for info in pkgutil.walk_packages(phutball.__path__, "phutball.")
        if not any(part.startswith("_") for part in info.name.split("."))
    } | {"phutball"}


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    out = Path(sys.argv[1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        modules = {
            name: pdoc.doc.Module.from_name(name) for name in pdoc.extract.walk_specs(MODULES)
        }
        patch_with_extension_stubs(modules["phutball"])
        for module in modules.values():
            take_reexported_constant_docstrings(module)
        misses = [name for module in modules.values() for name in undocumented(module, module)]
        pageless = sorted(public_modules() - set(modules))
        pdoc.render.configure(
            docformat="restructuredtext",
            footer_text="phutball: the guide is docs/python.md",
        )
        out.mkdir(parents=True, exist_ok=True)
        for module in modules.values():
            page = out / f"{module.fullname.replace('.', '/')}.html"
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(pdoc.render.html_module(module, modules), encoding="utf-8")
        (out / "index.html").write_text(pdoc.render.html_index(modules), encoding="utf-8")
        (out / "search.js").write_text(pdoc.render.search_index(modules), encoding="utf-8")
    # pdoc's own warnings (a stub that does not match, a module that does
    # not import, a bad cross-reference) fail the build; the libraries'
    # import-time warnings are only shown.
    own = [w for w in caught if w.filename.startswith(PDOC_DIR)]
    for w in caught:
        print(f"api_reference: {'error' if w in own else 'note'}: "
              f"{w.category.__name__}: {w.message}", file=sys.stderr)
    for name in misses:
        print(f"api_reference: {name} has no docstring", file=sys.stderr)
    for name in pageless:
        print(f"api_reference: the module {name} has no page: add it to MODULES", file=sys.stderr)
    pages = len(modules)
    print(f"api_reference: {pages} module pages in {out}, "
          f"{len(misses)} public names without a docstring, {len(own)} pdoc warnings")
    return 1 if misses or pageless or own else 0


if __name__ == "__main__":
    sys.exit(main())
