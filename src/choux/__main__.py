"""`python -m choux` is the `choux` command."""

from choux.cli import main

main()
