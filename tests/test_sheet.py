"""`pbem export GAME --csv`: the MJ's spreadsheet, one row per player and resolved step."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime

from click.testing import CliRunner
from helpers import make_mail, toy_config_toml
from test_nmr import _pmb, deadline_of

from pbem.cli import main
from pbem.sheet import HEADERS, cell, csv_text

T0 = datetime(2026, 12, 1, 19, 0, tzinfo=UTC)


def test_a_would_be_formula_opens_as_text():
    assert cell("=HYPERLINK(\"http://x\")") == "'=HYPERLINK(\"http://x\")"
    assert [cell(v) for v in ("+1", "-2", "@SUM(A1)", "Arya", None, 3)] == ["'+1", "'-2", "'@SUM(A1)", "Arya", "", "3"]


def test_pmb_rows_give_each_player_s_role_orders_and_silences_per_step(tmp_path):
    from test_ack_corpus import ROSTER

    e = _pmb(tmp_path)
    e.start_game("g", T0)
    first = ROSTER[0][0]
    asked = [{p.player for p in e.ruleset("g").prompts(e.state(e.game("g")))}]
    assert first in asked[0]
    e.store.store_raw([("m1", make_mail("p0@pbem.test", "PASSER", message_id="<m1@x>"))], T0)
    e.process_pending(T0)
    e.due(deadline_of(e))  # step 1: the first player passed, the others silent
    asked.append({p.player for p in e.ruleset("g").prompts(e.state(e.game("g")))})
    e.due(deadline_of(e))  # step 2: everyone silent
    text = csv_text(e.table("g"), "fr")
    assert text.endswith("\r\n")
    table = list(csv.reader(io.StringIO(text)))
    assert table[0] == HEADERS["fr"]
    rows = table[1:]
    names = [r[0] for r in ROSTER]
    assert [r[3] for r in rows if r[0] == "1"] == names  # every player, in the table's order
    by = {(r[0], r[3]): r for r in rows}
    state = e.state(e.game("g"))
    for name, role, _loc, _sergent in ROSTER:
        assert by[("1", name)][4] == str(e.ruleset("g").view(state, name)["role"]) != ""
        if role is not None:  # (the roster fixed this one)
            assert by[("1", name)][4] == role
    assert by[("1", first)][6] == "PASSER" and by[("1", first)][7] == "0"
    silences = {n: 0 for n in names}
    for step in (1, 2):
        for name in names:
            if name == first and step == 1:
                continue
            row = by[(str(step), name)]
            if name in asked[step - 1]:  # asked and silent: the rules' defaults, one more silence
                silences[name] += 1
                assert row[6] == "par défaut", (step, name, row)
            else:  # not asked this step: nothing said of its orders, its silences unchanged
                assert row[6] == "", (step, name, row)
            assert row[7] == str(silences[name]), (step, name, row)
    assert all(r[8] == "en jeu" for r in rows)
    assert {r[5] for r in rows} <= {"oui", "non"}


def test_the_cli_says_the_file_is_for_the_mj_alone_and_keeps_stdout_for_the_csv(tmp_path):
    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path), encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(main, ["--config", str(cfg), "game", "new", "toy1"]).exit_code == 0
    done = runner.invoke(main, ["--config", str(cfg), "export", "toy1", "--csv"])
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[0].startswith("étape,titre,")
    assert "pour le MJ seul, ne le partagez pas" in done.stderr and "étape" not in done.stderr
    neither = runner.invoke(main, ["--config", str(cfg), "export", "toy1"])
    assert neither.exit_code == 1 and "--json" in neither.output and "--csv" in neither.output
    assert neither.output.count("\n") == 1
    mixed = runner.invoke(main, ["--config", str(cfg), "export", "toy1", "--csv", "--public"])
    assert mixed.exit_code == 1 and "--public" in mixed.output
    help_text = runner.invoke(main, ["--config", str(cfg), "export", "--help"]).output
    assert "pour le MJ seul" in help_text.replace("\n", " ").replace("  ", " ")
