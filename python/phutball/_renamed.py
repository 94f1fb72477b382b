"""Old names kept for one release after a rename: a module's ``__getattr__``
that answers an old name with the object now under the new one, and a
``DeprecationWarning`` naming the new one."""

from __future__ import annotations

import warnings
from typing import Any, Callable, Dict


def old_names(module: str, renamed: Dict[str, str], namespace: Dict[str, Any]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``module``: each old name of ``renamed`` (old ->
    new) gives ``namespace[new]`` with a warning; any other name is an
    ``AttributeError``, as without it. Python calls a module's
    ``__getattr__`` only for names the module does not hold, so the new
    names cost nothing."""

    def __getattr__(name: str) -> Any:
        new = renamed.get(name)
        if new is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(
            f"{module}.{name} is renamed {module}.{new}; the old name goes in the next release",
            DeprecationWarning,
            stacklevel=2,
        )
        return namespace[new]

    return __getattr__
