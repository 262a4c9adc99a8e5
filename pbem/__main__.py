"""`python -m pbem` runs the CLI."""

from pbem.cli import main

main()
