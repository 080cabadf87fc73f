"""What a table is in an export file (companion/transfer.py): its row, players, log and
settings as records, each field's type and bounds checked strictly, so that a damaged or
hand-edited file is refused before anything is written."""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .games.clock import CLOCK_SETTING


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class PlayerRecord(Record):
    id: int = Field(ge=1, le=2**31 - 1)
    seat: int = Field(ge=0)
    name: str = Field(min_length=1, max_length=24)
    name_key: str = Field(min_length=1, max_length=24)
    token_hash: str = Field(min_length=1, max_length=64)
    local: bool
    joined_at: str


class EventRecord(Record):
    seq: int = Field(ge=1)
    kind: Literal["action", "undo", "rejoin", "end", "pick", "pause", "resume"]
    actor: Optional[int]
    actor_key: str = Field(max_length=16)
    action: Optional[dict[str, Any]]
    notes: list[dict[str, Any]]
    reveal: bool
    undoes: Optional[int]
    action_id: Optional[str] = Field(max_length=64)
    version: int
    at: str
    awaiting: Optional[list[int]] = None  # who the game awaits after it (the clock's)


class TeachingRecord(Record):
    """A first game taught at the table: the kinds of step each player (by id) got."""

    got_it: dict[Annotated[str, Field(pattern=r"^[0-9]{1,16}$")],
                 list[Annotated[str, Field(max_length=40)]]] = Field(max_length=100)


class TableRecord(Record):
    code: str = Field(min_length=1, max_length=8)
    game: str
    options: dict[str, Any]
    seed: Optional[int]
    status: Literal["lobby", "playing", "finished", "ended"]
    host_token_hash: str = Field(max_length=64)
    first_player: Optional[int]
    version: int = Field(ge=0)
    moves: int = Field(ge=0)
    state: Optional[dict[str, Any]]
    created_at: str
    updated_at: float = Field(strict=False)
    started_at: Optional[str] = None  # absent from a file made before it was kept
    finished_at: Optional[str]
    next_code: Optional[str] = Field(max_length=8)
    players: list[PlayerRecord]
    events: list[EventRecord]
    clock: Optional[dict[str, Any]] = None
    teaching: Optional[TeachingRecord] = None  # absent from a file made before it was kept

    @field_validator("clock")
    @classmethod
    def clock_setting(cls, clock: dict[str, Any] | None) -> dict[str, Any] | None:
        if clock is None:
            return None
        return CLOCK_SETTING.validate_python(clock).model_dump(mode="json")


class SavedDefaultsRecord(Record):
    game: str = Field(max_length=40)
    options: dict[str, Any]
    saved_at: str


class SavedOptionsRecord(Record):
    game: str = Field(max_length=40)
    name: str = Field(min_length=1, max_length=40)
    options: dict[str, Any]
    uses: int = Field(ge=1, le=2**31 - 1)
    saved_at: str
