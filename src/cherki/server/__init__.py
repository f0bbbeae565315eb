"""The browser app's server side (issue 15, being built): storage first.

:mod:`cherki.server.store` keeps every table, its seats and its record in a database
(SQLite by default, PostgreSQL by URL), each change committed before anyone is told.
"""
