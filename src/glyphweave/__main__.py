"""``python -m glyphweave``: the ``glyphweave`` command, for an environment whose scripts
folder is not on ``PATH``."""

from glyphweave.cli import run

if __name__ == "__main__":
    run()
