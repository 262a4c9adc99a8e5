"""What comes in by mail: who wrote it and for which game (`intake`), a player's lines (`interpret`, with the
commands every game shares in `commands`), an MJ's lines (`mjdesk`); each mail answered once."""
