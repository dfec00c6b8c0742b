"""A button's JSON back into the panel's operation. The JSON is the client's word only: it is
validated field by field here (anything else is a 400), and the use case checks the rest
(who, which character, whether the rule allows it) exactly as for a panel press."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from bot.services import resources as service
from engine.systems.fate import SlotId, TrackKind
from engine.systems.lifegear import ItemState
from engine.systems.matter import StateId

Delta = Literal[-1, 1]
Index = Annotated[int, Field(ge=0, le=1000)]
Key = Annotated[str, Field(pattern=r"^[0-9a-f]{8}$")]


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FatePointsOp(_Op):
    kind: Literal["fate_points"]
    delta: Delta

    def op(self) -> service.Op:
        return service.FatePoints(self.delta)


class StressOp(_Op):
    kind: Literal["stress"]
    track: TrackKind
    box: Annotated[int, Field(ge=1, le=20)]
    mark: bool

    def op(self) -> service.Op:
        return service.Stress(self.track, self.box, self.mark)


class ClearConsequenceOp(_Op):
    kind: Literal["clear_consequence"]
    slot: SlotId

    def op(self) -> service.Op:
        return service.ClearConsequence(self.slot)


class PoolOp(_Op):
    kind: Literal["pool"]
    trait: service.PoolName
    delta: Delta

    def op(self) -> service.Op:
        return service.Pool(self.trait, self.delta)


class ClicheOp(_Op):
    kind: Literal["cliche"]
    index: Index
    key: Key
    delta: Delta

    def op(self) -> service.Op:
        return service.ClicheDice(self.index, self.key, self.delta)


class GearOp(_Op):
    kind: Literal["gear"]
    index: Index
    key: Key
    state: ItemState

    def op(self) -> service.Op:
        return service.GearState(self.index, self.key, self.state)


class HealthOp(_Op):
    kind: Literal["health"]
    delta: Delta

    def op(self) -> service.Op:
        return service.MatterHealth(self.delta)


class StateOffOp(_Op):
    kind: Literal["state_off"]
    state: StateId

    def op(self) -> service.Op:
        return service.MatterState(self.state, False)


AnyOp = Annotated[
    FatePointsOp | StressOp | ClearConsequenceOp | PoolOp | ClicheOp | GearOp | HealthOp
    | StateOffOp,
    Field(discriminator="kind"),
]  # fmt: skip
_ADAPTER: TypeAdapter[AnyOp] = TypeAdapter(AnyOp)


class BadOp(ValueError):
    """Not an operation the page can send."""


def parse(raw: Any) -> service.Op:
    try:
        return _ADAPTER.validate_python(raw).op()
    except ValidationError as error:
        raise BadOp(str(error)[:200]) from error
