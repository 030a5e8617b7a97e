"""The campaign folder on disk: the checkpoint, the journals, and recovery on open.

``campaign.toml`` is written atomically (a temporary file with a random name in the same
folder, fsync, ``os.replace``, fsync of the folder: see :mod:`safe_files`) and read only as a
regular file of at most ``CHECKPOINT_LIMIT`` bytes. Reading never writes. Recovery replays the journal
events after the checkpoint's ``last_event``; if an undo after it voids something the
checkpoint already includes, the session is refolded from its header instead.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import msgspec

from gmscreen.campaign.codec import checkpoint_values, parse_toml, to_toml
from gmscreen.campaign.errors import CampaignFileError, Problem
from gmscreen.campaign.journal import SessionLog, TornLine, list_sessions, read_session
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.reducer import ReplayError, fold, void_actions
from gmscreen.campaign.safe_files import CHECKPOINT_LIMIT, read_regular, replace_file
from gmscreen.campaign.toml_merge import Merged, merge_values, same_values, write_into
from gmscreen.campaign.torn_lines import torn_action
from gmscreen.text import counted

CAMPAIGN_FILE = "campaign.toml"
SESSIONS_DIR = "sessions"


def campaign_file(folder: Path) -> Path:
    return folder / CAMPAIGN_FILE


def sessions_dir(folder: Path) -> Path:
    return folder / SESSIONS_DIR


def read_checkpoint(folder: Path) -> tuple[Campaign, bytes]:
    """The checkpoint and the bytes it was read from; raises :class:`CampaignFileError`."""
    path = campaign_file(folder)
    try:
        data = read_regular(path, CHECKPOINT_LIMIT)
    except FileNotFoundError:
        raise CampaignFileError(
            [Problem(path, 0, "no campaign here: expected a campaign.toml (gmscreen new NAME)")]
        ) from None
    except OSError as error:
        raise CampaignFileError([Problem(path, 0, f"cannot read: {error.strerror}")]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise CampaignFileError([Problem(path, line, "not UTF-8 text")]) from None
    return parse_toml(text, path), data


def write_checkpoint(folder: Path, campaign: Campaign) -> bytes:
    """Write ``campaign.toml`` atomically; returns the bytes written."""
    data = to_toml(campaign).encode("utf-8")
    replace_file(folder, CAMPAIGN_FILE, data)
    return data


class Written(msgspec.Struct):
    """A checkpoint as written: its bytes, the game's values written into it (the base of the
    next merge: a value the GM changed stays the GM's until the game changes it), and what the
    GM should be told."""

    data: bytes
    values: dict[str, Any]
    notice: str | None = None


def update_checkpoint(
    folder: Path, campaign: Campaign, last: bytes, base: dict[str, Any] | None = None
) -> Written:
    """Write ``campaign`` into the ``campaign.toml`` on disk, keeping its comments and layout.

    ``last`` is the file as the game last read or wrote it; ``base``, the values it then wrote
    (default: those of ``last``). If the file is not ``last`` any more, the GM edited it while
    the campaign was open: an edit that cannot be read is refused (:class:`CampaignFileError`,
    the file left as it is); one that can is merged (:mod:`toml_merge`) and told in the notice.
    """
    path = campaign_file(folder)
    ours = checkpoint_values(campaign)
    try:
        on_disk: bytes | None = read_regular(path, CHECKPOINT_LIMIT)
    except FileNotFoundError:
        on_disk = None
    if on_disk is None:
        return Written(write_checkpoint(folder, campaign), ours)
    edited = on_disk != last
    if edited:
        read_checkpoint(folder)  # raises, and leaves the file as it is, if it is broken
    text = on_disk.decode("utf-8")
    if base is None:
        base = tomllib.loads(last.decode("utf-8"))
    merged = merge_values(base, tomllib.loads(text), ours)
    notice = _merge_notice(path, merged) if edited else None
    new = _into(text, merged.values, path)
    if new is None and edited:  # the GM's values cannot stand with the game's: the game's only
        new = _into(text, ours, path)
        notice = (
            f"{path.name} was edited while the campaign was open, and the edit does not fit "
            "with the game's values: only its comments and layout were kept"
        )
    if new is None:
        new = to_toml(campaign)
        notice = f"{path.name} could not be written into as it was: it was written afresh"
    data = new.encode("utf-8")
    replace_file(folder, CAMPAIGN_FILE, data)
    return Written(data, ours, notice)


def _into(text: str, values: dict[str, Any], path: Path) -> str | None:
    """``text`` with ``values`` written into it, if that reads back as exactly those values."""
    try:
        new = write_into(text, values)
        parse_toml(new, path)
    except (ValueError, CampaignFileError):
        return None
    return new if same_values(tomllib.loads(new), values) else None


def _merge_notice(path: Path, merged: Merged) -> str:
    said = f"{path.name} was edited while the campaign was open; your edits were kept"
    if merged.kept:
        said += f" ({', '.join(merged.kept[:6])}{', …' if len(merged.kept) > 6 else ''})"
        said += ", and take effect when the campaign is next opened"
    if merged.conflicts:
        said += (
            f"; {', '.join(merged.conflicts[:6])} also changed in play: "
            "the game's values were written there"
        )
    return said


def load_sessions(folder: Path, *, damaged_ok: bool = False) -> list[SessionLog]:
    """Every session journal, oldest first; raises :class:`CampaignFileError` with every problem.

    ``damaged_ok``: a bad line before a journal's last is reported in the log, not raised (see
    :func:`read_session`); :func:`recover` decides whether the checkpoint covers it.
    """
    logs: list[SessionLog] = []
    problems: list[Problem] = []
    for path in list_sessions(sessions_dir(folder)):
        try:
            logs.append(read_session(path, damaged_ok=damaged_ok))
        except CampaignFileError as error:
            problems.extend(error.problems)
    if problems:
        raise CampaignFileError(problems)
    return logs


def load_recent(folder: Path, known: int) -> tuple[list[SessionLog], list[Path]]:
    """The journals opening must read, oldest first, and every journal's path (oldest first).

    ``known`` is the checkpoint's last event. Sequence numbers grow from one session to the
    next, so reading from the newest journal back, the first one that starts at or before
    ``known + 1`` is the last needed: every older one ends before the checkpoint's last event,
    which already includes it. The newest journal is always read (the GM's log shows it).
    Damaged lines are reported in the logs as by :func:`load_sessions` with ``damaged_ok``;
    raises :class:`CampaignFileError` for a needed journal that cannot be read.
    """
    paths = list_sessions(sessions_dir(folder))
    logs: list[SessionLog] = []
    for path in reversed(paths):
        log = read_session(path, damaged_ok=True)
        logs.append(log)
        if log.header.first_seq - 1 <= known:
            break
    logs.reverse()
    return logs, paths


class Recovered(msgspec.Struct):
    """A campaign as opened: the checkpoint brought up to date with the session journals.

    ``replayed`` counts the events the checkpoint lacked; ``notices`` are for the GM (what was
    recovered, torn lines left out).
    """

    state: Campaign
    checkpoint: Campaign
    logs: list[SessionLog]
    replayed: int = 0  # events the checkpoint did not include
    notices: list[str] = msgspec.field(default_factory=list)


def recover(checkpoint: Campaign, logs: list[SessionLog]) -> Recovered:
    """The checkpoint brought up to date with the journals (pure: writes nothing)."""
    result = Recovered(checkpoint, checkpoint, logs)
    for log in logs:
        state = result.state
        known = state.last_event
        if log.damaged:
            _check_covered(log, known)
            result.notices.append(_damaged_notice(log))
        if log.last_seq <= known:
            continue
        void = void_actions(log.events)
        try:
            if log.damaged:  # covered: only what follows the damage is new
                state = fold(state, [e for e in log.events if e.seq > known], void)
            elif log.header.first_seq - 1 >= known:
                state = fold(log.header.state, log.events, void)
            else:
                void_then = void_actions([e for e in log.events if e.seq <= known])
                if any(action <= known for action in void ^ void_then):
                    state = fold(log.header.state, log.events, void)
                else:
                    state = fold(state, [e for e in log.events if e.seq > known], void)
        except ReplayError as error:
            # The event's line: the header is line 1, then one event a line from first_seq.
            line = 0 if error.seq is None else error.seq - log.header.first_seq + 2
            raise CampaignFileError([Problem(log.path, line, str(error))]) from None
        result.replayed += log.last_seq - known
        result.notices.append(
            f"recovered {counted(log.last_seq - known, 'event')} from {log.path.name} "
            "that the checkpoint did not include"
        )
        result.state = state
    names = {c.id: c.name for c in result.state.characters}
    for log in logs:
        if log.torn is not None:
            result.notices.append(torn_notice(log.path, log.torn, names))
    return result


def torn_notice(path: Path, torn: TornLine, names: dict[str, str]) -> str:
    """What the GM is told of a journal's torn last line (``names``: characters by id)."""
    what = torn_action(torn.data, names)
    return (
        f"{what[:1].upper()}{what[1:]} was cut short before it was all written "
        f"({path.name} line {torn.line}: {torn.reason}): the whole action "
        f"is left out, and opening the campaign keeps the line in {path.name}.corrupt"
    )


def _check_covered(log: SessionLog, known: int) -> None:
    """A journal with damaged lines before its last opens only if the checkpoint (``known``, its
    last event) already includes every event those lines may have held."""
    first = log.damaged[0]
    resumed = [e.seq for e in log.events if log.gap_after is not None and e.seq > log.gap_after]
    needed = resumed[0] - 1 if resumed else (log.gap_after or 0)
    if known >= needed:
        return
    raise CampaignFileError(
        [
            Problem(
                log.path,
                first.line,
                f"{first.reason}; the checkpoint (up to event {known}) does not include the "
                f"events this line held, so the campaign cannot be rebuilt past event "
                f"{log.gap_after}",
            )
        ]
    )


def _damaged_notice(log: SessionLog) -> str:
    lines = ", ".join(str(d.line) for d in log.damaged)
    which = "a damaged line" if len(log.damaged) == 1 else "damaged lines"
    return (
        f"{log.path.name} has {which} {lines} ({log.damaged[0].reason}); the checkpoint "
        f"already includes what they held, so they were left out (and kept in "
        f"{log.path.name}.corrupt); the journal itself is not changed"
    )


def load(folder: Path) -> Recovered:
    """Read a campaign and its journals without writing anything."""
    checkpoint, _ = read_checkpoint(folder)
    return recover(checkpoint, load_sessions(folder, damaged_ok=True))
