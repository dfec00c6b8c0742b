"""Roll log head in one call: lock the chat's log, then read what an append needs

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01 16:10:00

Two statements in one round trip (``RollRepo.head_for_append``). They must stay two: a
statement sees the data as it was when it began, so a read inside the locking statement could
miss the append it waited for. A VOLATILE function takes a fresh snapshot per statement.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

HEAD_FUNCTION = """
CREATE FUNCTION roll_log_head(p_chat bigint, p_roll text)
RETURNS TABLE (
    log_id int, e_epoch int, seed bytea, commitment text, seq int, roll_id text, epoch int,
    actor text, subject text, expression text, faces int[], result int, outcome text,
    created_at text, prev_hash text, hash text, label text, actor_user_id bigint
) LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
    v_log int;
BEGIN
    -- Creating the log or touching it takes its row lock (ON CONFLICT DO UPDATE locks the
    -- row): appends to one log queue here until the transaction ends.
    INSERT INTO roll_logs AS l (chat_id) VALUES (p_chat)
    ON CONFLICT (chat_id) DO UPDATE SET chat_id = EXCLUDED.chat_id
    RETURNING l.id INTO v_log;
    -- The open epoch, the entry already logged under the roll id and the chain's head.
    RETURN QUERY
    SELECT v_log, e.epoch, e.seed, e.commitment::text, r.seq, r.roll_id::text, r.epoch,
           r.actor::text, r.subject::text, r.expression::text, r.faces, r.result,
           r.outcome::text, r.created_at::text, r.prev_hash::text, r.hash::text,
           r.label::text, r.actor_user_id
    FROM (SELECT s.epoch, s.seed, s.commitment FROM seed_epochs s
          WHERE s.log_id = v_log AND s.revealed_at IS NULL) e
    FULL JOIN (SELECT x.* FROM rolls x WHERE x.log_id = v_log AND (x.roll_id = p_roll
          OR x.seq = (SELECT max(y.seq) FROM rolls y WHERE y.log_id = v_log))) r ON true;
    IF NOT FOUND THEN  -- a new log: no epoch, no entry, still its id
        log_id := v_log;
        RETURN NEXT;
    END IF;
END
$$
"""


def upgrade() -> None:
    op.execute(HEAD_FUNCTION)


def downgrade() -> None:
    op.execute("DROP FUNCTION IF EXISTS roll_log_head(bigint, text)")
