"""A game folder of one's own: `pbem init`, the systemd units, template overrides (precedence, broken ones)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import make_config, make_mail, outbox_messages

from pbem import render
from pbem.cli import main
from pbem.engine import Engine
from pbem.folder import FolderError, init_folder, template_copy
from pbem.store import Store

T0 = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)


def test_init_makes_a_folder_where_every_command_works(tmp_path):
    folder = tmp_path / "partie"
    made = init_folder(folder, pbem_command="/opt/pbem/bin/pbem")
    names = {p.relative_to(folder).as_posix() for p in made.files}
    assert {"config.toml", "LISEZMOI.md", "data/1626/personnages.toml", "systemd/pbem.service",
            "systemd/pbem-tick.service", "systemd/pbem-tick.timer"} <= names
    assert (folder / "templates").is_dir() and not any((folder / "templates").iterdir())
    readme = (folder / "LISEZMOI.md").read_text(encoding="utf-8")
    assert "pbem templates copy" in readme and "/opt/pbem/bin/pbem doctor" in readme
    runner = CliRunner()
    result = runner.invoke(main, ["--config", str(folder / "config.toml"), "doctor"])
    assert result.exit_code == 0, result.output
    assert "[ok] templates" in result.output and "FAIL" not in result.output
    with pytest.raises(FolderError, match="never overwrites"):
        init_folder(folder)


def test_init_refuses_an_existing_game_folder_in_one_line(tmp_path):
    init_folder(tmp_path / "g", pbem_command="pbem")
    result = CliRunner().invoke(main, ["init", str(tmp_path / "g")])
    assert result.exit_code == 1
    assert result.output.startswith("Erreur\u00a0: ") and result.output.count("\n") == 1  # (French: no config read)
    assert "Traceback" not in result.output


def _analyze(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    analyze = shutil.which("systemd-analyze")
    assert analyze, "systemd-analyze (Debian package systemd) is needed to check the units"
    return subprocess.run([analyze, *args], capture_output=True, text=True, env=env)


def test_system_units_are_hardened_and_systemd_accepts_them(tmp_path):
    """A venv in /opt, a folder in /srv (here: outside any home): a system service run by its own user."""
    folder = tmp_path / "jeu"
    pbem = str(Path(sys.executable).parent / "pbem")  # systemd checks that the command exists
    init_folder(folder, pbem_command=pbem, user="pbem")
    service = (folder / "systemd" / "pbem.service").read_text()
    for line in ("User=pbem", "NoNewPrivileges=yes", "ProtectSystem=strict", f"ReadWritePaths={folder}",
                 "ProtectHome=read-only", "Restart=on-failure", f"WorkingDirectory={folder}", f"ExecStart={pbem} run",
                 "WantedBy=multi-user.target", "sudo systemctl enable --now pbem", f"sudo -u pbem {pbem}"):
        assert line in service
    assert f"ExecStart={pbem} tick" in (folder / "systemd" / "pbem-tick.service").read_text()
    assert "OnCalendar=*:0/5" in (folder / "systemd" / "pbem-tick.timer").read_text()
    units = [str(folder / "systemd" / n) for n in ("pbem.service", "pbem-tick.service", "pbem-tick.timer")]
    done = _analyze("verify", *units)
    assert done.returncode == 0 and "Unknown" not in done.stderr, done.stderr
    # the check does catch a mistake
    bad = tmp_path / "bad.service"
    bad.write_text(service.replace("NoNewPrivileges", "NoNewPrivilegez"))
    assert "Unknown key" in _analyze("verify", str(bad)).stderr


def test_user_units_for_pipx_run_as_the_mj_and_his_systemd_accepts_them(tmp_path):
    """pipx as the MJ (~/.local/bin/pbem): a user unit, no User=, nothing a user manager cannot do."""
    folder = tmp_path / "jeu"
    pbem = str(Path(sys.executable).parent / "pbem")
    init_folder(folder, pbem_command=pbem, kind="user")
    service = (folder / "systemd" / "pbem.service").read_text()
    for line in ("NoNewPrivileges=yes", "UMask=0077", f"WorkingDirectory={folder}", f"ExecStart={pbem} run",
                 "WantedBy=default.target", "systemctl --user enable --now pbem", "loginctl enable-linger",
                 "cp " + str(folder) + "/systemd/pbem.service ~/.config/systemd/user/"):
        assert line in service, line
    for absent in ("User=", "Group=", "ProtectSystem", "ProtectHome", "PrivateTmp", "sudo "):
        assert absent not in service, absent
    timer = (folder / "systemd" / "pbem-tick.timer").read_text()
    assert "systemctl --user enable --now pbem-tick.timer" in timer and "WantedBy=timers.target" in timer
    readme = (folder / "LISEZMOI.md").read_text(encoding="utf-8")
    assert "systemctl --user enable --now pbem" in readme and "loginctl enable-linger" in readme
    runtime = tmp_path / "xdg"
    runtime.mkdir(mode=0o700)  # (a user manager of one's own, for the check: no login session here)
    env = {**os.environ, "XDG_RUNTIME_DIR": str(runtime)}
    units = [str(folder / "systemd" / n) for n in ("pbem.service", "pbem-tick.service", "pbem-tick.timer")]
    done = _analyze("--user", "verify", *units, env=env)
    assert done.returncode == 0 and "Unknown" not in done.stderr, done.stderr
    bad = tmp_path / "bad.service"
    bad.write_text(service.replace("UMask", "UMasq"))
    assert "Unknown key" in _analyze("--user", "verify", str(bad), env=env).stderr


def test_the_unit_kind_follows_where_pbem_and_the_folder_are():
    from pbem.units import unit_kind

    assert unit_kind(Path("/home/mj/pourmabelle"), "/home/mj/.local/share/pipx/venvs/pbem/bin/pbem") == "user"
    assert unit_kind(Path("/srv/pbem"), "/home/mj/.local/bin/pbem") == "user"  # pipx as the MJ, folder elsewhere
    assert unit_kind(Path("/home/mj/jeu"), "/opt/pbem/bin/pbem") == "user"  # a venv in /opt, a folder at home
    assert unit_kind(Path("/srv/pbem"), "/opt/pbem/bin/pbem") == "system"  # a dedicated user can reach both
    assert unit_kind(Path("/srv/pbem"), "/usr/bin/python3 -m pbem") == "system"


def test_the_cron_line_has_the_real_paths(tmp_path):
    folder = tmp_path / "mon jeu"
    init_folder(folder, pbem_command="/home/mj/.local/bin/pbem")
    line = f"*/5 * * * * cd '{folder}' && /home/mj/.local/bin/pbem tick >> data/pbem.log 2>&1"
    assert line in (folder / "LISEZMOI.md").read_text(encoding="utf-8")


def _engine_in(folder: Path) -> Engine:
    cfg = make_config(folder, top={"templates_dir": str(folder / "templates")})
    return Engine(cfg, Store(cfg.database))


def _ack_body(eng: Engine, key: str, text: str = "AIDE") -> str:
    if not any(p.address == "p0@pbem.test" for p in eng.store.players("toy1")):
        eng.add_player("toy1", "Alice", "p0@pbem.test", T0)  # a stranger would get the « how to join » answer
    # (each its own subject: the same mail again minutes later would be a copy, read once)
    mail = make_mail("p0@pbem.test", text, subject=f"[TOY] ordres {key}", message_id=f"<{key}@x>")
    eng.store.store_raw([(key, mail)], T0)
    eng.process_pending(T0)
    acks = [m for m in outbox_messages(eng.store, kind="ack") if m["In-Reply-To"] == f"<{key}@x>"]
    return acks[0].get_content().replace("\r\n", "\n")


def test_an_override_replaces_one_template_and_the_rest_stay_packaged(tmp_path):
    (tmp_path / "templates").mkdir()
    eng = _engine_in(tmp_path)
    eng.new_game("toy1", T0)
    packaged = _ack_body(eng, "m1")
    target = template_copy("common/ack.fr.j2", tmp_path / "templates")
    target.write_text("{% set subject = 'Reçu' %}Bien reçu, {{ player or 'inconnu' }} : "
                      "{{ verdicts|length }} ligne.\n", encoding="utf-8")
    render.refresh_templates()
    # a French override gets its non-breaking space before « : » at load, as the packaged templates do
    assert _ack_body(_engine_in(tmp_path), "m2") == "Bien reçu, Alice\u00a0: 1 ligne.\n"
    assert packaged != "Bien reçu, Alice\u00a0: 1 ligne.\n"
    # another template (the help text inside) still comes from the package
    assert "INSCRIPTION" in packaged


def test_a_broken_override_keeps_the_last_good_version_and_doctor_names_file_and_line(tmp_path, caplog):
    (tmp_path / "templates" / "common").mkdir(parents=True)
    page = tmp_path / "templates" / "common" / "ack.fr.j2"
    page.write_text("{% set subject = 'Reçu' %}Version 1\n", encoding="utf-8")
    eng = _engine_in(tmp_path)
    eng.new_game("toy1", T0)
    assert _ack_body(eng, "m1") == "Version 1\n"
    page.write_text("{% set subject = 'Reçu' %}\nVersion 2 {% if %}\n", encoding="utf-8")
    os.utime(page, (page.stat().st_atime + 5, page.stat().st_mtime + 5))
    render.refresh_templates()
    with caplog.at_level("ERROR", logger="pbem"):
        assert _ack_body(eng, "m2") == "Version 1\n"  # the mail is answered with the last good version
    assert f"gabarit remplacé {page}:2: Expected an expression, got 'end of statement block' (en attendant, pbem " \
           "prend sa dernière bonne version)" in [r.getMessage() for r in caplog.records]  # (the MJ's language)
    problems = render.override_problems(tmp_path / "templates")
    assert problems == [f"{page}:2: Expected an expression, got 'end of statement block'"]


def test_an_override_broken_from_the_start_falls_back_to_the_packaged_template(tmp_path):
    (tmp_path / "templates" / "common").mkdir(parents=True)
    (tmp_path / "templates" / "common" / "ack.fr.j2").write_text("{% for %}\n", encoding="utf-8")
    eng = _engine_in(tmp_path)
    eng.new_game("toy1", T0)
    body = _ack_body(eng, "m1")
    assert "AIDE" in body  # the packaged ack, which echoes the line


def test_an_override_added_while_running_counts_from_the_next_pass(tmp_path):
    (tmp_path / "templates").mkdir()
    eng = _engine_in(tmp_path)
    eng.new_game("toy1", T0)
    assert "AIDE" in _ack_body(eng, "m1")
    (tmp_path / "templates" / "common").mkdir()
    (tmp_path / "templates" / "common" / "ack.fr.j2").write_text("{% set subject = 'R' %}Nouveau\n")
    render.refresh_templates()
    assert _ack_body(eng, "m2") == "Nouveau\n"


def test_doctor_flags_an_override_pbem_does_not_have(tmp_path):
    (tmp_path / "templates" / "common").mkdir(parents=True)
    (tmp_path / "templates" / "common" / "akc.fr.j2").write_text("ok\n")
    assert render.override_problems(tmp_path / "templates") == [
        f"{tmp_path / 'templates' / 'common' / 'akc.fr.j2'}: pbem has no template common/akc.fr.j2 "
        "(pbem templates list shows them)"]


def test_templates_commands_list_and_copy(tmp_path):
    folder = tmp_path / "g"
    init_folder(folder, pbem_command="pbem")
    runner = CliRunner()
    cfg = ["--config", str(folder / "config.toml")]
    listed = runner.invoke(main, [*cfg, "templates", "list"])
    assert listed.exit_code == 0 and "  common/ack.fr.j2" in listed.output
    copied = runner.invoke(main, [*cfg, "templates", "copy", "common/ack.fr.j2"])
    assert copied.exit_code == 0 and (folder / "templates" / "common" / "ack.fr.j2").is_file()
    assert "* common/ack.fr.j2" in runner.invoke(main, [*cfg, "templates", "list"]).output
    again = runner.invoke(main, [*cfg, "templates", "copy", "common/ack.fr.j2"])
    assert again.exit_code == 1 and "--force" in again.output
    typo = runner.invoke(main, [*cfg, "templates", "copy", "ack.fr"])
    assert typo.exit_code == 1 and "vouliez-vous dire common/ack.fr.j2" in typo.output
    escape = runner.invoke(main, [*cfg, "templates", "copy", "../config.toml"])
    assert escape.exit_code == 1 and "pas de gabarit" in escape.output


def test_a_card_file_named_relative_to_config_toml_is_found_wherever_pbem_runs(tmp_path, monkeypatch):
    """Courtisans' ``deck`` and Pour le Roi's ``cards`` name a file in the game folder, like ``roster``:
    a cron job runs from $HOME, not from the folder, and must load the same deck."""
    from pbem import config as configmod
    from pbem import games
    from pbem.core import Seat
    from pbem.dice import Dice
    from pbem.games.courtisans.cards import DEFAULT_DECK
    from pbem.games.pourleroi.cards import default_path, load

    folder = tmp_path / "cour"
    (folder / "data").mkdir(parents=True)
    (folder / "data" / "mon-jeu.toml").write_text(
        DEFAULT_DECK.read_text("utf-8").replace('nom = "Baron"', 'nom = "Chevalier"', 1), encoding="utf-8")
    (folder / "data" / "cartes-roi.toml").write_text(default_path().read_text("utf-8"), encoding="utf-8")
    (folder / "config.toml").write_text(
        '[pbem]\naddress = "jeu@pbem.test"\n[mailbox]\nkind = "maildir"\n[outbox]\nkind = "maildir"\n'
        '[games.cour1]\nruleset = "courtisans"\noptions = { deck = "data/mon-jeu.toml" }\n'
        '[games.roi1]\nruleset = "pourleroi"\noptions = { cards = "data/cartes-roi.toml" }\n', encoding="utf-8")
    elsewhere = tmp_path / "home"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    cfg = configmod.load(folder / "config.toml")
    assert cfg.games["cour1"].options["deck"] == str(folder / "data" / "mon-jeu.toml")
    assert cfg.games["roi1"].options["cards"] == str(folder / "data" / "cartes-roi.toml")
    state, _ = games.get("courtisans").setup([Seat(n) for n in ("Monsieur Ab", "Madame Cd", "Monsieur Ef")],
                                             cfg.games["cour1"].options, Dice("00" * 32, "s"))
    assert state.cards[1].name == "Chevalier"
    assert load(cfg.games["roi1"].options["cards"]).source == "cartes-roi.toml"  # (the file name, not cwd-relative)


REMINDER = "{% set subject = 'Rappel de la Belle' %}Bonjour {{ player }}, la Belle attend vos ordres.\n"


def _reminder(eng: Engine, game_id: str) -> str:
    r = eng.table(game_id).renderer
    return r.mail_text("reminder", tag="[X]", player="Arya", deadline=T0, grace_until=None, title="Tour 1",
                       hours=24, salutation=None).body


def test_a_game_s_own_override_changes_that_game_alone(tmp_path):
    """templates/pmb1/common/reminder.fr.j2 changes Pour Ma Belle's reminder, never Intrigue's beside it."""
    (tmp_path / "templates").mkdir()
    cfg = make_config(tmp_path, ruleset="pmb", game_id="pmb1", tag="PMB",
                      top={"templates_dir": str(tmp_path / "templates")},
                      more_games={"intr1": {"ruleset": "intrigue", "tag": "INT", "mj": "mj@pbem.test"}})
    eng = Engine(cfg, Store(cfg.database))
    packaged = {g: _reminder(eng, g) for g in ("pmb1", "intr1")}
    target = template_copy("common/reminder.fr.j2", tmp_path / "templates", game_id="pmb1")
    assert target == tmp_path / "templates" / "pmb1" / "common" / "reminder.fr.j2"
    target.write_text(REMINDER, encoding="utf-8")
    render.refresh_templates()
    eng = Engine(cfg, Store(cfg.database))
    assert _reminder(eng, "pmb1") == "Bonjour Arya, la Belle attend vos ordres.\n"
    assert _reminder(eng, "intr1") == packaged["intr1"]
    assert "Nous n'avons pas encore reçu vos ordres" in packaged["intr1"]
    # the folder's own override reaches both games, the game's own still wins for pmb1
    folder_wide = tmp_path / "templates" / "common" / "reminder.fr.j2"
    folder_wide.parent.mkdir(parents=True)
    folder_wide.write_text("{% set subject = 'Rappel' %}Rappel pour tous.\n", encoding="utf-8")
    render.refresh_templates()
    eng = Engine(cfg, Store(cfg.database))
    assert _reminder(eng, "intr1") == "Rappel pour tous.\n"
    assert _reminder(eng, "pmb1") == "Bonjour Arya, la Belle attend vos ordres.\n"
    # doctor knows a game's folder is no typo; a folder of a game that does not exist is one
    assert render.override_problems(tmp_path / "templates", ("pmb1", "intr1")) == []
    stray = tmp_path / "templates" / "pmb9" / "common" / "reminder.fr.j2"
    stray.parent.mkdir(parents=True)
    stray.write_text("x\n", encoding="utf-8")
    assert render.override_problems(tmp_path / "templates", ("pmb1", "intr1")) == [
        f"{stray}: pbem has no template pmb9/common/reminder.fr.j2 (pbem templates list shows them)"]


def test_templates_copy_and_list_for_one_game(tmp_path):
    folder = tmp_path / "g"
    init_folder(folder, pbem_command="pbem")
    with open(folder / "config.toml", "a", encoding="utf-8") as f:
        f.write('\n[games.pmb1]\nruleset = "pmb"\nmj = "mj@example.org"\n')
    runner = CliRunner()
    cfg = ["--config", str(folder / "config.toml")]
    copied = runner.invoke(main, [*cfg, "templates", "copy", "common/reminder.fr.j2", "--game", "pmb1"])
    assert copied.exit_code == 0, copied.output
    assert (folder / "templates" / "pmb1" / "common" / "reminder.fr.j2").is_file()
    assert not (folder / "templates" / "common" / "reminder.fr.j2").exists()
    assert "* common/reminder.fr.j2" in runner.invoke(main, [*cfg, "templates", "list", "--game", "pmb1"]).output
    assert "  common/reminder.fr.j2" in runner.invoke(main, [*cfg, "templates", "list"]).output
    unknown = runner.invoke(main, [*cfg, "templates", "copy", "common/reminder.fr.j2", "--game", "pmb2"])
    assert unknown.exit_code == 1 and "pmb2" in unknown.output and "pmb1" in unknown.output
    assert "[ok] templates" in runner.invoke(main, [*cfg, "doctor"]).output


def test_doctor_says_when_the_unit_s_user_cannot_reach_the_folder_or_pbem(tmp_path):
    """Debian's private homes: a dedicated user reaches neither a pipx pbem nor a folder in a 0700 home.
    (The permission bits are read, not tried: the same whoever runs the test.)"""
    import tempfile

    from pbem.units import Account, Unit, reach_problem, unit_problems

    base = Path(tempfile.mkdtemp(prefix="pbem-units-"))  # (pytest's tmp_path is in a 0700 folder of its own)
    try:
        base.chmod(0o755)
        home = base / "home-mj"
        (home / "jeu" / "data").mkdir(parents=True)
        bin_dir = home / "venv" / "bin"
        bin_dir.mkdir(parents=True)
        python = bin_dir / "python"
        python.write_text("")
        python.chmod(0o755)
        program = bin_dir / "pbem"
        program.write_text(f"#!{python}\nimport pbem\n")
        program.chmod(0o755)
        os.chmod(home, 0o755)
        other = Account("pbem", 54321, frozenset({54321}))
        assert reach_problem(home / "jeu", other, 5) is None
        assert reach_problem(program, other, 5) is None
        assert reach_problem(home / "jeu", other, 7) == str(home / "jeu")  # not his: he may not write there
        os.chmod(home, 0o700)
        assert reach_problem(home / "jeu", other, 5) == str(home)
        assert reach_problem(program, other, 5) == str(home)
        os.chmod(home, 0o755)
        python.chmod(0o700)  # pbem's own script is fine, the Python its #! names is not
        assert reach_problem(python, other, 5) == str(python)
        nobody = Unit(tmp_path / "x.service", "nobody", None, program, protect_home=False)  # (Debian has nobody)
        assert unit_problems(nobody, "fr") == [f"nobody ne peut pas lancer {python} (bloqué à {python})"]
        assert unit_problems(Unit(tmp_path / "x.service", "root", home / "jeu", program, False), "fr") == []
    finally:
        shutil.rmtree(base)
    missing = Unit(tmp_path / "x.service", "pbem-no-such-user", None, None, protect_home=False)
    assert unit_problems(missing, "fr") == [
        "l'utilisateur pbem-no-such-user n'existe pas (sudo useradd --system pbem-no-such-user)"]
    hidden = Unit(tmp_path / "x.service", "root", Path("/home/mj/jeu"), None, protect_home=True)
    assert any("ProtectHome=read-only cache /home/mj/jeu" in p and "--kind user" in p
               for p in unit_problems(hidden, "fr"))


def test_doctor_shows_a_unit_that_cannot_work_as_a_warning_until_it_is_installed(tmp_path):
    folder = tmp_path / "jeu"
    init_folder(folder, pbem_command=str(Path(sys.executable).parent / "pbem"), user="pbem-no-such-user",
                kind="system")
    result = CliRunner().invoke(main, ["--config", str(folder / "config.toml"), "doctor"])
    assert result.exit_code == 0, result.output  # a warning, not a failure: nothing is installed yet
    assert ("[attention] systemd\u00a0: pbem.service ne marchera pas tel quel\u00a0: l'utilisateur "
            "pbem-no-such-user n'existe pas (sudo useradd --system pbem-no-such-user)") in result.output
    assert "[ok] systemd" not in result.output
    # a user unit, run as whoever runs doctor: it can
    rewritten = CliRunner().invoke(main, ["--config", str(folder / "config.toml"), "systemd", "--kind", "user"])
    assert rewritten.exit_code == 0 and "crontab -e" in rewritten.output, rewritten.output
    result = CliRunner().invoke(main, ["--config", str(folder / "config.toml"), "doctor"])
    assert "[ok] systemd\u00a0: pbem.service\u00a0: vous pouvez lire le dossier et lancer pbem" in result.output
    assert "[attention] systemd" not in result.output


def test_an_override_of_the_stranger_note_is_what_a_stranger_gets(tmp_path):
    (tmp_path / "templates").mkdir()
    eng = _engine_in(tmp_path)
    eng.new_game("toy1", T0)
    target = template_copy("common/stranger.fr.j2", tmp_path / "templates")
    target.write_text("{% set subject = 'Bienvenue' %}Écrivez au MJ du forum pour jouer.\n", encoding="utf-8")
    render.refresh_templates()
    eng = _engine_in(tmp_path)
    # untagged, from an address that plays in no game: the « how to join » note, from the folder's override
    mail = make_mail("nobody@pbem.test", "bonjour, on joue ?", subject="salut", message_id="<s1@x>")
    eng.store.store_raw([("s1", mail)], T0)
    eng.process_pending(T0)
    notes = [m for m in outbox_messages(eng.store, kind="stranger") if m["In-Reply-To"] == "<s1@x>"]
    assert [m.get_content().replace("\r\n", "\n") for m in notes] == ["Écrivez au MJ du forum pour jouer.\n"]
