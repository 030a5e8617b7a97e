"""The campaign: state model, events, the reducer, the store on disk and the live campaign.

Never imports Textual (a test checks). The screens use :func:`open_campaign` and :class:`LiveCampaign`.
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
from gmscreen.campaign.live import BoundCheck, Entry, LiveCampaign
from gmscreen.campaign.model import Campaign, Character, Item, MerpProfile, Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.reducer import ReplayError, apply, fold

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
    "LiveCampaign",
    "MerpProfile",
    "Problem",
    "ReplayError",
    "Settings",
    "UnknownCharacter",
    "apply",
    "fold",
    "open_campaign",
]
