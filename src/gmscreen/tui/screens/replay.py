"""Replay of one session: the roster and meters as they stood at a step, the log with that
step's event highlighted, and a timeline with the madness checks marked.

Read-only: the screen reads the session's journal once and never touches the campaign's table
or lock; the only file it writes is a recap in ``exports/`` when asked. Undone events stay in
the log, struck through, and stepping skips them.
"""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Static

from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.gm_words import Line, told_order
from gmscreen.campaign.journal import SessionLog
from gmscreen.campaign.model import Campaign
from gmscreen.campaign.recap_markdown import save_recap
from gmscreen.campaign.reducer import rounds_running
from gmscreen.campaign.replay import Replay
from gmscreen.campaign.replay_steps import Steps
from gmscreen.campaign.telling import teller
from gmscreen.campaign.wording import clock_text
from gmscreen.text import inert_line
from gmscreen.tui.commands import bindings, palette_commands
from gmscreen.tui.i18n import Translate
from gmscreen.tui.session import madness_history
from gmscreen.tui.widgets.detail import SPARK_POINTS, DetailPane
from gmscreen.tui.widgets.key_bar import KeyBar
from gmscreen.tui.widgets.replay_log import ReplayLog
from gmscreen.tui.widgets.roster import CardContext, Roster
from gmscreen.tui.widgets.timeline import Timeline

SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0)  # steps a second while playing
DEFAULT_SPEED = 2
HISTORY_CHUNK = 64  # events per chunk of a character's madness history (see _history)


class ReplayScreen(Screen[None]):
    # listed in the command palette by the app (see BaseApp.get_system_commands)
    PALETTE_COMMANDS = tuple(c.id for c in palette_commands(("replay",)))
    # As the GM's screen: the log takes a share of the height, a short terminal no sparkline.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]
    DEFAULT_CSS = """
    ReplayScreen #header {
        dock: top; height: 1; background: $secondary; color: $text; padding: 0 1;
    }
    ReplayScreen #top { height: 2fr; min-height: 8; }
    ReplayScreen #roster-box { width: 3fr; border: round $secondary; }
    ReplayScreen #detail { width: 2fr; border: round $secondary; }
    ReplayScreen #timeline-box { height: 3; border: round $secondary; }
    ReplayScreen #log { height: 1fr; min-height: 5; border: round $accent; padding: 0 1; }
    ReplayScreen.-short #detail #spark-title, ReplayScreen.-short #detail #spark { height: 0; }
    ReplayScreen #empty { padding: 1 2; color: $text-muted; }
    """
    # Priority: the roster would take home/end (its first and last card) for itself.
    BINDINGS = bindings("replay", priority=True)

    def __init__(
        self,
        folder: Path,
        campaign_name: str,
        log: SessionLog,
        t: Translate,
        lang: str,
        replay: Replay | None = None,
    ) -> None:
        super().__init__()
        self.folder = folder
        self.campaign_name = campaign_name
        self.session = log
        self.t = t
        self.lang = lang
        self.replay = replay or Replay.from_log(log)
        self.steps = Steps(log.events)
        self.step = 0
        self.speed = DEFAULT_SPEED
        self.timer: Timer | None = None
        self.outcomes = {
            n + 1: e.data.outcome
            for n, e in enumerate(log.events)
            if isinstance(e.data, ev.CheckRoll)
        }
        self.entries, self.lines_of = self._log_lines()
        self._detail_shown: tuple[int, str | None] | None = None
        self.history_chunk = HISTORY_CHUNK
        # character id -> (their madness points over the session, and how many of them there
        # are before each chunk of events): built once per character, see _history.
        self._histories: dict[str, tuple[list[int], list[int]]] = {}

    def _log_lines(self) -> tuple[list[Line], list[range]]:
        """Every event's lines, and for each step the lines of the event it applies: each
        round its own line here (a step is one event), time passing after what it passed by."""
        builder = teller(self.session.header.state, self.lang, fold=False)
        events = self.session.events
        # where a later journal of the session began: its characters by name from there on
        reopened = {events[step].seq: state for step, state in self.replay.restarts.items()}
        entries: list[Line] = []
        lines_of: dict[int, range] = {}
        for event in told_order(events):
            if (state := reopened.get(event.seq)) is not None:
                builder.names.update({c.id: c.name for c in state.characters})
            start = len(entries)
            entries.extend(builder.event_lines(event, event.action in self.steps.void))
            lines_of[event.seq] = range(start, len(entries))
        return entries, [range(0, 0), *(lines_of[e.seq] for e in self.session.events)]

    # --- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="top"):
            with Vertical(id="roster-box"):
                roster = Roster(self.t, marking=False, id="roster")
                roster.on_highlight = self._selected
                yield roster
                yield Static(Content(self.t("replay.nobody")), id="empty")
            yield DetailPane(self.t, id="detail")
        with Vertical(id="timeline-box") as box:
            box.border_title = self.t("replay.timeline")
            yield Timeline(id="timeline")
        log = ReplayLog(self.t("replay.void"), id="log")
        # Content, not a str: a str border title is read as markup (the id is a file's name)
        log.border_title = Content(self.t("replay.log_title", session=self.session.header.id))
        yield log
        yield KeyBar(self.t)

    def on_mount(self) -> None:
        self.query_one(ReplayLog).load(self.entries)
        # Every character's madness history now, not on the first jump that shows them.
        ids = {c.id for c in self.replay.start.characters}
        for character_id in sorted(ids | {e.character for e in self.session.events if e.character}):
            self._history_chunks(character_id)
        self.go(0)
        self.query_one(Roster).focus()

    @property
    def state(self) -> Campaign:
        """The campaign as the table showed it at the current step."""
        return self.replay.state_at(self.step)

    def context(self, state: Campaign) -> CardContext:
        return CardContext.of(state, self.lang)

    # --- showing a step ------------------------------------------------------------------------

    def go(self, step: int) -> None:
        """Show the state after ``step`` events."""
        self.step = max(0, min(step, self.steps.count))
        state = self.state
        ctx = self.context(state)
        roster = self.query_one(Roster)
        roster.show(state.characters, ctx)
        self._follow(state)
        roster.display = bool(state.characters)
        self.query_one("#empty").display = not state.characters
        self._refresh_detail(state, ctx)
        self.query_one(Timeline).show(self.steps, self.outcomes, self.step)
        self.query_one(ReplayLog).show_step(self.lines_of[self.step])
        self._refresh_header(state)

    def _follow(self, state: Campaign) -> None:
        """Select the character the current event is about, so the detail pane shows them."""
        event = self.session.events[self.step - 1] if self.step else None
        who = event.character if event is not None else None
        if who and state.has_character(who):
            roster = self.query_one(Roster)
            roster.highlighted = [c.id for c in state.characters].index(who)

    def _refresh_header(self, state: Campaign) -> None:
        t = self.t
        playing = (
            t("replay.playing", speed=f"{SPEEDS[self.speed]:g}")
            if self.timer is not None
            else t("replay.paused", speed=f"{SPEEDS[self.speed]:g}")
        )
        parts: list[str | tuple[str, str]] = [
            (t("replay.banner"), "bold"),
            "   ",
            (inert_line(state.name), "bold"),
            "   ",
            t("replay.step", step=self.step, steps=self.steps.count),
            "   ",
            clock_text(
                state.clock, t, rounds_running(self.session.events[: self.step], self.steps.void)
            ),
            "   ",
            (playing, "italic"),
        ]
        self.query_one("#header", Static).update(Content.assemble(*parts), layout=False)

    def _refresh_detail(self, state: Campaign, ctx: CardContext) -> None:
        selected = self.query_one(Roster).selected_id
        if self._detail_shown == (self.step, selected):
            return  # the roster's highlight message after go() already drew it
        self._detail_shown = (self.step, selected)
        character = (
            state.character(selected) if selected and state.has_character(selected) else None
        )
        history = self._history(character.id) if character is not None else []
        self.query_one(DetailPane).show(
            character, character.notes if character else "", ctx, history
        )

    def _history(self, character_id: str) -> list[int]:
        """Madness over the session up to the current step (the detail pane's sparkline).

        Folding the history from the session's start cost ~10 ms a jump on a 10,000-event
        session; a character's points are instead gathered once per chunk of events, and a
        step takes the points of the chunks before it plus those of the events of its own.
        """
        points, ends = self._history_chunks(character_id)
        chunk = self.step // self.history_chunk
        done = ends[chunk]
        tail = madness_history(
            self.replay.start,
            self.session.events[chunk * self.history_chunk : self.step],
            self.steps.void,
            character_id,
        )
        # madness_history starts with the character's madness at the session's start, if any
        tail = tail[int(self.replay.start.has_character(character_id)) :]
        return (points[max(0, done - SPARK_POINTS) : done] + tail)[-SPARK_POINTS:]

    def _history_chunks(self, character_id: str) -> tuple[list[int], list[int]]:
        """A character's madness points over the whole session, and how many come before each
        chunk of ``history_chunk`` events (the first count: the points at the start)."""
        if (known := self._histories.get(character_id)) is not None:
            return known
        start, events, void = self.replay.start, self.session.events, self.steps.void
        points = madness_history(start, [], void, character_id)
        skip = len(points)  # each chunk's history repeats the start's point: skip it
        ends = [len(points)]
        for at in range(0, len(events), self.history_chunk):
            chunk = events[at : at + self.history_chunk]
            points += madness_history(start, chunk, void, character_id)[skip:]
            ends.append(len(points))
        self._histories[character_id] = (points, ends)
        return points, ends

    def _selected(self) -> None:
        """The roster's highlight moved (a key, a click, or a jump following its character)."""
        if not self.query_one(DetailPane).is_mounted:
            return  # the roster can mount first (Python 3.13); on_mount's go(0) draws the pane
        state = self.state
        self._refresh_detail(state, self.context(state))

    @on(Timeline.Jump)
    def _jump(self, message: Timeline.Jump) -> None:
        step = message.step
        if self.steps.is_void(step):
            step = self.steps.previous(step)
        self.go(step)

    # --- keys --------------------------------------------------------------------------------

    def action_step_forward(self) -> None:
        self.go(self.steps.next(self.step))

    def action_step_back(self) -> None:
        self.go(self.steps.previous(self.step))

    def action_next_check(self) -> None:
        self.go(self.steps.next_check(self.step))

    def action_previous_check(self) -> None:
        self.go(self.steps.previous_check(self.step))

    def action_first(self) -> None:
        self.go(0)

    def action_last(self) -> None:
        self.go(self.steps.last)

    def action_toggle_play(self) -> None:
        if self.timer is not None:
            self._stop()
        else:
            if self.step >= self.steps.last:
                self.go(0)
            self._start()
        self._refresh_header(self.state)

    def _start(self) -> None:
        self.timer = self.set_interval(1 / SPEEDS[self.speed], self.tick)

    def _stop(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    def tick(self) -> None:
        """One step of auto-play; it stops at the last step."""
        self.action_step_forward()
        if self.step >= self.steps.last:
            self._stop()
            self._refresh_header(self.state)

    def _set_speed(self, speed: int) -> None:
        self.speed = max(0, min(speed, len(SPEEDS) - 1))
        if self.timer is not None:
            self._stop()
            self._start()
        self._refresh_header(self.state)

    def action_faster(self) -> None:
        self._set_speed(self.speed + 1)

    def action_slower(self) -> None:
        self._set_speed(self.speed - 1)

    def _export(self, players: bool) -> None:
        try:
            path = save_recap(
                self.folder,
                self.campaign_name,
                self.session,
                players,
                self.lang,
                self.replay.final(),  # a session of several journals: from the last one's start
            )
        except (OSError, CampaignError) as error:  # CampaignError: exports/ is a link, say
            self.notify(self.t("replay.export_failed", error=str(error)), severity="error")
            return
        key = "replay.exported_players" if players else "replay.exported"
        self.notify(self.t(key, path=str(path)), timeout=15)

    def action_export(self) -> None:
        self._export(players=False)

    def action_export_players(self) -> None:
        self._export(players=True)

    def action_close(self) -> None:
        self._stop()
        self.dismiss(None)
