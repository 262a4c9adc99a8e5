"""The MJ's desk: what he can do to a game besides playing it: his mail commands (`mjmail`), pauses, players'
absences, results held for his approval, seats changing hands."""
