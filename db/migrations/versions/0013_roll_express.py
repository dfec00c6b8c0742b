"""A /r in two round trips: read the head without a lock, then claim and append in one call

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-01 20:20:00

``roll_log_peek`` reads what ``roll_log_head`` reads (the open epoch, the entry under the roll
id, the chain's head), without creating or locking the log. ``roll_append_claimed`` is the
rest of a ``/r`` as one autocommitted statement (``RollRepo.append``): lock the log, check
that its head is still the one the roll was chained to, claim the update (out of the inbox
too) and append. Nothing is written unless all of it is: 'stale' when the head moved or the
roll id is already logged (the caller then takes the locked path), 'done' when the update was
claimed meanwhile (a redelivery), 'ok' when appended.

The log is locked first, before the claim; the locked path (``UnitOfWork.driver``) claims
first. Only a redelivery of the same update running both paths at once could wait on both
locks crosswise, and PostgreSQL breaks such a deadlock by failing one of them (its unit rolls
back and the update is redelivered).
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PEEK_FUNCTION = """
CREATE FUNCTION roll_log_peek(p_chat bigint, p_roll text)
RETURNS TABLE (
    log_id int, e_epoch int, seed bytea, commitment text, seq int, roll_id text, epoch int,
    actor text, subject text, expression text, faces int[], result int, outcome text,
    created_at text, prev_hash text, hash text, label text, actor_user_id bigint
) LANGUAGE sql STABLE AS $$
    SELECT l.id, e.epoch, e.seed, e.commitment::text, r.seq, r.roll_id::text, r.epoch,
           r.actor::text, r.subject::text, r.expression::text, r.faces, r.result,
           r.outcome::text, r.created_at::text, r.prev_hash::text, r.hash::text,
           r.label::text, r.actor_user_id
    FROM roll_logs l
    LEFT JOIN seed_epochs e ON e.log_id = l.id AND e.revealed_at IS NULL
    -- the head and the entry under the roll id, each by its index (a filter over the log's
    -- rows, with the head's max() per row, cost the server a scan of the whole log)
    LEFT JOIN LATERAL (
        (SELECT x.* FROM rolls x WHERE x.log_id = l.id ORDER BY x.seq DESC LIMIT 1)
        UNION ALL
        (SELECT x.* FROM rolls x WHERE x.log_id = l.id AND x.roll_id = p_roll)
    ) r ON true
    WHERE l.chat_id = p_chat
$$
"""

APPEND_FUNCTION = """
CREATE FUNCTION roll_append_claimed(
    p_bot bigint, p_update bigint, p_chat bigint, p_prev_seq int, p_seq int, p_roll text,
    p_epoch int, p_actor text, p_subject text, p_expression text, p_faces int[],
    p_result int, p_outcome text, p_created_at text, p_prev_hash text, p_hash text,
    p_actor_user_id bigint, p_label text
) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
DECLARE
    v_log int;
    v_epoch int;
    v_last int;
    v_last_hash text;
BEGIN
    -- The same row lock as roll_log_head's: appends to one log queue here. Each statement
    -- below takes a fresh snapshot (VOLATILE), so it sees what the lock waited for.
    SELECT l.id INTO v_log FROM roll_logs l WHERE l.chat_id = p_chat FOR UPDATE;
    IF NOT FOUND THEN
        RETURN 'stale';
    END IF;
    SELECT s.epoch INTO v_epoch FROM seed_epochs s
    WHERE s.log_id = v_log AND s.revealed_at IS NULL;
    SELECT r.seq, r.hash INTO v_last, v_last_hash FROM rolls r
    WHERE r.log_id = v_log ORDER BY r.seq DESC LIMIT 1;
    IF v_epoch IS DISTINCT FROM p_epoch OR v_last IS DISTINCT FROM p_prev_seq
       OR v_last_hash IS DISTINCT FROM p_prev_hash
       OR EXISTS (SELECT 1 FROM rolls r WHERE r.log_id = v_log AND r.roll_id = p_roll) THEN
        RETURN 'stale';
    END IF;
    INSERT INTO processed_updates (bot_id, update_id) VALUES (p_bot, p_update)
    ON CONFLICT (bot_id, update_id) DO NOTHING;
    IF NOT FOUND THEN
        RETURN 'done';
    END IF;
    DELETE FROM update_inbox i WHERE i.bot_id = p_bot AND i.update_id = p_update;
    INSERT INTO rolls (log_id, seq, roll_id, epoch, actor, subject, expression, faces,
                       result, outcome, created_at, prev_hash, hash, actor_user_id, label)
    VALUES (v_log, p_seq, p_roll, p_epoch, p_actor, p_subject, p_expression, p_faces,
            p_result, p_outcome, p_created_at, p_prev_hash, p_hash, p_actor_user_id, p_label);
    RETURN 'ok';
END
$$
"""


def upgrade() -> None:
    op.execute(PEEK_FUNCTION)
    op.execute(APPEND_FUNCTION)


def downgrade() -> None:
    op.execute(
        "DROP FUNCTION IF EXISTS roll_append_claimed(bigint, bigint, bigint, int, int, text, "
        "int, text, text, text, int[], int, text, text, text, text, bigint, text)"
    )
    op.execute("DROP FUNCTION IF EXISTS roll_log_peek(bigint, text)")
