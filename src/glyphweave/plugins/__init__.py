"""Built-in components, packaged exactly like third-party plugins.

Each module under ``decoders/``, ``filters/`` and ``assemblers/`` holds one component and
a ``glyphweave_register_*`` hook implementation, and is declared as an entry point in the
``glyphweave`` group of our own pyproject.toml. Nothing here is imported by the core.
"""
