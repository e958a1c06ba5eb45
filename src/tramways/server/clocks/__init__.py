"""Play over days (docs/async.md): paces, seat clocks, deadlines that fire once
across server processes, reminders, seats handed to a bot and taken back."""
