"""The GM's screen: the roster, the selected character, the roll log, the clock.

It shows what the live campaign holds, and redraws on one trigger: the campaign tells its
listeners of every action it journals (a key's, a dialog's, the item screens'), and the screen,
subscribed to it, posts itself a :class:`MainScreen.CampaignChanged` message and redraws when
that is handled. The dialogs never redraw it.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.css.query import NoMatches
from textual.message import Message
from textual.widgets import Static

from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import CampaignError
from gmscreen.campaign.gm_words import Line
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Campaign, Character
from gmscreen.campaign.reducer import rounds_running, void_actions
from gmscreen.campaign.telling import log_lines, teller
from gmscreen.campaign.undo import UNDOS, undone_later
from gmscreen.campaign.wording import clock_text
from gmscreen.rules.dice import DiceError
from gmscreen.rules.madness import MadnessError
from gmscreen.text import inert_line
from gmscreen.tui import language_switch
from gmscreen.tui.commands import add_bindings, bindings, by_id, effective_keys, relabel_bindings
from gmscreen.tui.format import error_text
from gmscreen.tui.i18n import Translate
from gmscreen.tui.module_keys import Offers, for_modules, usable
from gmscreen.tui.screens import main_characters, main_madness, main_rulings, main_time, main_undo
from gmscreen.tui.screens.kept_layout import KeptLayout
from gmscreen.tui.session import MadnessHistories
from gmscreen.tui.typeahead import open_screen, opener, run_binding_now, with_openers
from gmscreen.tui.widgets.detail import SPARK_POINTS, DetailPane
from gmscreen.tui.widgets.key_bar import KeyBar
from gmscreen.tui.widgets.roll_log import RollLog
from gmscreen.tui.widgets.roster import CardContext, Roster

if TYPE_CHECKING:
    from gmscreen.campaign.player_safe import PlayerSafe
    from gmscreen.tui.screens.player_view import PlayerView

# The dialogs are imported where they open, not here: the first frame never needs them, and
# loading them (and the Textual widgets they use) was a measurable part of start-up.

ERRORS = (CampaignError, DiceError, MadnessError)


class MainScreen(KeptLayout[None]):
    # The log takes a share of the height; a short terminal gives the sparkline's rows to
    # the detail pane's text.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]

    class CampaignChanged(Message):
        """The live campaign journaled an action (posted by the screen's listener)."""

        def __init__(self, new: Sequence[ev.Event]) -> None:
            super().__init__()
            self.new = new

    DEFAULT_CSS = """
    MainScreen #header {
        dock: top; height: 1; background: $primary; color: $text; padding: 0 1;
    }
    MainScreen #top { height: 2fr; min-height: 8; }
    MainScreen #roster-box { width: 3fr; border: round $primary; }
    MainScreen #detail { width: 2fr; border: round $secondary; }
    MainScreen #log {
        height: 1fr; min-height: 5; border: round $accent; padding: 0 1;
    }
    MainScreen.-short #detail #spark-title, MainScreen.-short #detail #spark { height: 0; }
    MainScreen #log:focus { border: round $accent-lighten-2; }
    MainScreen #empty { padding: 1 2; color: $text-muted; }
    """

    def __init__(
        self,
        live: LiveCampaign,
        t: Translate,
        lang: str,
        rng: random.Random,
        keymap: dict[str, str],
    ) -> None:
        super().__init__()
        # the keys that open a screen (@opener) are priority bindings: see gmscreen.tui.typeahead
        main_keys = for_modules(bindings("main", t), live.state.settings.modules)
        add_bindings(self, with_openers(self, main_keys))
        self.live = live
        self.t = t
        self.lang = lang
        self.rng = rng
        self.keymap = keymap
        self.seen = 0  # events of this session already in the log
        self.builder = teller(live.session_start, lang)  # tonight's words, as they come
        self.past = live.past_sessions  # earlier sessions, for the log and the sparkline
        self.past_lines = self.past_log_lines()
        self.histories = MadnessHistories(live, SPARK_POINTS)  # the sparkline's points
        self._shown: tuple[Campaign, int] = (live.state, -1)  # what refresh_all last showed
        self._player_view: PlayerView | None = None  # the last one opened, kept up to date
        self.select_last = False  # a character was added: select it once it is shown
        self.shown_revision = self.settled_revision = 0  # for the dialogs over it: backdrop.py
        self.key_offers = Offers(live, lambda: self.query_one(Roster).selected_id)
        self.throwaway = False  # a temporary copy (the demo, an example): the header says so

    def past_log_lines(self) -> list[Line]:
        """The earlier sessions' lines, in the screen's language."""
        lines: list[Line] = []
        # struck through too: what an undo of a later session (tonight's) took back
        taken = undone_later([[e.event for e in self.live.events], *(p.events for p in self.past)])
        for log in self.past:
            void = void_actions(log.events) | taken
            lines += log_lines(log.header.state, log.events, void, self.lang)
        return lines

    # --- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Horizontal(id="top"):
            with Vertical(id="roster-box"):
                roster = Roster(self.t, id="roster")
                roster.bind_keys(
                    for_modules(bindings("roster", self.t), self.state.settings.modules)
                )
                roster.on_highlight = self._refresh_detail
                yield roster
                yield Static(Content(self.t("app.no_character")), id="empty")
            yield DetailPane(self.t, id="detail")
        log = RollLog(id="log")
        log.border_title = self.t("log.title")
        yield log
        yield KeyBar()

    async def on_key(self, event: events.Key) -> None:
        await run_binding_now(self, event)  # in the order typed: see gmscreen.tui.typeahead

    def on_mount(self) -> None:
        self.live.listeners.append(self._campaign_changed)
        self.refresh_all(rebuild_log=True)
        self.query_one(Roster).focus()

    def on_unmount(self) -> None:
        if self._campaign_changed in self.live.listeners:
            self.live.listeners.remove(self._campaign_changed)

    def _campaign_changed(self, new: Sequence[ev.Event]) -> None:
        self.post_message(self.CampaignChanged(new))

    async def on_main_screen_campaign_changed(self, _: CampaignChanged) -> None:
        self.refresh_if_changed()  # several actions in a row: the first message shows them all
        self.offers_changed()
        # Each widget redrawn tells the screen so from its own message queue. Yielding once
        # lets them do it before this screen handles its next message: a dialog that closes
        # with the action queues the screen's resume right behind this one, and the resume's
        # frame then draws them too (else a second frame came, a frame slot later).
        await asyncio.sleep(0)

    def offers(self, action: str) -> bool:
        """Whether the key bar shows ``action`` now: no key that would only refuse (KeyBar)."""
        return self.key_offers.offers(action)

    def offers_changed(self) -> None:
        if self.key_offers.changed():  # something to undo now, the selected one's check due ...
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return usable(action, bool(self.state.characters))  # no key that refuses: module_keys

    @property
    def state(self) -> Campaign:
        return self.live.state

    @property
    def madness_on(self) -> bool:
        return "madness" in self.state.settings.modules

    def context(self) -> CardContext:
        return CardContext.of(self.state, self.lang)

    # --- refresh -----------------------------------------------------------------------------

    def refresh_all(self, rebuild_log: bool = False) -> None:
        state = self.state
        roster = self.query_one(Roster)
        roster.show(state.characters, self.context())
        self.query_one("#empty").display = not state.characters
        roster.display = bool(state.characters)
        self._refresh_log(rebuild_log)
        self._refresh_header()
        self._refresh_detail()
        if self._player_view is not None and self.app.screen is self._player_view:
            self._player_view.show(self._players_see())
        if self.select_last and state.characters:
            self.select_last = False
            roster.highlighted = roster.option_count - 1
        self._shown = (state, len(self.live.events))

    def _shows_new(self) -> None:
        """Something new is drawn: the dialogs over this screen draw their background anew."""
        self.shown_revision = revision = self.shown_revision + 1

        def settled() -> None:
            self.settled_revision = revision

        self.call_after_refresh(settled)

    def refresh_if_changed(self) -> None:
        """Redraw if the campaign changed since the last redraw: redrawing with nothing new
        would still repaint, and cost the GM a frame."""
        state, count = self._shown
        if state is not self.state or count != len(self.live.events):
            self.refresh_all()

    def _rounds(self) -> int:
        entries = self.live.events
        void = {e.event.action for e in entries if e.void}
        return rounds_running([e.event for e in entries], void)

    def _refresh_header(self) -> None:
        self._shows_new()
        state = self.state
        parts: list[str | tuple[str, str]] = [
            (inert_line(state.name), "bold"),
            "   ",
            clock_text(state.clock, self.t, self._rounds()),
            "   ",
            (self.t("header.characters", n=len(state.characters)), "dim"),
        ]
        roster = self.query_one(Roster)
        if roster.marked:
            parts += ["   ", (self.t("header.marked", n=len(roster.marked)), "bold")]
        if self.live.fault is not None:  # a write failed: nothing is recorded until one works
            parts += ["   ", (self.t("header.read_only"), "bold $error")]
        if self.throwaway:  # a temporary copy (the demo, an example): nothing here is kept
            parts += ["   ", (self.t("header.throwaway"), "bold $warning")]
        log = self.query_one(RollLog)
        if log.filter_who is not None:
            name = self.name_of(log.filter_who)
            parts += ["   ", (self.t("header.filter", name=name), "italic")]
        if log.search:
            parts += ["   ", (self.t("header.search", text=log.search), "italic")]
        self.query_one("#header", Static).update(Content.assemble(*parts), layout=False)

    def _refresh_detail(self) -> None:
        self._shows_new()
        try:
            roster = self.query_one(Roster)
            pane = self.query_one(DetailPane)
        except NoMatches:  # told of a selection before the pane is there
            return
        self.offers_changed()  # a check due or not: the selected character's
        if not pane.is_mounted:  # or before it has its lines (the roster can mount first)
            return
        selected = roster.selected_id
        character = (
            self.state.character(selected)
            if selected and self.state.has_character(selected)
            else None
        )
        history: list[int] = []
        if character is not None:
            history = self.histories.of(character.id)
        pane.show(character, character.notes if character else "", self.context(), history)

    def _refresh_log(self, rebuild: bool) -> None:
        self._shows_new()
        entries = self.live.events
        log = self.query_one(RollLog)
        new = entries[self.seen :]
        if rebuild or any(isinstance(e.event.data, UNDOS) for e in new):
            if any(isinstance(e.event.data, ev.UndoEarlier) for e in entries):
                self.past_lines = self.past_log_lines()
            self.builder = teller(self.live.session_start, self.lang)
            void = {e.event.action for e in entries if e.void}
            log.replace(self.past_lines + self.builder.tell([e.event for e in entries], void))
        else:
            void = {e.event.action for e in new if e.void}
            log.add(self.builder.tell([e.event for e in new], void))
        self.seen = len(entries)

    def name_of(self, character_id: str) -> str:
        if self.state.has_character(character_id):
            return self.state.character(character_id).name
        return self.builder.names.get(character_id, character_id)

    @on(Roster.MarksChanged)
    def _marks(self) -> None:
        self._refresh_header()

    # --- helpers -----------------------------------------------------------------------------

    def do(self, what: Callable[[], object]) -> bool:
        """Run one action of the live campaign; a rule or campaign error becomes a notification.
        (The screen redraws when the campaign tells it of the action: see the module.)"""
        try:
            what()
        except ERRORS as error:
            self.notify(error_text(error, self.t, self.lang), severity="error")
            self._refresh_header()  # nothing changed, but a write that failed shows READ-ONLY
            return False
        return True

    def targets(self) -> list[str]:
        """The ids an action applies to: the marked characters, or the selected one."""
        return self.query_one(Roster).targets()

    def clear_marks(self) -> None:
        self.query_one(Roster).clear_marks()

    def selected_character(self) -> Character | None:
        selected = self.query_one(Roster).selected_id
        if selected is None or not self.state.has_character(selected):
            self.notify(self.t("app.no_character"), severity="warning")
            return None
        return self.state.character(selected)

    def need_madness(self) -> bool:
        if not self.madness_on:
            self.notify(self.t("app.madness_off"), severity="warning")
        return self.madness_on

    # --- madness (screens/main_madness.py) --------------------------------------------------

    @opener
    async def action_gain(self) -> None:
        await main_madness.gain(self)

    @opener
    async def action_check(self) -> None:
        await main_madness.check(self)

    @opener
    async def action_check_all(self) -> None:
        await main_madness.check_all(self)

    # --- GM rulings (screens/main_rulings.py) -----------------------------------------------

    @opener
    async def action_rulings(self) -> None:
        await main_rulings.open_menu(self)

    @opener
    async def action_ruling(self, which: str) -> None:
        await main_rulings.open_ruling(self, which)

    # --- time (advancing: screens/main_time.py) ----------------------------------------

    def action_next_round(self) -> None:
        self.do(self.live.next_round)

    @opener
    async def action_advance(self) -> None:
        await main_time.ask_advance(self)

    def action_end_day(self) -> None:
        day = self.state.clock // 86400 + 1
        if self.do(self.live.end_day):
            self.notify(self.t("app.day_ended", day=day))

    # --- characters (screens/main_characters.py) --------------------------------------------

    @opener
    async def action_new_character(self) -> None:
        await main_characters.new_character(self)

    @opener
    async def action_edit_character(self) -> None:
        await main_characters.edit_character(self)

    @opener
    async def action_remove_character(self) -> None:
        await main_characters.remove_character(self)

    # --- undo, log, views --------------------------------------------------------------------

    @opener
    async def action_undo(self) -> None:
        await main_undo.undo(self)

    def action_redo(self) -> None:
        main_undo.redo(self)

    def action_log_filter(self) -> None:
        log = self.query_one(RollLog)
        selected = self.query_one(Roster).selected_id
        if log.filter_who is not None or selected is None:
            log.set_filter(None)
            self.notify(self.t("log.filter_off"))
        else:
            log.set_filter(selected)
            self.notify(self.t("log.filter_on", name=self.name_of(selected)))
        self._refresh_header()

    @opener
    async def action_log_search(self) -> None:
        from gmscreen.tui.screens.dialogs import TextPrompt

        def search(text: str) -> None:
            log.set_filter(log.filter_who, text.strip())
            self._refresh_header()

        log, t = self.query_one(RollLog), self.t
        prompt = TextPrompt(t("log.search_title"), t("log.search_hint"), log.search, t)
        await prompt.open(self, search)

    @opener
    async def action_player_view(self) -> None:
        from gmscreen.tui.screens.player_view import PlayerView  # not needed for the first frame

        keys = ",".join(effective_keys(by_id("player_view"), self.keymap))
        self._player_view = PlayerView(self._players_see(), self.t, keys)
        await open_screen(self, self._player_view)

    def _players_see(self) -> PlayerSafe:
        from gmscreen.campaign.player_safe import player_safe

        return player_safe(self.state, self.lang, [e.event for e in self.live.events])

    @opener
    async def action_note(self) -> None:
        from gmscreen.tui.screens.notes import selected, write_note  # the work is there

        await write_note(self, selected(self, self.live))

    @opener
    async def action_notes(self) -> None:
        from gmscreen.tui.screens.notes import open_notes, selected

        await open_notes(self, selected(self, self.live))

    @opener
    async def action_item_tables(self) -> None:
        # The item screens (and the tables engine behind them) load on first use: they cost
        # about 60 ms of start-up that a madness-only evening never needs.
        from gmscreen.tui.screens.item_entry import open_item_tables

        character = self.selected_character()
        if character is not None:
            await open_item_tables(self, self.live, character.id, self.t, self.lang, self.rng)

    @opener
    async def action_inventory(self) -> None:
        from gmscreen.tui.screens.item_entry import open_inventory

        character = self.selected_character()
        if character is not None:
            await open_inventory(self, self.live, character.id, self.t, self.lang)

    def action_switch_language(self) -> None:
        language_switch.switch_language(self)

    @opener
    async def action_settings(self) -> None:
        from gmscreen.tui.screens.settings_flow import open_settings

        await open_settings(self, self)

    def relabel(self, lang: str) -> None:
        """Redraw every word of the screen in ``lang`` (its ``t`` already speaks it)."""
        t = self.t
        self.lang = lang
        relabel_bindings(self, t)
        relabel_bindings(self.query_one(Roster), t)
        self.query_one(RollLog).border_title = t("log.title")
        self.query_one("#empty", Static).update(Content(t("app.no_character")))
        self.query_one("#spark-title", Static).update(Content(t("detail.sparkline")))
        self.past_lines = self.past_log_lines()
        self.refresh_all(rebuild_log=True)  # cards redraw: their context carries the language
        self.refresh_bindings()

    @opener
    async def action_replay(self) -> None:
        # Read-only: the picker and the replay read the journals and never touch the live campaign.
        from gmscreen.tui.screens.replay_picker import SessionPicker

        picker = SessionPicker(
            self.live.folder,
            self.state.name,
            self.t,
            self.lang,
            self.live.session_path,
            evening_hours=self.state.settings.evening_hours,
        )
        await open_screen(self, picker)
