"""The synthetic-PDF builder of the test kit, under the short name the tests import
(``from pdfs import make_pdf``): see :mod:`glyphweave.testing.pdfs`."""

from glyphweave.testing.pdfs import *  # noqa: F403
from glyphweave.testing.pdfs import __all__  # noqa: F401
