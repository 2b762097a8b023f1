"""Finding installed titles and bots through pluggy and entry points."""

from __future__ import annotations

import importlib
import importlib.metadata
import os
from collections.abc import Callable, Mapping
from functools import cache
from importlib.metadata import entry_points
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


#: What a bot for every title is made of: the factory for one title, or ``None``
#: where the bot cannot play that title.
BotMaker = Callable[[Title[Any]], BotFactory | None]


class BotRegistrar:
    """The ``register`` callback a plugin's ``register_bots`` hook receives.

    ``register(title_name, bot_name, factory)`` adds a bot to one title;
    ``register.every_title(bot_name, make)`` adds a bot to every title, where
    ``make(title)`` returns its factory for that title (``None``: it cannot play it).
    """

    def __init__(self, registry: Registry, plugin_name: str) -> None:
        self._registry = registry
        self._plugin = plugin_name

    def __call__(self, title_name: str, bot_name: str, factory: BotFactory) -> None:
        bots = self._registry._bots.setdefault(title_name, {})
        if bot_name in bots:
            raise PluginError(
                f"plugin {self._plugin!r} registers bot {bot_name!r} for {title_name!r} twice"
            )
        bots[bot_name] = factory

    def every_title(self, bot_name: str, make: BotMaker) -> None:
        """Offer ``bot_name`` for every title ``make`` gives a factory for."""
        every = self._registry._every
        if bot_name in every or bot_name == "random":
            raise PluginError(
                f"plugin {self._plugin!r} registers bot {bot_name!r} for every title, "
                "and that name is taken"
            )
        every[bot_name] = make


class Registry:
    """The installed titles and bots.

    A new registry holds the core's bundled plugins (see
    :data:`~gameweave_core.hooks.BUNDLED_PLUGINS`: the ``ismcts`` search bot),
    registered through the hooks like any plugin, unless ``bundled`` is false;
    :meth:`load_entry_points` adds the installed ones.
    """

    def __init__(self, *, bundled: bool = True) -> None:
        self.pm = pluggy.PluginManager(hooks.PROJECT)
        self.pm.add_hookspecs(hooks)
        self._titles: dict[str, TitleEntry] = {}
        self._bots: dict[str, dict[str, BotFactory]] = {}
        self._every: dict[str, BotMaker] = {}
        self._sources: dict[str, tuple[str, str]] = {}
        if bundled:
            from . import __version__

            for name, module in hooks.BUNDLED_PLUGINS.items():
                self.add_plugin(importlib.import_module(module), name, "gameweave", __version__)

    # -- plugins ---------------------------------------------------------------

    def add_plugin(
        self, plugin: object, name: str, distribution: str = "unknown", version: str = ""
    ) -> None:
        """Register a plugin object and collect what its hooks register."""
        self.pm.register(plugin, name=name)
        self._collect(name, distribution, version)

    def load_entry_points(self, env: Mapping[str, str] | None = None) -> None:
        """Load the ``gameweave`` entry points allowed by ``GAMEWEAVE_LOAD_PLUGINS``.

        pluggy's own loader does the work: it skips blocked names (the ones the
        variable leaves out) and names already loaded (a distribution seen twice on
        ``sys.path``), and records each plugin's distribution for its name and version.
        """
        env = os.environ if env is None else env
        wanted = env.get(ENV_LOAD_PLUGINS)
        if wanted is not None:
            allowed = {n.strip() for n in wanted.split(",") if n.strip()}
            for ep in entry_points(group=hooks.PROJECT):
                if ep.name not in allowed:
                    self.pm.set_blocked(ep.name)
        known = {id(plugin) for plugin, _ in self.pm.list_plugin_distinfo()}
        try:
            self.pm.load_setuptools_entrypoints(hooks.PROJECT)
        except Exception as exc:
            raise PluginError(f"{self._failed_plugin()} failed to load: {exc}") from exc
        for plugin, dist in self.pm.list_plugin_distinfo():
            name = self.pm.get_name(plugin)
            if id(plugin) in known or name is None:
                continue
            self._collect(name, dist.project_name, dist.version)

    def _failed_plugin(self) -> str:
        # pluggy stops at the first entry point that fails, in its order of
        # distributions: the first one neither loaded nor blocked is the culprit.
        for dist in importlib.metadata.distributions():
            for ep in dist.entry_points:
                if (
                    ep.group == hooks.PROJECT
                    and not self.pm.has_plugin(ep.name)
                    and not self.pm.is_blocked(ep.name)
                ):
                    return f"plugin {ep.name!r} ({ep.value})"
        return "a plugin"  # pragma: no cover - pluggy only raises for an entry point

    def _collect(self, name: str, distribution: str, version: str) -> None:
        """Call the hooks of the plugin registered as ``name``."""
        self._sources[name] = (distribution, version)
        for impl in self.pm.hook.register_titles.get_hookimpls():
            if impl.plugin_name == name:
                impl.function(register=self._title_registrar(name))
        for impl in self.pm.hook.register_bots.get_hookimpls():
            if impl.plugin_name == name:
                impl.function(register=self._bot_registrar(name))

    def _title_registrar(self, plugin_name: str) -> Callable[[Title[Any]], None]:
        distribution, version = self._sources[plugin_name]

        def register(title: Title[Any]) -> None:
            self.add_title(title, distribution, version)

        return register

    def _bot_registrar(self, plugin_name: str) -> BotRegistrar:
        return BotRegistrar(self, plugin_name)

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
        """The slugs of the installed titles, sorted."""
        return sorted(self._titles)

    def entries(self) -> list[TitleEntry]:
        """Every installed title's entry, sorted by name."""
        return [self._titles[n] for n in self.names()]

    def entry(self, name: str) -> TitleEntry:
        """The installed title named ``name`` (its slug) with the distribution and
        version that supplied it; :class:`~gameweave_core.errors.UnknownTitle` (one line, listing what is
        installed) if there is none."""
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
        """The installed title named ``name``: ``entry(name).title``."""
        return self.entry(name).title

    # -- bots ---------------------------------------------------------------------

    def bots(self, title: Title[Any]) -> dict[str, BotFactory]:
        """Every bot that plays ``title``, by name: ``random``, the plugins' bots for
        every title that can play it (the bundled ``ismcts`` for a title that can
        resample), the title's own, then the plugins' bots for this title."""
        found: dict[str, BotFactory] = {"random": random_bot}
        for name, make in self._every.items():
            factory = make(title)
            if factory is not None:
                found[name] = factory
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


@cache
def default_registry() -> Registry:
    """The registry of installed plugins, loaded once per process."""
    reg = Registry()
    reg.load_entry_points()
    return reg
