"""The games of the kit, one package each. A game's ``__init__.py`` registers it with
:func:`throne_lib.kit.registry.register`; the registry finds every subpackage here by
itself, so adding a game means adding a package — no list to edit."""
