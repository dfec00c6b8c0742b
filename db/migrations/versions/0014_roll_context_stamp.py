"""A /r in one round trip: the context it was handled with is checked at its append

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02 00:45:00

A process remembers what a chat member's last /r read (``bot/express.py``): the sender, the
chat, its live game, the sender's role in it and their FSM rows. The next /r of that member
is handled with those rows and no read of its own — if they are still the rows in the
database. ``roll_context_stamp`` says which versions of those rows there are now: each row's
``xmin`` (the transaction that wrote that version of it; any update writes a new one), with a
fixed place for each row, so a row that appeared or went away changes the stamp too. The read
(``roll_log_peek``'s statement) returns the stamp of what it read; STABLE, so the function
sees the same snapshot as the statement calling it.

``roll_append_stamped`` is ``roll_append_claimed`` behind that check: 'context' when the rows
changed since the stamp was taken (nothing written: the update is handled again, reading
them), else whatever the append returns. A NULL stamp skips the check.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

STAMP_FUNCTION = """
CREATE FUNCTION roll_context_stamp(p_user bigint, p_chat bigint, p_keys text[])
RETURNS text LANGUAGE sql STABLE AS $$
    SELECT concat_ws('|',
        coalesce((SELECT u.xmin::text FROM users u WHERE u.id = p_user), '-'),
        coalesce((SELECT c.xmin::text FROM chats c WHERE c.id = p_chat), '-'),
        coalesce((SELECT g.id || ':' || g.xmin::text || ':'
                         || coalesce((SELECT m.xmin::text FROM game_members m
                                      WHERE m.game_id = g.id AND m.user_id = p_user), '-')
                  FROM games g WHERE g.chat_id = p_chat AND g.archived_at IS NULL), '-'),
        coalesce((SELECT string_agg(f.key || ':' || f.xmin::text, ',' ORDER BY f.key)
                  FROM fsm_states f WHERE f.key = ANY(p_keys)), '-'))
$$
"""

APPEND_FUNCTION = """
CREATE FUNCTION roll_append_stamped(
    p_user bigint, p_keys text[], p_stamp text,
    p_bot bigint, p_update bigint, p_chat bigint, p_prev_seq int, p_seq int, p_roll text,
    p_epoch int, p_actor text, p_subject text, p_expression text, p_faces int[],
    p_result int, p_outcome text, p_created_at text, p_prev_hash text, p_hash text,
    p_actor_user_id bigint, p_label text
) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    IF p_stamp IS NOT NULL
       AND p_stamp IS DISTINCT FROM roll_context_stamp(p_user, p_chat, p_keys) THEN
        RETURN 'context';
    END IF;
    RETURN roll_append_claimed(
        p_bot, p_update, p_chat, p_prev_seq, p_seq, p_roll, p_epoch, p_actor, p_subject,
        p_expression, p_faces, p_result, p_outcome, p_created_at, p_prev_hash, p_hash,
        p_actor_user_id, p_label);
END
$$
"""


def upgrade() -> None:
    op.execute(STAMP_FUNCTION)
    op.execute(APPEND_FUNCTION)


def downgrade() -> None:
    op.execute(
        "DROP FUNCTION IF EXISTS roll_append_stamped(bigint, text[], text, bigint, bigint, "
        "bigint, int, int, text, int, text, text, text, int[], int, text, text, text, text, "
        "bigint, text)"
    )
    op.execute("DROP FUNCTION IF EXISTS roll_context_stamp(bigint, bigint, text[])")
