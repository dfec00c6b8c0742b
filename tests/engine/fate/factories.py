"""A valid sample character and small builders shared by the FATE tests."""

from __future__ import annotations

from engine.systems.fate import (
    AspectRole,
    Character,
    CharacterAspect,
    Equipment,
    Skill,
    Stunt,
)

# 1 at +4, 3 at +3, 4 at +2, 9 at +1: 4 + 9 + 8 + 9 = 30 points, a valid column.
SAMPLE_SKILLS: dict[Skill, int] = {
    Skill.FIGHT: 4,
    Skill.WEALTH: 3,
    Skill.PHYSIQUE: 3,
    Skill.WILL: 3,
    Skill.NOTICE: 2,
    Skill.TECHNOLOGY: 2,
    Skill.ALCHEMY: 2,
    Skill.ARTIFICE: 2,
    Skill.ATHLETICS: 1,
    Skill.EDUCATION: 1,
    Skill.CRIME: 1,
    Skill.SHOOT: 1,
    Skill.EMPATHY: 1,
    Skill.FIRE: 1,
    Skill.STEALTH: 1,
    Skill.CONTACTS: 1,
    Skill.INVESTIGATE: 1,
}

SAMPLE_ASPECTS = (
    CharacterAspect(text="Рыцарь Круглого стола", role=AspectRole.CONCEPT),
    CharacterAspect(text="Ни дня без пинты доброго пива!", role=AspectRole.TROUBLE),
    CharacterAspect(text="Выжил в осаде Таргоса", role=AspectRole.PHASE),
    CharacterAspect(text="Должен жизнь Алисе", role=AspectRole.CROSSING),
    CharacterAspect(text="Старый друг Бориса", role=AspectRole.CROSSING),
)


def sample(**update: object) -> Character:
    """A character that passes validation with no violations at all."""
    base = Character(
        name="Сэр Гарет",
        aspects=SAMPLE_ASPECTS,
        skills=dict(SAMPLE_SKILLS),
        stunts=(Stunt(name="Удар щитом"), Stunt(name="Стойкость"), Stunt(name="Клятва")),
        refresh=3,
        fate_points=3,
        equipment=Equipment(melee=2, armor=2),
    )
    return base.model_copy(update=update)


def with_skills(**levels: int) -> Character:
    """A bare character with the given skills (by Skill value)."""
    return Character(
        name="x", aspects=SAMPLE_ASPECTS, skills={Skill(k): v for k, v in levels.items()}
    )
