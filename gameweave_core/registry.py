"""Finding installed titles and bots through pluggy and entry points."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import attrs
import pluggy

from . import hooks
from .bots import BotFactory, random_bot
from .errors import ConfigError, PluginError, UnknownTitle
from .title import Title

#: Comma-separated entry-point names to load; unset loads all, empty loads none.
ENV_LOAD_PLUGINS = "GAMEWEAVE_LOAD_PLUGINS"


@attrs.frozen
class TitleEntry:
    """A registered title and the distribution that supplied it."""

    title: Title[Any]
    distribution: str
    distribution_version: str


class Registry:
    """The installed titles and bots."""

    def __init__(self) -> None:
        self.pm = pluggy.PluginManager(hooks.PROJECT)
        self.pm.add_hookspecs(hooks)
        self._titles: dict[str, TitleEntry] = {}
        self._bots: dict[str, dict[str, BotFactory]] = {}
        self._sources: dict[str, tuple[str, str]] = {}

    # -- plugins ---------------------------------------------------------------

    def add_plugin(
        self, plugin: Any, name: str, distribution: str = "unknown", version: str = ""
    ) -> None:
        """Register a plugin object and collect what its hooks register."""
        self.pm.register(plugin, name=name)
        self._sources[name] = (distribution, version)
        for impl in self.pm.hook.register_titles.get_hookimpls():
            if impl.plugin_name == name:
                impl.function(register=self._title_registrar(name))
        for impl in self.pm.hook.register_bots.get_hookimpls():
            if impl.plugin_name == name:
                impl.function(register=self._bot_registrar(name))

    def load_entry_points(self, env: Mapping[str, str] | None = None) -> None:
        """Load the ``gameweave`` entry points allowed by ``GAMEWEAVE_LOAD_PLUGINS``."""
        env = os.environ if env is None else env
        wanted = env.get(ENV_LOAD_PLUGINS)
        allowed = None if wanted is None else {n.strip() for n in wanted.split(",") if n.strip()}
        for ep in _entry_points():
            if allowed is not None and ep.name not in allowed:
                continue
            try:
                plugin = ep.load()
            except Exception as exc:
                raise PluginError(f"plugin {ep.name!r} ({ep.value}) failed to load: {exc}") from exc
            dist = ep.dist
            self.add_plugin(
                plugin,
                name=ep.name,
                distribution=dist.name if dist else "unknown",
                version=dist.version if dist else "",
            )

    def _title_registrar(self, plugin_name: str) -> Any:
        distribution, version = self._sources[plugin_name]

        def register(title: Title[Any]) -> None:
            self.add_title(title, distribution, version)

        return register

    def _bot_registrar(self, plugin_name: str) -> Any:
        def register(title_name: str, bot_name: str, factory: BotFactory) -> None:
            bots = self._bots.setdefault(title_name, {})
            if bot_name in bots:
                raise PluginError(
                    f"plugin {plugin_name!r} registers bot {bot_name!r} for {title_name!r} twice"
                )
            bots[bot_name] = factory

        return register

    # -- titles ------------------------------------------------------------------

    def add_title(
        self, title: Title[Any], distribution: str = "unknown", version: str = ""
    ) -> None:
        """Register one title; a second title with the same name is an error."""
        if not isinstance(title, Title):
            raise PluginError(f"{distribution} registered {title!r}, which is not a Title")
        old = self._titles.get(title.name)
        if old is not None:
            raise PluginError(
                f"two titles are named {title.name!r}: one from {old.distribution}, "
                f"one from {distribution}"
            )
        self._titles[title.name] = TitleEntry(title, distribution, version)

    def names(self) -> list[str]:
        return sorted(self._titles)

    def entries(self) -> list[TitleEntry]:
        return [self._titles[n] for n in self.names()]

    def entry(self, name: str) -> TitleEntry:
        try:
            return self._titles[name]
        except KeyError:
            installed = ", ".join(self.names()) or "none"
            raise UnknownTitle(
                f"no title named {name!r} is installed; installed: {installed}"
            ) from None

    def entry_for(self, title: Title[Any]) -> TitleEntry:
        """The registered entry of ``title``, or an unregistered one for it."""
        found = self._titles.get(title.name)
        if found is not None and found.title is title:
            return found
        return TitleEntry(title, "unregistered", "")

    def title(self, name: str) -> Title[Any]:
        return self.entry(name).title

    # -- bots ---------------------------------------------------------------------

    def bots(self, title: Title[Any]) -> dict[str, BotFactory]:
        """Every bot that plays ``title``, by name: ``random``, the title's own, plugins'."""
        found: dict[str, BotFactory] = {"random": random_bot}
        found.update(title.bots())
        found.update(self._bots.get(title.name, {}))
        return found

    def bot(self, title: Title[Any], name: str | None = None) -> BotFactory:
        """The bot called ``name`` (default: the title's ``default_bot``)."""
        name = name or title.default_bot
        bots = self.bots(title)
        try:
            return bots[name]
        except KeyError:
            known = ", ".join(sorted(bots))
            raise ConfigError(f"{title.name} has no bot {name!r}; bots: {known}") from None


def _entry_points() -> Iterable[EntryPoint]:
    # The same distribution seen twice on sys.path (an editable install beside a
    # build, say) lists its entry points twice; load each (name, target) once.
    unique = {(ep.name, ep.value): ep for ep in entry_points(group=hooks.PROJECT)}
    return [unique[key] for key in sorted(unique)]


@cache
def default_registry() -> Registry:
    """The registry of installed plugins, loaded once per process."""
    reg = Registry()
    reg.load_entry_points()
    return reg
