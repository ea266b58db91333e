"""The live classroom: classes and tables as append-only event logs in a shared store.

Plain Python (no Jupyter imports), like the rules cores:

- :mod:`mathgames.classroom.store`: the store interface and its two backends,
  SQLite (the default, a file in the server's data folder) and PostgreSQL;
- :mod:`mathgames.classroom.tokens`: per-participant secrets, stored hashed;
- :mod:`mathgames.classroom.session`: the class and table logic as pure
  functions of the event log;
- :mod:`mathgames.classroom.service`: checked actions (token, rules, order)
  that read the log, validate and append.
"""
