"""The campaign: state model, events, the reducer, the store on disk and the live table.

Never imports Textual (a test checks). The screens use :func:`open_table` and :class:`Table`.
"""

from gmscreen.campaign.errors import (
    CampaignError,
    CampaignFileError,
    CampaignLocked,
    InvalidAction,
    Problem,
    UnknownCharacter,
)
from gmscreen.campaign.events import Event
from gmscreen.campaign.model import Campaign, Character, Item, MerpProfile, Settings
from gmscreen.campaign.reducer import ReplayError, apply, fold
from gmscreen.campaign.table import BoundCheck, Entry, Table, open_table

__all__ = [
    "BoundCheck",
    "Campaign",
    "CampaignError",
    "CampaignFileError",
    "CampaignLocked",
    "Character",
    "Entry",
    "Event",
    "InvalidAction",
    "Item",
    "MerpProfile",
    "Problem",
    "ReplayError",
    "Settings",
    "Table",
    "UnknownCharacter",
    "apply",
    "fold",
    "open_table",
]
