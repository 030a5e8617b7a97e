"""The GM's screen: the roster, the selected character, the roll log, the clock.

It shows what the live campaign holds, and redraws on one trigger: the campaign tells its
listeners of every action it journals (a key's, a dialog's, the item screens'), and the screen,
subscribed to it, posts itself a :class:`~gmscreen.tui.screens.flow.CampaignChanged` message and
redraws when that is handled (a new language or new modules in the settings too). The dialogs
never redraw it: a key's dialogs and what follows them are flows (``main_*.py``), which the
screen starts with a :class:`~gmscreen.tui.screens.flow.Flow` and which tell it what to do by
message.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Static

from gmscreen.campaign import events as ev
from gmscreen.campaign.gm_words import Line
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Campaign, Character, Settings
from gmscreen.campaign.player_safe import PlayerSafe, player_safe
from gmscreen.campaign.reducer import rounds_running, void_actions
from gmscreen.campaign.telling import log_lines, teller
from gmscreen.campaign.undo import UNDOS, undone_later
from gmscreen.campaign.wording import clock_text
from gmscreen.text import inert_line
from gmscreen.tui.commands import bindings
from gmscreen.tui.i18n import Catalog
from gmscreen.tui.module_keys import MADNESS, Offers, usable
from gmscreen.tui.screens import (
    main_characters,
    main_madness,
    main_rulings,
    main_time,
    main_undo,
    notes,
    settings_flow,
)
from gmscreen.tui.screens.dialogs import TextPrompt
from gmscreen.tui.screens.flow import CampaignChanged, Flow, MarksUsed, SpeakLanguage
from gmscreen.tui.screens.player_view import PlayerView
from gmscreen.tui.session import MadnessHistories
from gmscreen.tui.typeahead import open_screen, opener, run_binding_now
from gmscreen.tui.widgets.detail import SPARK_POINTS, DetailPane
from gmscreen.tui.widgets.key_bar import KeyBar
from gmscreen.tui.widgets.roll_log import RollLog
from gmscreen.tui.widgets.roster import CardContext, Roster


class MainScreen(Screen[None]):
    # The log takes a share of the height; a short terminal gives the sparkline's rows to
    # the detail pane's text.
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]
    # the keys that open a screen are priority bindings: see gmscreen.tui.typeahead
    BINDINGS = bindings("main")

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
        catalog: Catalog,
        rng: random.Random,
        keymap: dict[str, str],
    ) -> None:
        super().__init__()
        self.live = live
        self.catalog = catalog
        self.t = catalog.t  # speaks the catalog's language, whichever it is now
        self.launch_lang = catalog.lang  # spoken when the campaign keeps no language
        self.rng = rng
        self.keymap = keymap
        self.seen = 0  # events of this session already in the log
        self.builder = teller(live.session_start, self.lang)  # tonight's words, as they come
        self.past = live.past_sessions  # earlier sessions, for the log and the sparkline
        self.past_lines = self.past_log_lines()
        self.histories = MadnessHistories(live, SPARK_POINTS)  # the sparkline's points
        # what refresh_all last showed: the state, the session's events, whether writing failed
        self._shown: tuple[Campaign, int, object] = (live.state, -1, None)
        self._player_view: PlayerView | None = None  # the last one opened, kept up to date
        self.key_offers = Offers(live, lambda: self.query_one(Roster).selected_id)
        self.throwaway = False  # a temporary copy (the demo, an example): the header says so

    @property
    def lang(self) -> str:
        return self.catalog.lang

    def flow(self) -> Flow:
        """What a key's dialogs work with (see :mod:`.flow`)."""
        return Flow(self, self.live, self.t, self.lang, self.rng, self.keymap)

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
                roster.on_highlight = self._refresh_detail
                yield roster
                yield Static(Content(self.t("app.no_character")), id="empty")
            yield DetailPane(self.t, id="detail")
        log = RollLog(id="log")
        log.border_title = self.t("log.title")
        yield log
        yield KeyBar(self.t)

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
        self.post_message(CampaignChanged(new))

    @on(CampaignChanged)
    def _show_change(self, message: CampaignChanged) -> None:
        """Every change of the campaign shows here: a key's action, a dialog's, the item
        screens', an undo, the settings (their language and modules too), a write refused."""
        before = self._shown[0].settings
        self._follow_settings(before)
        self.refresh_if_changed()  # several actions in a row: the first message shows them all
        added = [e.character for e in message.new if isinstance(e.data, ev.CharacterAdded)]
        roster = self.query_one(Roster)
        if added and added[-1] in roster.ids:  # a character added: selected once shown
            roster.highlighted = roster.ids.index(added[-1])
        self.offers_changed()

    def _follow_settings(self, before: Settings) -> None:
        """The screen speaks the language the campaign's settings say once they change it (``L``,
        the settings, an undo), and offers the keys of the modules in use."""
        after = self.state.settings
        if after.language != before.language:
            self.speak(after.language or self.launch_lang)
        if after.modules != before.modules:
            self.refresh_bindings()

    @on(SpeakLanguage)
    def _speak(self, message: SpeakLanguage) -> None:
        self.speak(message.lang)

    def speak(self, lang: str) -> None:
        """Every word of the screen (and of the app: one catalog) in ``lang`` from now on."""
        if lang == self.lang:
            return
        self.catalog.use(lang)
        self.relabel()
        self.notify(self.t("app.language_changed", language=self.t(f"language.{lang}")))

    @on(MarksUsed)
    def _marks_used(self) -> None:
        self.query_one(Roster).clear_marks()

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
        self._shown = (state, len(self.live.events), self.live.fault)

    def refresh_if_changed(self) -> None:
        """Redraw if the campaign changed since the last redraw: redrawing with nothing new
        would still repaint."""
        if self._shown != (self.state, len(self.live.events), self.live.fault):
            self.refresh_all()

    def _rounds(self) -> int:
        entries = self.live.events
        void = {e.event.action for e in entries if e.void}
        return rounds_running([e.event for e in entries], void)

    def _refresh_header(self) -> None:
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
        # one docked line: a new text never changes the layout
        self.query_one("#header", Static).update(Content.assemble(*parts), layout=False)

    def _refresh_detail(self) -> None:
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

    def relabel(self) -> None:
        """Redraw every word of the screen in the catalog's language (it has just changed)."""
        t = self.t
        self.query_one(RollLog).border_title = t("log.title")
        self.query_one("#empty", Static).update(Content(t("app.no_character")))
        self.query_one("#spark-title", Static).update(Content(t("detail.sparkline")))
        self.past_lines = self.past_log_lines()
        self.refresh_all(rebuild_log=True)  # cards redraw: their context carries the language
        self.refresh_bindings()  # the key bar names its keys in the new language

    # --- what a key needs first --------------------------------------------------------------

    def targets(self) -> list[str]:
        """The ids a gain goes to: the marked characters, or the selected one (or, with
        neither, none: the GM is told)."""
        ids = self.query_one(Roster).targets()
        if not ids:
            self.notify(self.t("app.no_character"), severity="warning")
        return ids

    def selected_character(self) -> Character | None:
        selected = self.query_one(Roster).selected_id
        if selected is None or not self.state.has_character(selected):
            self.notify(self.t("app.no_character"), severity="warning")
            return None
        return self.state.character(selected)

    def need_madness(self) -> bool:
        madness_on = MADNESS in self.state.settings.modules
        if not madness_on:
            self.notify(self.t("app.madness_off"), severity="warning")
        return madness_on

    # --- madness (screens/main_madness.py) and rulings (screens/main_rulings.py) -------------

    @opener
    async def action_gain(self) -> None:
        if self.need_madness() and (ids := self.targets()):
            await main_madness.gain(self.flow(), ids)

    @opener
    async def action_check(self) -> None:
        if self.need_madness() and (character := self.selected_character()):
            await main_madness.check(self.flow(), character.id)

    @opener
    async def action_check_all(self) -> None:
        if self.need_madness():
            await main_madness.check_all(self.flow())

    @opener
    async def action_rulings(self) -> None:
        if self.need_madness() and (character := self.selected_character()):
            await main_rulings.open_menu(self.flow(), character)

    @opener
    async def action_ruling(self, which: str) -> None:
        if self.need_madness() and (character := self.selected_character()):
            await main_rulings.open_ruling(self.flow(), which, character.id)

    # --- time (screens/main_time.py) ---------------------------------------------------------

    def action_next_round(self) -> None:
        self.flow().act(self.live.next_round)

    @opener
    async def action_advance(self) -> None:
        await main_time.ask_advance(self.flow())

    def action_end_day(self) -> None:
        day = self.state.clock // 86400 + 1
        if self.flow().act(self.live.end_day):
            self.notify(self.t("app.day_ended", day=day))

    # --- characters (screens/main_characters.py) --------------------------------------------

    @opener
    async def action_new_character(self) -> None:
        await main_characters.new_character(self.flow())

    @opener
    async def action_edit_character(self) -> None:
        if character := self.selected_character():
            await main_characters.edit_character(self.flow(), character)

    @opener
    async def action_remove_character(self) -> None:
        if character := self.selected_character():
            await main_characters.remove_character(self.flow(), character)

    # --- undo, log, views --------------------------------------------------------------------

    @opener
    async def action_undo(self) -> None:
        await main_undo.undo(self.flow())

    def action_redo(self) -> None:
        main_undo.redo(self.flow())

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
        def search(text: str) -> None:
            log.set_filter(log.filter_who, text.strip())
            self._refresh_header()

        log, t = self.query_one(RollLog), self.t
        prompt = TextPrompt(t("log.search_title"), t("log.search_hint"), log.search, t)
        await prompt.open(self, search)

    @opener
    async def action_player_view(self) -> None:
        self._player_view = PlayerView(self._players_see(), self.t)
        await open_screen(self, self._player_view)

    def _players_see(self) -> PlayerSafe:
        return player_safe(self.state, self.lang, [e.event for e in self.live.events])

    def _about(self) -> Character | None:
        """The character selected, if any: a new note may be about them."""
        chosen = self.query_one(Roster).selected_id
        return self.state.character(chosen) if chosen and self.state.has_character(chosen) else None

    @opener
    async def action_note(self) -> None:
        await notes.write_note(self.flow(), self._about())

    @opener
    async def action_notes(self) -> None:
        await notes.open_notes(self.flow(), self._about())

    @opener
    async def action_item_tables(self) -> None:
        # The item screens load on first use: the tables engine behind them costs a madness-only
        # evening's start-up tens of milliseconds it never needs.
        from gmscreen.tui.screens.item_entry import open_item_tables

        if character := self.selected_character():
            await open_item_tables(self, self.live, character.id, self.t, self.lang, self.rng)

    @opener
    async def action_inventory(self) -> None:
        from gmscreen.tui.screens.item_entry import open_inventory  # as action_item_tables

        if character := self.selected_character():
            await open_inventory(self, self.live, character.id, self.t, self.lang)

    def action_switch_language(self) -> None:
        settings_flow.switch_language(self.flow())

    @opener
    async def action_settings(self) -> None:
        await settings_flow.open_settings(self.flow())

    @opener
    async def action_replay(self) -> None:
        # Read-only: the picker and the replay read the journals and never touch the live
        # campaign. Imported here: the replay's modules cost ~25 ms of start-up.
        from gmscreen.tui.screens.replay_picker import SessionPicker

        live = self.live
        picker = SessionPicker(
            live.folder,
            self.state.name,
            self.t,
            self.lang,
            live.session_path,
            evening_hours=self.state.settings.evening_hours,
        )
        await open_screen(self, picker)
