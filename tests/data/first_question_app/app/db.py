"""Database wiring: SQLAlchemy engine and sessions, the `databases` pool, aiosql queries."""

import aiosql
import databases
from sqlalchemy import create_engine
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

DATABASE_URL = "postgresql://shop:shop@localhost/shop"

engine = create_engine(DATABASE_URL, pool_pre_ping=True)
SessionLocal = sessionmaker(bind=engine, autoflush=False)
database = databases.Database(DATABASE_URL)
queries = aiosql.from_str("-- name: count_users$\nselect count(*) from users;", "asyncpg")


class Base(DeclarativeBase):
    pass


def get_session() -> Session:
    session = SessionLocal()
    try:
        yield session
    finally:
        session.close()
