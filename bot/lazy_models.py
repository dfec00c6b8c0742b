"""aiogram's Bot API models, each built when first used instead of all at import.

aiogram declares its types with pydantic's ``defer_build``, then calls ``model_rebuild`` on
every one of them at import to resolve their forward references, which compiles a validator
for each — every validator with its own copy of all the types it nests. That was about 100 MB
of every bot process and two seconds of its start, for a bot that validates a few dozen of
them (measured: ``python -c "import tabletop.app, handlers"`` 217 MB → 115 MB).

``install`` imports ``aiogram.types`` with those import-time rebuilds skipped and instead puts
the names they resolved into each types module's namespace, where pydantic looks them up when
a model is first validated. It must run before anything imports aiogram (``bot/__init__.py``);
if aiogram is already imported it does nothing and the models stay eagerly built.
``tests/foundation/test_lazy_models.py`` builds every type this way.
"""

from __future__ import annotations

import sys
from typing import Any

from pydantic import BaseModel

_TYPES = "aiogram.types."


def install() -> None:
    if "aiogram" in sys.modules:
        return
    original = BaseModel.__dict__["model_rebuild"]
    namespaces: list[dict[str, Any]] = []

    def deferred(cls: type[BaseModel], **kwargs: Any) -> bool | None:
        namespace = kwargs.get("_types_namespace")
        if namespace is not None and cls.__module__.startswith(_TYPES):
            namespaces.append(namespace)
            return None
        # Called through this extra frame: the caller's namespace is one frame further up.
        kwargs["_parent_namespace_depth"] = kwargs.get("_parent_namespace_depth", 2) + 1
        result: bool | None = original.__func__(cls, **kwargs)
        return result

    BaseModel.model_rebuild = classmethod(deferred)  # type: ignore[assignment,method-assign]
    try:
        import aiogram.types  # noqa: F401
    finally:
        BaseModel.model_rebuild = original  # type: ignore[method-assign]
    if not namespaces:
        return
    names = namespaces[0]
    for name, module in list(sys.modules.items()):
        if name.startswith(_TYPES) and module is not None:
            for key, value in names.items():
                module.__dict__.setdefault(key, value)
