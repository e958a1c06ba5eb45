"""The error of the 18xx.games importer."""

from __future__ import annotations

from tramways.core.errors import RecordError


class ImportError18xx(RecordError):
    """An 18xx.games export we cannot read or replay; the message is one line.

    When the problem is in one action, the message starts with ``action N`` (its 0-based index
    in the export's ``actions`` list).
    """
