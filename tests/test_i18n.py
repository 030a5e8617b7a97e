"""Both catalogs say the same things; the language is chosen in one documented order; the recap,
``gmscreen export --lang`` and coded errors speak Spanish; the journal stays language-free."""

from __future__ import annotations

import json
import random
import re
import tomllib
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path

import pytest

from gmscreen.campaign.model import Settings
from gmscreen.campaign.opening import open_campaign
from gmscreen.campaign.paths import create_campaign
from gmscreen.campaign.recap_markdown import recap_markdown
from gmscreen.campaign.store import load_sessions
from gmscreen.cli import main
from gmscreen.data import data_path
from gmscreen.i18n import (
    LANGUAGES,
    Catalog,
    language_of,
    load_messages,
    placeholders,
    resolve_language,
    system_language,
)
from gmscreen.rules import dice
from gmscreen.rules.dice import DiceError
from gmscreen.rules.madness import MadnessError, gain_dice
from gmscreen.user_config import user_language

SRC = Path(__file__).parents[1] / "src" / "gmscreen"


def clock() -> datetime:
    return datetime(2025, 3, 1, 20, 0, tzinfo=UTC)


# --- the catalogs ------------------------------------------------------------------------------


def test_every_key_exists_in_both_languages_with_the_same_placeholders() -> None:
    english, spanish = load_messages("en"), load_messages("es")
    assert set(english) - set(spanish) == set(), "keys missing in messages.es.toml"
    assert set(spanish) - set(english) == set(), "keys missing in messages.en.toml"
    different = {
        key: (placeholders(english[key]), placeholders(spanish[key]))
        for key in english
        if placeholders(english[key]) != placeholders(spanish[key])
    }
    assert different == {}


def _whole_file(lang: str) -> dict[str, str]:
    """The catalog as the whole file parses: every dotted path to a text."""

    def flat(table: Mapping[str, object], prefix: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for key, value in table.items():
            if isinstance(value, Mapping):
                out.update(flat(value, f"{prefix}{key}."))
            else:
                assert isinstance(value, str)
                out[f"{prefix}{key}"] = value
        return out

    return flat(tomllib.loads(data_path(f"messages.{lang}.toml").read_text("utf-8")), "")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_catalog_is_the_whole_file(lang: str) -> None:
    """Every dotted path of the file is a key, with the file's text, and nothing else."""
    whole = _whole_file(lang)
    assert len(whole) > 500
    assert dict(load_messages(lang)) == whole
    assert Catalog(lang, strict=True).keys() == set(whole)


def test_spanish_uses_the_table_labels() -> None:
    t = Catalog("es", strict=True).t
    assert (t("stat.pow"), t("stat.app"), t("stat.madness")) == ("POD", "APA", "PL")
    assert [t(f"stat.{k}") for k in ("chaos", "balance", "law")] == ["Caos", "Balanza", "Ley"]
    assert t("unit.rounds", n=14) == "14 asaltos"
    assert [t(f"advance.word_{u}") for u in ("minutes", "hours", "days")] == [
        "minutos",
        "horas",
        "días",
    ]
    assert "P.H." in t("items.points", left=1, total=3, spent=2)
    assert t("outcome.fumble") == "PIFIA"


def test_the_catalog_switches_in_place() -> None:
    catalog = Catalog("en", strict=True)
    t = catalog.t
    assert t("stat.pow") == "POW"
    catalog.use("es")
    assert (t("stat.pow"), catalog.lang) == ("POD", "es")


# --- choosing the language ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("flag", "campaign", "user", "system", "expected"),
    [
        ("es", "en", "en", "en", "es"),  # --lang first
        (None, "es", "en", "en", "es"),  # then the campaign
        (None, "", "es", "en", "es"),  # then the user config (campaign unset)
        (None, "", None, "es", "es"),  # then the locale
        (None, "", None, None, "en"),  # then English
        (None, "en", "es", "es", "en"),  # an explicit English campaign stays English
        ("xx", "", None, "es_AR.UTF-8", "es"),  # unknown values are skipped
    ],
)
def test_resolution_order(
    flag: str | None, campaign: str, user: str | None, system: str | None, expected: str
) -> None:
    assert resolve_language(flag, campaign, user, system) == expected


def test_locale_and_config_values() -> None:
    assert [
        language_of(v) for v in ("es", "ES", "es_ES.UTF-8", "es-MX", "en_GB", "C", "", None)
    ] == [
        "es",
        "es",
        "es",
        "es",
        "en",
        None,
        None,
        None,
    ]
    assert system_language({"LC_ALL": "", "LANG": "es_ES.UTF-8"}) == "es"
    assert system_language({"LC_ALL": "C", "LANG": "es_ES.UTF-8"}) is None  # LC_ALL wins
    assert system_language({}) is None
    assert set(LANGUAGES) == {"en", "es"}


def test_user_config_language(tmp_path: Path) -> None:
    from gmscreen.tui.config import load_config

    path = tmp_path / "config.toml"
    path.write_text('language = "es"\n[keys]\ngain = "G"\n', encoding="utf-8")
    assert user_language(path) == "es"
    assert load_config(path).language == "es"
    path.write_text('language = "fr"\n', encoding="utf-8")
    assert user_language(path) is None
    assert load_config(path).problems == ("language:fr",)
    assert user_language(tmp_path / "missing.toml") is None


# --- errors with a code ----------------------------------------------------------------------------


def test_every_error_code_in_the_code_has_a_message() -> None:
    codes: set[str] = set()
    for path in [*SRC.joinpath("rules").glob("*.py"), *SRC.joinpath("campaign").glob("*.py")]:
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r'\bcode="([a-z_]+)"', text))
    assert len(codes) >= 15
    english = {k.removeprefix("error.") for k in load_messages("en") if k.startswith("error.")}
    assert codes - english == set()


def test_errors_carry_their_code_and_params() -> None:
    with pytest.raises(DiceError) as typed:
        dice.typed("d100", "0")
    assert (typed.value.code, typed.value.params) == ("typed_off_die", {"text": "0", "sides": 100})
    assert "is not on a d100" in str(typed.value)  # the English message is unchanged
    with pytest.raises(DiceError) as parsed:
        gain_dice("custom", {"amount": "3x"})
    assert parsed.value.code == "dice_expression"
    with pytest.raises(MadnessError) as ranged:
        from gmscreen.rules.madness import MadnessState, gain

        gain(MadnessState(pow=10), "demon", {"pow": 5000})
    assert ranged.value.code == "input_range"


def test_a_wrapped_error_keeps_its_code(tmp_path: Path) -> None:
    from gmscreen.campaign.errors import InvalidAction

    folder = create_campaign(tmp_path, "Pan Tang")
    with open_campaign(folder, rng=random.Random(1), clock=clock) as live:
        live.add_character("Vadhra", 16)
        with pytest.raises(InvalidAction) as wrapped:
            live.gain("vadhra", "demon", {"pow": 5000})
    assert wrapped.value.code == "input_range"
    assert wrapped.value.params["field"] == "pow"


# --- the recap and gmscreen export ---------------------------------------------------------------


@pytest.fixture
def session(tmp_path: Path) -> Path:
    folder = create_campaign(tmp_path, "Melniboné", Settings(modules=("madness",)))
    with open_campaign(folder, rng=random.Random(2), clock=clock) as live:
        live.add_character("Artinar", 13, chaos=43, balance=32, law=47)
        live.gain("artinar", "friend_dies", roll=dice.typed("1d6", 4))
        live.gain("artinar", "friend_dies", roll=dice.typed("1d6", 5))
        live.gain("artinar", "custom", {"amount": 2})
        live.gain("artinar", "demon", {"pow": 16})
        live.check_roll("artinar", dice.typed("d100", 53))
        live.check_kind("artinar", dice.typed("1d6", 4))
        live.end_day()
    return folder


def test_the_recap_in_spanish(session: Path) -> None:
    (log,) = load_sessions(session)
    text = recap_markdown("Melniboné", log, lang="es")
    assert text.startswith("# Resumen de Melniboné, sesión ")
    assert "durante 14 asaltos" in text
    assert "bajo Ley 47" in text and "fallo" in text
    assert "1d6: 4 (tecleada)" in text
    assert "PL 0 → 4" in text
    assert "Cómo está cada uno" in text
    players = recap_markdown("Melniboné", log, players=True, lang="es")
    assert "La historia hasta ahora" in players
    assert not re.search(r"\bPL\b|POD", players)
    english = recap_markdown("Melniboné", log)
    assert "for 14 rounds" in english and "asaltos" not in english


def test_the_journal_has_no_words_of_either_language(session: Path) -> None:
    (log,) = load_sessions(session)
    text = log.path.read_text(encoding="utf-8")
    # keys such as "rounds" or "phobia" are fine; labels in either language are not
    for word in ("asaltos", "Phobia", "Fobia", "Sees a friend", "Ve morir", "fallo", "madness 0"):
        assert word not in text


def test_export_lang_es(session: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(session), "--lang", "es"]) == 0
    assert "durante 14 asaltos" in capsys.readouterr().out
    assert main(["export", str(session), "--lang", "es", "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["lines"][0]["game_time"].startswith("día 1")
    assert main(["export", str(session)]) == 0  # no flag, no config, neutral locale: English
    assert "for 14 rounds" in capsys.readouterr().out


def test_export_follows_the_campaign_then_the_config_then_the_locale(
    session: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LC_ALL", "es_ES.UTF-8")
    assert main(["export", str(session)]) == 0
    assert "asaltos" in capsys.readouterr().out
    monkeypatch.setenv("LC_ALL", "C")
    (first,) = load_sessions(session)
    with open_campaign(session, rng=random.Random(3), clock=clock) as live:
        live.change_settings(language="es")
    assert main(["export", str(session), "--session", first.header.id]) == 0
    assert "asaltos" in capsys.readouterr().out
    assert main(["export", str(session), "--session", first.header.id, "--lang", "en"]) == 0
    assert "asaltos" not in capsys.readouterr().out
    assert main(["export", str(session), "--lang", "en"]) == 0  # the session that changed it
    assert "Settings changed: language automatic → Spanish" in capsys.readouterr().out


def test_new_campaign_with_a_language(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gmscreen.campaign.store import read_checkpoint

    assert main(["new", "Tanelorn", "--dir", str(tmp_path), "--lang", "es"]) == 0
    assert main(["new", "Imrryr", "--dir", str(tmp_path)]) == 0
    capsys.readouterr()
    assert read_checkpoint(tmp_path / "tanelorn")[0].settings.language == "es"
    assert read_checkpoint(tmp_path / "imrryr")[0].settings.language == ""
    assert "language" not in (tmp_path / "imrryr" / "campaign.toml").read_text(encoding="utf-8")


def test_replay_in_spanish(session: Path) -> None:
    import asyncio

    from textual.widgets import Static

    from gmscreen.tui.replay_app import make_replay_app

    async def run() -> None:
        (log,) = load_sessions(session)
        app = make_replay_app(session, log.header.id, lang="es", strict=True, animations=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            header = str(app.screen.query_one("#header", Static).render())
            assert "REPETICIÓN" in header and "paso 0 de" in header

    asyncio.run(run())
