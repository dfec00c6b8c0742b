"""One language per group: a group that never chose one (/lang) speaks the language of the GM
of its first game, as /newgame now sets it (``settings.adopt_group_language``)

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-04 19:00:00

Before, such a group answered each sender in their own language, so a shared message (a card,
a /res panel, a tracker) flipped whenever a player with another language pressed it. The GM's
language is their /lang in private, else Telegram's language_code when it is ru or en; a GM
with neither leaves the group as it was (the default locale is the bot's setting, not the
database's). The group's open /res panels are redrawn in it from now on. Downgrade keeps the
languages: which ones this set cannot be told from those a /lang chose.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ADOPT = """
WITH first_gm AS (
    SELECT DISTINCT ON (g.chat_id) g.chat_id,
        coalesce(u.locale, CASE WHEN lower(split_part(u.language_code, '-', 1)) IN ('ru', 'en')
            THEN lower(split_part(u.language_code, '-', 1)) END) AS locale
    FROM games g JOIN users u ON u.id = g.gm_user_id
    ORDER BY g.chat_id, g.id
), adopted AS (
    UPDATE chats c SET locale = f.locale, updated_at = now()
    FROM first_gm f
    WHERE c.id = f.chat_id AND c.locale IS NULL AND f.locale IS NOT NULL
        AND c.type IN ('group', 'supergroup')
    RETURNING c.id, c.locale
)
UPDATE res_panels p SET locale = a.locale FROM adopted a WHERE p.chat_id = a.id
"""


def upgrade() -> None:
    op.execute(ADOPT)


def downgrade() -> None:
    pass
