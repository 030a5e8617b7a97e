"""Opening a campaign: lock it, recover it from its journals, hand it over as a LiveCampaign.

Kept apart from :mod:`live` (what an open campaign does) because opening is its own
responsibility: the lock, recovery, the torn lines set aside.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from gmscreen.campaign.errors import CampaignError, CampaignFileError, WriteFault
from gmscreen.campaign.history import SessionHistory
from gmscreen.campaign.journal import set_aside
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.lock import acquire
from gmscreen.campaign.safe_files import UnsafeFile, resolve_folder
from gmscreen.campaign.store import (
    campaign_file,
    load_recent,
    read_checkpoint,
    recover,
)


def _local_now() -> datetime:
    return datetime.now().astimezone()


def open_campaign(
    path: str | Path,
    *,
    rng: random.Random,
    clock: Callable[[], datetime] | None = None,
    checkpoint_every: int = 50,
    take_over: bool = False,
) -> LiveCampaign:
    """Lock the campaign in ``path``, recover it from its journals, and open it for play.

    Reads the checkpoint and only the newest journals (those it must replay, and the last
    session played: :func:`load_recent`); older sessions are read when asked for, through
    ``LiveCampaign.history``.

    A new session journal starts with the first event. Raises :class:`CampaignFileError`
    (nothing written) or :class:`CampaignLocked` (``take_over`` takes a lock whose holder
    cannot be proved gone: the GM's word that it is, see :func:`acquire`).
    """
    folder = resolve_folder(path)  # once: every file after is under this very folder
    if not campaign_file(folder).is_file():
        read_checkpoint(folder)  # raises the "no campaign here" problem
    now = clock or _local_now
    lock = acquire(folder, now, take_over=take_over)
    try:
        checkpoint, disk = read_checkpoint(folder)
        logs, paths = load_recent(folder, checkpoint.last_event)  # tonight's, not every one
        recovered = recover(checkpoint, logs)
    except CampaignError:
        lock.release()
        raise
    notices = list(recovered.notices)
    if lock.took_over is not None:
        notices.insert(0, lock.took_over.notice())
    history = SessionHistory(paths, logs)
    live = LiveCampaign(
        folder, lock, recovered.state, disk, rng, now, checkpoint_every, notices, history
    )
    try:
        for log in logs:
            try:
                set_aside(log)
            except UnsafeFile as error:  # a link planted at <session>.corrupt: not followed
                notices.append(str(error))
    except OSError as error:  # a read-only folder: the journal keeps the line all the same
        notices.append(f"could not set aside what could not be read: {error}")
    # The session index is brought up to date on close (LiveCampaign.close), not here: with
    # years of sessions, checking every entry would cost more than reading tonight's journal.
    if recovered.replayed:
        try:
            live.checkpoint()
        except WriteFault as error:  # opens all the same: the journals hold what it lacks
            notices.append(str(error))
        except CampaignFileError:
            lock.release()
            raise
    return live
