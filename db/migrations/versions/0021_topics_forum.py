"""Forum topics: a game lives in a (group, topic); a game the bot cannot post for is held;
a user who blocked the bot is known

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-04 05:20:00

* ``games.thread_id``: the forum topic the game was started in (``message_thread_id``);
  NULL is the group itself — an ordinary group, or a forum's «General». One live game per
  (chat, topic) replaces one per chat.
* ``games.held``: why the bot cannot post for the game now (its topic closed or gone, the
  bot removed from the group); NULL while it can. Set once (the GM is told then), cleared
  when the topic is reopened or the bot added back.
* ``users.blocked_at``: when the user blocked the bot (403), NULL otherwise.
* ``roll_context_stamp`` reads every live game of the chat: with games in several topics the
  one-row subquery would fail; any change to any of them makes remembered rows stale.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from db.migration_history import earlier_definition

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

HELD_CHECK = "held IN ('topic_closed', 'topic_gone', 'removed')"

STAMP_FUNCTION = """
CREATE OR REPLACE FUNCTION roll_context_stamp(p_user bigint, p_chat bigint, p_keys text[])
RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN concat_ws('|',
        coalesce((SELECT u.xmin::text FROM users u WHERE u.id = p_user), '-'),
        coalesce((SELECT c.xmin::text FROM chats c WHERE c.id = p_chat), '-'),
        coalesce((SELECT string_agg(g.id || ':' || g.xmin::text || ':'
                         || coalesce((SELECT m.xmin::text FROM game_members m
                                      WHERE m.game_id = g.id AND m.user_id = p_user), '-'),
                         ',' ORDER BY g.id)
                  FROM games g WHERE g.chat_id = p_chat AND g.archived_at IS NULL), '-'),
        coalesce((SELECT string_agg(f.key || ':' || f.xmin::text, ',' ORDER BY f.key)
                  FROM fsm_states f WHERE f.key = ANY(p_keys)), '-'));
END
$$
"""


def upgrade() -> None:
    op.add_column("games", sa.Column("thread_id", sa.BigInteger(), nullable=True))
    op.add_column("games", sa.Column("held", sa.String(length=16), nullable=True))
    op.create_check_constraint("games_held_check", "games", HELD_CHECK)
    op.add_column("users", sa.Column("blocked_at", sa.DateTime(timezone=True), nullable=True))
    op.drop_index("games_one_live_per_chat", table_name="games")
    op.create_index(
        "games_one_live_per_topic",
        "games",
        ["chat_id", sa.text("coalesce(thread_id, 0)")],
        unique=True,
        postgresql_where=sa.text("archived_at IS NULL"),
    )
    op.execute(STAMP_FUNCTION)


def downgrade() -> None:
    op.execute(earlier_definition("0015_roll_context_stamp_plpgsql.py", "STAMP_FUNCTION"))
    op.drop_index("games_one_live_per_topic", table_name="games")
    # a chat keeps its oldest live game; the others of its topics are archived
    op.execute(
        "UPDATE games SET archived_at = now() WHERE archived_at IS NULL AND id NOT IN "
        "(SELECT min(id) FROM games WHERE archived_at IS NULL GROUP BY chat_id)"
    )
    op.create_index(
        "games_one_live_per_chat",
        "games",
        ["chat_id"],
        unique=True,
        postgresql_where=sa.text("archived_at IS NULL"),
    )
    op.drop_column("users", "blocked_at")
    op.drop_constraint("games_held_check", "games", type_="check")
    op.drop_column("games", "held")
    op.drop_column("games", "thread_id")
