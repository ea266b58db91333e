"""The live classroom: classes and tables as append-only event logs in a shared store.

Plain Python (no Jupyter imports), like the rules cores:

- :mod:`mathgames.classroom.store`: the store interface and its two backends,
  SQLite (the default, a file in the server's data folder) and PostgreSQL;
- :mod:`mathgames.classroom.tokens`: per-participant secrets, stored hashed;
- :mod:`mathgames.classroom.class_state` and :mod:`mathgames.classroom.table_state`: a
  class and a table as pure functions of their event logs, with what they share (the
  fold, the copy and error contracts) in :mod:`mathgames.classroom.session`;
- :mod:`mathgames.classroom.games`: each table game's adapter (rules, view, keyboard);
- :mod:`mathgames.classroom.service`: checked actions (token, rules, order)
  that read the log, validate and append.
"""
