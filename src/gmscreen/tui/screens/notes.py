"""The GM's notes: ``n`` writes one, ``N`` lists this session's to rewrite or take back.

A note is about the session or the selected character, and the GM's alone unless shared (then
the player view and the players' recap show it). Each write, rewrite and removal is a journaled
action (:mod:`gmscreen.campaign.notes`), undone by ``u`` like any other. Notes are the GM's own
words: shown exactly as typed (inert, never read as markup).
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from gmscreen.campaign import events as ev
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.model import Character
from gmscreen.campaign.notes import NoteNow, settled
from gmscreen.campaign.wording import when_text
from gmscreen.text import inert_line
from gmscreen.tui.commands import NO_ROLL, bindings
from gmscreen.tui.i18n import Translate
from gmscreen.tui.screens.dialogs import DIALOG_CSS, ConfirmScreen
from gmscreen.tui.screens.flow import CampaignChanged, Flow
from gmscreen.tui.typeahead import (
    InOrderDialog,
    InOrderInput,
    dismiss_once,
    open_screen,
    opener,
    run_binding_now,
)
from gmscreen.tui.widgets.form_controls import SpaceCheckbox
from gmscreen.tui.widgets.key_bar import KeyBar

LIST_KEYS = ("notes_new", "notes_edit", "notes_remove", "notes_close")


class NoteDraft(msgspec.Struct, frozen=True):
    """What the note form gives back: the text, whether it is about the character, and shared."""

    text: str
    about: bool
    shared: bool


class NoteForm(InOrderDialog[NoteDraft]):
    """One note: its line, "about <name>" (a new note, when a character is selected) and "share
    with the players". ``tab`` moves between them, ``space`` ticks a box, ``enter`` saves from
    anywhere, ``esc`` leaves without writing."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="NoteForm")
        + """
    NoteForm SpaceCheckbox { border: none; padding: 0; margin-top: 1; background: $surface; }
    """
    )
    BINDINGS = bindings("dialog", NO_ROLL, priority=True)

    def __init__(
        self,
        title: str,
        t: Translate,
        text: str = "",
        about: str | None = None,
        about_fixed: bool = False,
        shared: bool = False,
    ) -> None:
        super().__init__()
        self.t = t
        self.title_text = title
        self.text = text
        self.about = about  # the character's name the note may be about (None: the session)
        self.about_fixed = about_fixed  # an existing note keeps its subject
        self.shared = shared

    def compose(self) -> ComposeResult:
        t = self.t
        with Vertical(id="dialog"):
            yield Static(Content(self.title_text), id="title")
            # an Input draws its value raw: a note's own control characters are shown inert
            # a rewrite goes on from the end of the words there (select_on_focus would replace
            # them all with the first key typed)
            yield InOrderInput(
                inert_line(self.text),
                placeholder=t("notes.placeholder"),
                select_on_focus=False,
                id="text",
            )
            if self.about is not None and not self.about_fixed:
                label = t("notes.about_box", name=inert_line(self.about))
                yield SpaceCheckbox(Content(label), False, id="about")
            elif self.about is not None:
                subject = t("notes.about_fixed", name=inert_line(self.about))
                yield Static(Content(subject), id="subject")
            yield SpaceCheckbox(Content(t("notes.share_box")), self.shared, id="shared")
            yield Static(id="error")
            yield Static(Content(t("notes.form_hint")), id="hint")
        yield KeyBar(self.t)

    def confirm(self) -> None:
        text = self.query_one("#text", Input).value
        if not text.strip():
            self.query_one("#error", Static).update(Content(self.t("error.empty_note")))
            return
        asks_about = self.about is not None and not self.about_fixed
        about = asks_about and self.query_one("#about", SpaceCheckbox).value
        shared = self.query_one("#shared", SpaceCheckbox).value
        self.close(NoteDraft(text, about, shared))

    def cancel(self) -> None:
        self.close(None)


async def open_notes(flow: Flow, about: Character | None) -> None:
    """``N``: this session's notes, to rewrite or take back (and ``n`` there writes one)."""
    await open_screen(flow.screen, NotesScreen(flow.live, flow.t, flow.lang, about))


async def write_note(flow: Flow, about: Character | None) -> None:
    """``n``: a new note, about the session or (ticked) ``about``, the selected character."""
    t = flow.t

    def written(draft: NoteDraft | None) -> None:
        if draft is None:
            return
        who = about.id if about is not None and draft.about else None
        if flow.act(lambda: flow.live.note(draft.text, who, draft.shared)):
            flow.say(t("notes.written_shared" if draft.shared else "notes.written"))

    form = NoteForm(t("notes.new_title"), t, about=about.name if about else None)
    await open_screen(flow.screen, form, written)


def session_notes(live: LiveCampaign) -> list[NoteNow]:
    """This session's notes as they stand (rewritten, not taken back), oldest first."""
    return list(settled(entry.event for entry in live.events).values())


def note_line(note: NoteNow, name: str, t: Translate) -> Content:
    """A note in the list: when, about whom, the text (inert), whether the players read it."""
    parts: list[str | tuple[str, str]] = [(when_text(note.game, t) + "  ", "dim")]
    if name:
        parts.append((t("notes.about_label", name=inert_line(name)) + " ", "bold"))
    parts.append(inert_line(note.text))
    if note.shared:
        parts += ["  ", (t("notes.shared_mark"), "italic")]
    return Content.assemble(*parts)


class NotesScreen(Screen[None]):
    """This session's notes, oldest first: ``n`` writes one, ``e``/``enter`` rewrites the one
    highlighted, ``delete`` takes it back (asks first), ``esc`` returns."""

    DEFAULT_CSS = """
    NotesScreen #title { dock: top; height: 1; background: $primary; padding: 0 1; }
    NotesScreen #notes { height: 1fr; border: round $primary; }
    NotesScreen #empty { padding: 1 2; color: $text-muted; }
    """
    # n, e and delete open a dialog (@opener): priority bindings, see gmscreen.tui.typeahead
    BINDINGS = bindings("notes", LIST_KEYS)

    def __init__(
        self, live: LiveCampaign, t: Translate, lang: str, about: Character | None
    ) -> None:
        super().__init__()
        self.live = live
        self.t = t
        self.lang = lang
        self.about = about  # the character selected on the GM's screen, for a new note
        self.notes: list[NoteNow] = []
        self.flow = Flow(self, live, t, lang)

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield OptionList(id="notes")
        yield Static(Content(self.t("notes.none")), id="empty")
        yield KeyBar(self.t)

    async def on_key(self, event: events.Key) -> None:
        await run_binding_now(self, event)  # in the order typed: see gmscreen.tui.typeahead

    def on_mount(self) -> None:
        self.live.listeners.append(self._campaign_changed)
        self.refresh_view()
        self.query_one("#notes", OptionList).focus()

    def name_of(self, character_id: str | None) -> str:
        if character_id is None:
            return ""
        if self.live.state.has_character(character_id):
            return self.live.character(character_id).name
        return character_id

    def refresh_view(self) -> None:
        self.notes = session_notes(self.live)
        self.query_one("#title", Static).update(Content(self.t("notes.title", n=len(self.notes))))
        options = self.query_one("#notes", OptionList)
        highlighted = options.highlighted
        options.clear_options()
        options.add_options(
            [
                Option(note_line(n, self.name_of(n.character), self.t), id=str(n.seq))
                for n in self.notes
            ]
        )
        options.display = bool(self.notes)
        self.query_one("#empty").display = not self.notes
        if self.notes:
            options.highlighted = min(highlighted or 0, len(self.notes) - 1)
        self.refresh_bindings()

    def _selected(self) -> NoteNow | None:
        index = self.query_one("#notes", OptionList).highlighted
        if index is None or not 0 <= index < len(self.notes):
            return None
        return self.notes[index]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("edit", "remove"):
            return self._selected() is not None
        return True

    def on_unmount(self) -> None:
        if self._campaign_changed in self.live.listeners:
            self.live.listeners.remove(self._campaign_changed)

    def _campaign_changed(self, new: Sequence[ev.Event]) -> None:
        self.post_message(CampaignChanged(new))

    @on(CampaignChanged)
    def _show_change(self) -> None:
        self.refresh_view()  # a note written, rewritten or taken back (or a write refused)

    @opener
    async def action_new(self) -> None:
        about = self.about
        if about is not None and not self.live.state.has_character(about.id):
            about = None  # removed since (an undo)
        await write_note(self.flow, about)

    @opener
    async def action_edit(self) -> None:
        note = self._selected()
        if note is None:
            return

        def rewritten(draft: NoteDraft | None) -> None:
            if draft is not None:
                self.flow.act(lambda: self.live.edit_note(note.seq, draft.text, draft.shared))

        name = self.name_of(note.character) or None
        form = NoteForm(
            self.t("notes.edit_title"),
            self.t,
            note.text,
            name,
            about_fixed=True,
            shared=note.shared,
        )
        await open_screen(self, form, rewritten)

    @opener
    async def action_remove(self) -> None:
        note = self._selected()
        if note is None:
            return

        def remove(sure: bool | None) -> None:
            if sure:
                self.flow.act(lambda: self.live.remove_note(note.seq))

        question = self.t("notes.remove_question", text=inert_line(note.text))
        await open_screen(
            self, ConfirmScreen(self.t("notes.remove_title"), question, self.t), remove
        )

    def action_close(self) -> None:
        dismiss_once(self, None)
