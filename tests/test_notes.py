"""Notes rewritten and taken back, and a gain's what-happened line (#15 Build 1), on the live
campaign: journaled, undone as any action, told in order by both recaps, GM-only words never in
the players' (RULES.md "What players may see")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.hostile_text import forbidden_in, names, shown_as_typed
from tests.rich_session import fixed_clock

from gmscreen.campaign import events as ev
from gmscreen.campaign.errors import InvalidAction
from gmscreen.campaign.live import LiveCampaign
from gmscreen.campaign.notes import settled
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.player_safe import player_safe
from gmscreen.campaign.recap_markdown import recap_markdown
from gmscreen.campaign.store import load_sessions
from gmscreen.campaign.telling import recap_lines
from gmscreen.rules import dice


def _open(folder: Path) -> LiveCampaign:
    return open_campaign(folder, rng=random.Random(3), clock=fixed_clock)


@pytest.fixture
def live(tmp_path: Path) -> LiveCampaign:
    folder = create_campaign(tmp_path, "Tanelorn")
    opened = _open(folder)
    opened.add_character("Artinar", 13, chaos=43, balance=32, law=47)
    opened.add_character("Bors", 12, chaos=20, balance=10, law=5)
    return opened


def _now(live: LiveCampaign) -> list[tuple[str | None, str, bool]]:
    return [(n.character, n.text, n.shared) for n in settled(e.event for e in live.events).values()]


def test_a_note_rewritten_and_taken_back_is_journaled_and_undone(live: LiveCampaign) -> None:
    note = live.note("a black ship", "artinar")
    edited = live.edit_note(note.seq, "a black ship at the quay", shared=True)
    assert isinstance(edited, ev.Event) and isinstance(edited.data, ev.NoteEdited)
    assert (edited.data.before, edited.data.was_shared) == ("a black ship", False)
    assert edited.character == "artinar"  # the note's subject, for the log's filter
    assert _now(live) == [("artinar", "a black ship at the quay", True)]
    assert live.edit_note(note.seq, "a black ship at the quay", shared=True) is None  # no change
    live.remove_note(note.seq)
    assert _now(live) == []
    with pytest.raises(InvalidAction) as gone:
        live.edit_note(note.seq, "again", shared=False)
    assert gone.value.code == "no_note"
    live.undo()  # the removal
    assert _now(live) == [("artinar", "a black ship at the quay", True)]
    live.undo()  # the rewrite
    assert _now(live) == [("artinar", "a black ship", False)]
    live.redo()
    assert _now(live) == [("artinar", "a black ship at the quay", True)]
    live.close()
    # the journal holds every step: reopened, the same words (and the same undos)
    (log,) = load_sessions(live.folder)
    assert [e.kind for e in log.events][-6:] == [
        "note",
        "note_edited",
        "note_removed",
        "undo",
        "undo",
        "undo",
    ]
    assert [(n.text, n.shared) for n in settled(log.events).values()] == [
        ("a black ship at the quay", True)
    ]


def test_an_empty_rewrite_is_refused_and_undoing_a_note_takes_its_edits(
    live: LiveCampaign,
) -> None:
    note = live.note("first words")
    with pytest.raises(InvalidAction) as empty:
        live.edit_note(note.seq, "   ", shared=False)
    assert empty.value.code == "empty_note"
    live.edit_note(note.seq, "second words", shared=True)
    live.undo()  # the rewrite
    live.undo()  # the note
    assert _now(live) == []
    with pytest.raises(InvalidAction):
        live.remove_note(note.seq)


def test_the_what_happened_line_is_kept_in_the_gain(live: LiveCampaign) -> None:
    event = live.gain("artinar", "demon", {"pow": 16}, happened="  Arioch's herald  ")
    assert isinstance(event.data, ev.Gain) and event.data.happened == "Arioch's herald"
    [a, b] = live.gain_all(["artinar", "bors"], "elemental", happened="a salamander")
    assert {a.data.happened, b.data.happened} == {"a salamander"}  # type: ignore[union-attr]
    plain = live.gain("bors", "elemental")
    assert b'"happened"' not in plain.to_json()  # left out when empty, as older journals


def test_an_old_gain_line_decodes_unchanged() -> None:
    line = (
        b'{"seq":3,"action":3,"at":"2024-05-01T20:00:00.000+00:00","game":0,"kind":"gain",'
        b'"character":"artinar","data":{"preset":"elemental","inputs":{},"roll":null,"base":2,'
        b'"adjustment":0,"amount":2,"first_time":null,"day":0,"changes":{"madness":[0,2]}}}'
    )
    event = ev.Event.from_json(line)
    assert isinstance(event.data, ev.Gain) and event.data.happened == ""
    assert event.to_json() == line  # byte for byte


def _story_session(live: LiveCampaign) -> None:
    """An evening told in notes and what-happened lines, with GM-only words among them."""
    live.note("The party reaches Tanelorn at dusk", shared=True)
    live.gain("artinar", "friend_dies", roll=dice.typed("1d6", 4), happened="Rackhir falls")
    live.note("Rackhir's killer is Bors's brother", "bors")  # the GM's alone
    live.gain("artinar", "demon", {"pow": 16}, happened="the herald of Arioch")
    secret = live.note("The herald knows Artinar's true name", shared=True)
    live.edit_note(secret.seq, "The herald knows Artinar's true name", shared=False)  # unshared
    dawn = live.note("Dawn: the gates open")
    live.edit_note(dawn.seq, "At dawn the gates open for them", shared=True)
    live.close()


def test_the_recaps_read_as_a_story(live: LiveCampaign) -> None:
    _story_session(live)
    (log,) = load_sessions(live.folder)
    gm = [line.text for line in recap_lines(log.header.state, log.events, "en") if not line.void]
    told = [
        "The party reaches Tanelorn at dusk",
        "Rackhir falls",
        "Rackhir's killer is Bors's brother",
        "the herald of Arioch",
        "The herald knows Artinar's true name",
        "Dawn: the gates open",
        "At dawn the gates open for them",
    ]
    where = [next(n for n, text in enumerate(gm) if words in text) for words in told]
    assert where == sorted(where), gm  # in the order they happened
    assert any("Rackhir falls" in text and "+4, madness" in text for text in gm)
    # the players': the shared notes as last written, in order; no GM-only words
    final = recap_markdown("Tanelorn", log, players=True)
    shared = ["The party reaches Tanelorn at dusk", "At dawn the gates open for them"]
    assert [final.index(words) for words in shared] == sorted(final.index(w) for w in shared)
    for secret in (
        "Bors's brother",
        "Rackhir falls",
        "herald",
        "Dawn: the gates open",
    ):
        assert secret not in final, secret
    # the GM's Markdown recap has every line, the what-happened ones beside their gain
    gm_text = recap_markdown("Tanelorn", log, lang="es")
    assert "«Rackhir falls»" in gm_text and "Rackhir's killer is Bors's brother" in gm_text


def test_the_player_view_shows_each_note_as_the_gm_left_it(live: LiveCampaign) -> None:
    shared = live.note("The bells ring", shared=True)
    hidden = live.note("Nobody hears the bells", "bors", shared=True)
    live.edit_note(shared.seq, "The bells ring thrice", shared=True)
    live.remove_note(hidden.seq)
    events = [e.event for e in live.events]
    view = player_safe(live.state, "en", events)
    assert [n.text for n in view.notes] == ["The bells ring thrice"]
    live.undo()  # the removal: the note on Bors is shared again
    view = player_safe(live.state, "en", [e.event for e in live.events])
    assert [(n.about, n.text) for n in view.notes] == [
        ("", "The bells ring thrice"),
        ("Bors", "Nobody hears the bells"),
    ]


# What a GM may do to notes, in any order: the fold says what a plain model of it says.
Step = tuple[str, int, str, bool]
STEPS = st.lists(
    st.tuples(
        st.sampled_from(["write", "edit", "remove", "undo"]),
        st.integers(0, 4),
        st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=12).filter(
            str.strip
        ),
        st.booleans(),
    ),
    max_size=12,
)


@settings(max_examples=40, deadline=None)
@given(steps=STEPS)
def test_settled_notes_follow_every_write_edit_removal_and_undo(
    tmp_path_factory: pytest.TempPathFactory, steps: list[Step]
) -> None:
    folder = create_campaign(tmp_path_factory.mktemp("notes"), "Tanelorn")
    with _open(folder) as live:
        history: list[dict[int, tuple[str, bool]]] = [{}]  # the model after each action
        for what, pick, text, shared in steps:
            model = dict(history[-1])
            seqs = sorted(model)
            try:
                # a line break typed or pasted as \r\n or \r is kept as one \n
                kept = text.replace("\r\n", "\n").replace("\r", "\n")
                if what == "write":
                    model[live.note(text, shared=shared).seq] = (kept, shared)
                elif what == "edit" and seqs:
                    seq = seqs[pick % len(seqs)]
                    if live.edit_note(seq, text, shared) is None:
                        continue  # nothing changed: nothing journaled
                    model[seq] = (kept, shared)
                elif what == "remove" and seqs:
                    live.remove_note(seqs[pick % len(seqs)])
                    del model[seqs[pick % len(seqs)]]
                elif what == "undo" and len(history) > 1 and live.undo() is not None:
                    history.pop()
                    continue
                else:
                    continue
            except InvalidAction:
                continue
            history.append(model)
        now = settled(e.event for e in live.events)
        assert {seq: (n.text, n.shared) for seq, n in now.items()} == history[-1]
        players = player_safe(live.state, "en", [e.event for e in live.events])
        assert [n.text for n in players.notes] == [t for t, s in history[-1].values() if s]


@settings(max_examples=30, deadline=None)
@given(text=names)
def test_hostile_words_in_notes_and_what_happened_lines_stay_inert(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    from gmscreen.campaign.gm_lines import GM_LINES
    from gmscreen.campaign.gm_words import Teller
    from gmscreen.tui.widgets.roll_log import content

    folder = create_campaign(tmp_path_factory.mktemp("hostile"), "Tanelorn")
    with _open(folder) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47)
        live.gain("artinar", "elemental", happened=text)
        note = live.note(text, "artinar", shared=True)
        live.edit_note(note.seq, text + "!", shared=True)
        live.remove_note(note.seq)
    (log,) = load_sessions(folder)
    shown = "\n".join(
        content(line).plain for line in Teller({}, "en", says=GM_LINES).tell(log.events)
    )
    for output in (shown, recap_markdown("Tanelorn", log), recap_markdown("T", log, True)):
        assert forbidden_in(output) == [], output
    assert shown_as_typed(text.strip(), shown)  # each visible run as typed, markup and all
