"""Alembic environment: migrations run on the URL set by :func:`tramways.server.storage.migrate`."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from tramways.server.tables import metadata

config = context.config
url = config.get_main_option("sqlalchemy.url")
assert url, "sqlalchemy.url is not set"

if context.is_offline_mode():
    context.configure(url=url, target_metadata=metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=metadata)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()
