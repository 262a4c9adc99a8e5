"""pbem: play-by-email adjudicator."""
