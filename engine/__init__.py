"""Pure game rules and dice.

Nothing in this package imports a framework (aiogram, SQLAlchemy/SQLModel, APScheduler,
asyncpg, aiohttp); a test enforces it. Every failure a user can cause is an ``EngineError``.
"""
