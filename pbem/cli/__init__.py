"""The `pbem` command: a thin shell over the library (`commands`, the MJ's seat in `desk`, what they share in
`shell`, their texts in `text`)."""

from pbem.cli.commands import main

__all__ = ["main"]
