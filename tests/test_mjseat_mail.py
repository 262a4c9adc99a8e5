"""The MJ's commands by mail, through the real engine (toy game): each command in several natural phrasings,
French and English, with what it did checked in the store and in the mails that went out; every MJ mail
gets an answer line by line; a mail nothing in which is understood gets the list of commands."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from helpers import MJ_ADDRESS
from mjseat_helpers import PLAYERS, T0, Table, example_views, hours, plain, to

from pbem.clock import iso, parse_iso
from pbem.engine.desk import mjmail, reader


@pytest.fixture
def table(tmp_path):
    t = Table(tmp_path)
    yield t
    t.close()


# --- extend the open step ---


@pytest.mark.parametrize("line", [
    "Prolonge le tour 1 de 24h", "prolonger de 24 heures", "Prolongation de 24 h", "Repousse la date limite d'un jour",
    "rallonge l'étape en cours de vingt-quatre heures", "extend by 24 hours", "Extend turn 1 by 1 day",
    "PROLONGE DE 1J",
])
def test_extend_by_a_duration_in_natural_phrasings(table, line):
    before = table.deadline()
    answer = table.mj(line)
    assert table.deadline() == before + timedelta(days=1)
    assert "OK : date limite de l'étape en cours (Étape 1) repoussée au mardi 4 février 2025 à 14 h" in answer
    assert "(elle était au lundi 3 février 2025 à 14 h) ; 3 joueurs prévenus" in answer
    notices = [s for _t, k, s, _b in table.new() if k == "notice"]
    assert notices.count("[TOY] nouvelle date limite") == 3


@pytest.mark.parametrize("line", [
    "Prolonge jusqu'au mercredi 5 février à 21 h", "prolonger jusqu'au 5/02 à 21h", "repousse au 5 février 21h",
    "Extend until Wednesday 5 February at 21:00", "prolongation jusqu'au 2025-02-05 21:00",
])
def test_extend_to_a_date(table, line):
    table.mj(line)
    assert table.deadline() == datetime(2025, 2, 5, 20, 0, tzinfo=UTC)


def test_extend_to_a_day_alone_keeps_the_deadline_hour_and_refuses_the_wrong_step_or_weekday(table):
    table.mj("Prolonge jusqu'au 6 février")
    assert table.deadline() == datetime(2025, 2, 6, 13, 0, tzinfo=UTC)  # 14 h in Paris, as the deadline was
    answer = table.mj("Prolonge le tour 4 de 24h")
    assert "REFUSÉ : l'étape 4 n'est pas l'étape en cours (c'est l'étape 1)" in answer
    answer = table.mj("Prolonge jusqu'au samedi 6 février")
    assert "le 6 février 2025 est un jeudi, pas un samedi" in answer
    answer = table.mj("Prolonge de beaucoup")
    assert "REFUSÉ : de combien, ou jusqu'à quand ? (« de 24h », « jusqu'au jeudi 13 février à 21 h ») ; syntaxe : " \
           "PROLONGE [tour n] de <durée> | jusqu'au <date>" in answer
    assert table.deadline() == datetime(2025, 2, 6, 13, 0, tzinfo=UTC)  # (nothing refused moved it)


def test_bringing_the_deadline_forward_is_said_and_told(table):
    answer = table.mj("Avance la date limite de 12 heures")
    assert table.deadline() == T0 + timedelta(days=2) - hours(12)
    assert "avancée au lundi 3 février 2025 à 2 h" in answer
    assert any("a avancé la date limite" in b for _t, _k, _s, b in table.new())


# --- who is missing ---


@pytest.mark.parametrize("line", ["Qui manque ?", "qui n'a pas joué ?", "Qui doit encore jouer", "manquants",
                                  "Who is missing?", "retardataires"])
def test_who_is_missing(table, line):
    table.mail(PLAYERS["Arya"], "GUESS 4")
    answer = table.mj(line)
    assert "Étape 1 : 1 joueur sur 3 a donné ses ordres" in answer
    assert "On attend encore : Bran et ser Schlingue." in answer


# --- orders for a player, and the player told ---


def test_POUR_is_tagged_and_the_player_is_told(table):
    answer = table.mj("POUR Bran : GUESS 3\nPOUR Bran : GUESS 3")
    assert "[→ Bran] POUR Bran : GUESS 3\n    -> OK : ordre enregistré pour Bran" in answer
    told = to(table.new(), PLAYERS["Bran"], "notice")
    assert len(told) == 1 and told[0][0] == "[TOY] le MJ a donné vos ordres pour l'étape 1"
    assert "  GUESS 3" in told[0][1]


def test_orders_set_by_the_cli_tell_the_player(table):
    table.engine.set_orders_mj("toy1", "Arya", ["GUESS 9"], T0)
    told = to(table.new(), PLAYERS["Arya"], "notice")
    assert told and "GUESS 9" in told[0][1]


# --- resend a result or a forum post ---


def _resolve_step_one(table):
    table.mail(PLAYERS["Arya"], "GUESS 4")
    table.due(T0 + timedelta(days=2))
    table.new()


@pytest.mark.parametrize("line", ["Renvoie les résultats d'Arya du tour 1", "renvoyer le résultat du tour 1 d'Arya",
                                  "Resend Arya's results of turn 1", "renvoi des résultats d'Arya, tour 1, à moi"])
def test_resend_a_private_result_to_the_MJ(table, line):
    _resolve_step_one(table)
    answer = table.mj(line)
    assert "OK : le texte suit, plus bas" in answer
    report = table.engine.report_text("toy1", "Arya", 1)
    assert report is not None and "=== Étape 1 ===\n\n" + plain(report).split("\n\n", 1)[1] in answer
    assert not to(table.new(), PLAYERS["Arya"])


@pytest.mark.parametrize("line", ["Renvoie à Arya ses résultats du tour 1", "renvoie les résultats du tour 1 à Arya",
                                  "resend turn 1 results of Arya to Arya"])
def test_resend_a_private_result_to_the_player(table, line):
    _resolve_step_one(table)
    answer = table.mj_confirmed(line)
    assert "Étape 1 : nouvel envoi à Arya (p0@pbem.test)" in answer
    sent = to(table.new(), PLAYERS["Arya"], "notice")
    assert len(sent) == 1 and sent[0][0] == "[TOY] Étape 1 — vos résultats (nouvel envoi)"
    report = table.engine.report_text("toy1", "Arya", 1)
    assert report is not None and plain(report).split("\n\n", 1)[1] in sent[0][1]


@pytest.mark.parametrize("line", ["Renvoie le compte rendu du tour 1", "renvoie le forum du tour 1",
                                  "resend the forum post of turn 1"])
def test_resend_the_forum_post(table, line):
    _resolve_step_one(table)
    answer = table.mj(line)
    assert "[b]Étape 1[/b]" in answer


# --- corrections and re-runs ---


@pytest.mark.parametrize("correct,rerun", [
    ("Corrige le tour 1 pour ser Schlingue : GUESS 9", "Recalcule le tour 1 et publie"),
    ("correction tour 1 ser Schlingue : GUESS 9", "republie le tour 1"),
    ("Correct turn 1 for ser Schlingue: GUESS 9", "Rerun turn 1 and publish"),
])
def test_correction_then_rerun_with_RECTIFICATIF_by_mail(table, correct, rerun):
    _resolve_step_one(table)
    answer = table.mj(correct)
    assert "[→ ser Schlingue]" in answer and "correction enregistrée pour ser Schlingue à l'étape 1" in answer
    answer = table.mj("Recalcule le tour 1")
    assert "étape 1 recalculée" in answer and "rien n'est envoyé" in answer
    table.new()
    answer = table.mj_confirmed(rerun)
    assert "RECTIFICATIF publié : 3 courriels privés" in answer
    mails = table.new()
    assert sum(1 for _t, k, s, _b in mails if k == "private" and s.startswith("RECTIFICATIF")) == 3
    rec = table.store.record_for_turn("toy1", 1)
    assert rec.orders["ser Schlingue"].source == "correction"


# --- remove and replace ---


@pytest.mark.parametrize("line", ["Retire Bran", "retirer Bran maintenant", "Retrait de Bran", "remove Bran now"])
def test_remove_now(table, line):
    table.mail(PLAYERS["Bran"], "GUESS 2")
    answer = table.mj_confirmed(line)
    assert "Bran quitte la partie : p2@pbem.test ne reçoit plus rien ; ses ordres de l'étape en cours ne comptent plus" \
        in answer
    told = to(table.new(), PLAYERS["Bran"], "notice")
    assert told[0][0] == "[TOY] vous quittez la partie"
    table.due(T0 + timedelta(days=2))
    assert "Bran" in table.store.record_for_turn("toy1", 1).defaults
    assert not to(table.new(), PLAYERS["Bran"])  # the departing address gets nothing more


@pytest.mark.parametrize("line", ["Retire Bran à la fin du tour", "retirer Bran à la fin de l'étape",
                                  "remove Bran at the end of the turn"])
def test_remove_at_the_end_of_the_step_keeps_its_orders(table, line):
    table.mail(PLAYERS["Bran"], "GUESS 2")
    answer = table.mj_confirmed(line)
    assert "Bran quittera la partie à la fin de l'étape 1 : ses ordres de cette étape comptent" in answer
    assert table.store.player("toy1", "Bran").status == "active"
    assert [s for s, _b in to(table.new(), PLAYERS["Bran"], "notice")] == [
        "[TOY] vous quitterez la partie à la fin de l'étape"]
    table.due(T0 + timedelta(days=2))
    rec = table.store.record_for_turn("toy1", 1)
    assert rec.orders["Bran"].source == "mail"
    mails = to(table.new(), PLAYERS["Bran"])
    assert [s for s, _b in mails] == ["[TOY] Étape 1 — vos résultats", "[TOY] vous quittez la partie"]
    assert table.store.player("toy1", "Bran").status == "removed"


@pytest.mark.parametrize("line", ["Remplace Bran par Jeanne Dupont <jeanne@pbem.test>",
                                  "remplacer Bran par Jeanne Dupont jeanne@pbem.test",
                                  "Remplacement de Bran par Jeanne Dupont, jeanne@pbem.test",
                                  "Replace Bran with Jeanne Dupont <jeanne@pbem.test>"])
def test_replace_now(table, line):
    answer = table.mj_confirmed(line)
    assert "la place de Bran est désormais tenue par Jeanne Dupont <jeanne@pbem.test>" in answer
    assert "l'ancienne adresse p2@pbem.test ne reçoit plus rien" in answer
    mails = table.new()
    assert to(mails, PLAYERS["Bran"], "notice")[0][0] == "[TOY] votre place est confiée à quelqu'un d'autre"
    brief = to(mails, "jeanne@pbem.test", "private")
    assert brief and brief[0][0] == "[TOY] bienvenue : vous reprenez la place de Bran"
    assert brief[0][1].startswith("Bonjour Jeanne Dupont,")
    assert table.store.player("toy1", "Bran").address == "jeanne@pbem.test"


def test_replace_from_a_later_step(table):
    answer = table.mj_confirmed("Remplace Bran par Jeanne <jeanne@pbem.test> à partir du tour 2")
    assert "Jeanne <jeanne@pbem.test> reprendra la place de Bran à partir de l'étape 2" in answer
    assert table.store.player("toy1", "Bran").address == PLAYERS["Bran"]
    table.due(T0 + timedelta(days=2))
    mails = table.new()
    assert to(mails, PLAYERS["Bran"], "private")  # the departing player got step 1's results
    assert to(mails, "jeanne@pbem.test", "private")[0][0].startswith("[TOY] bienvenue")
    assert table.store.player("toy1", "Bran").address == "jeanne@pbem.test"


# --- preview ---


@pytest.mark.parametrize("line", ["Aperçu", "apercu du tour", "Simule l'étape", "preview", "prévisualiser"])
def test_preview_by_mail_shows_everything_and_sends_nothing(table, line):
    table.mail(PLAYERS["Arya"], "GUESS 4")
    table.new()
    answer = table.mj(line)
    assert "APERÇU : Étape 1 (rien n'est enregistré ni envoyé)" in answer
    assert "--- La synthèse MJ ---" in answer and "--- Le compte rendu du forum ---" in answer
    for name in PLAYERS:
        assert f"--- À {name} : [TOY] Étape 1 — vos résultats ---" in answer
    assert [k for _t, k, _s, _b in table.new()] == ["ack"]
    assert table.game().turn == 1 and table.store.record_for_turn("toy1", 1) is None


# --- the answer itself ---


def test_a_mail_nothing_in_which_is_understood_gets_the_list_of_commands(table):
    answer = table.mj("Salut\nça va ?")
    assert "Je n'ai trouvé aucune commande dans votre message" in answer and "Les commandes du MJ" in answer
    assert "Je n'ai reconnu aucune commande" not in answer  # (said once, not twice)
    assert "Je n'ai reconnu aucune commande dans ce message" in table.mj("")
    for c in mjmail.COMMANDS:
        assert plain(c.example.fr) in answer
    # greetings and prose are listed as ignored text, not as errors (as in a player's ack)
    assert "seulement ce texte, ignoré :\n  Salut\n  ça va ?" in answer and "ERREUR" not in answer


def test_the_reasons_of_a_command_are_listed_as_prose_and_its_own_frame_is_not(table):
    answer = table.mj("Tu peux retirer Bran à la fin du tour ? il ne répond plus depuis deux semaines")
    ignored = plain(answer).split("Texte ignoré, qui n'est ni une commande ni un ordre :\n")[1].split("\n\n")[0]
    assert ignored.splitlines() == ["  il ne répond plus depuis deux semaines"], answer
    assert "RETIRE Bran à la fin de l'étape 1" in answer


def test_a_command_word_one_letter_off_is_read_and_a_garbled_one_gets_the_closest_command(table):
    before = table.deadline()
    answer = table.mj("Prolnge de 24h")
    assert "OK : date limite de l'étape en cours (Étape 1) repoussée" in answer
    assert table.deadline() == before + timedelta(days=1)
    answer = table.mj("pralonge")
    assert "vouliez-vous dire PROLONGE [tour n] de <durée> | jusqu'au <date> ? (par exemple : Prolonge le tour 3 de " \
           "24h)" in answer
    assert table.deadline() == before + timedelta(days=1)


def test_help_lists_the_commands_and_the_games_orders_for_the_MJ(table):
    answer = table.mj("AIDE")
    assert "Les commandes du MJ par courriel" in answer and "Prolonge le tour 3 de 24h" in answer


def test_the_answer_ends_with_where_the_game_stands(table):
    answer = table.mj("Aide")
    assert "--- Où en est la partie ---" in answer and "date limite : lundi 3 février 2025 à 14 h" in answer


def test_who_is_missing_is_not_told_twice(table):
    answer = table.mj("Qui manque ?")
    assert answer.count("On attend encore : Arya, Bran et ser Schlingue.") == 1
    assert "--- Où en est la partie ---" not in answer
    answer = table.mj("Qui manque ?\nProlonge le tour de 24h")  # the listing comes before the change
    assert "--- Où en est la partie ---" in answer and "date limite : mardi 4 février 2025 à 14 h" in answer


def test_a_forged_MJ_mail_without_the_password_does_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("TOY_MJ_PASSWORD", "sel-et-poivre")
    t = Table(tmp_path, passwords=True, mj_password_env="TOY_MJ_PASSWORD")
    before = t.deadline()
    t.mail(MJ_ADDRESS, "Prolonge de 24h", "[TOY] MJ")
    assert t.deadline() == before
    t.mail(MJ_ADDRESS, "MOTDEPASSE sel-et-poivre\nProlonge de 24h", "[TOY] MJ")
    assert t.deadline() == before + timedelta(days=1)
    t.close()


def test_every_example_of_the_command_list_is_read_as_its_command():
    for c in mjmail.COMMANDS:
        for example in (c.example.fr, c.example.en):
            text = example + ("\nFin" if c.kind == "CHRONICLE" else "")
            found = [[r.command for r in reader.read(text, view).readings if r.verdict == "do"]
                     for view in example_views(paused=c.kind == "RESUME", confirming=c.kind == "CONFIRM")]
            assert [c.kind] in found, (example, found)
    assert parse_iso("2025-02-01T13:00:00+00:00") == T0


# --- pause, resume and approve in their several forms ---


@pytest.mark.parametrize("line,start,end", [
    ("Pause du samedi 8 au dimanche 16 février inclus : vacances", "2025-02-07T23:00:00+00:00",
     "2025-02-16T23:00:00+00:00"),
    ("Mets la partie en pause du 8 au 16 février", "2025-02-07T23:00:00+00:00", "2025-02-16T23:00:00+00:00"),
    ("suspendre la partie du 8 au 16 février", "2025-02-07T23:00:00+00:00", "2025-02-16T23:00:00+00:00"),
    ("pause from 8 to 16 February", "2025-02-07T23:00:00+00:00", "2025-02-16T23:00:00+00:00"),
    ("Pause jusqu'au lundi 17 février à 21 h", "2025-02-01T13:00:00+00:00", "2025-02-17T20:00:00+00:00"),
    ("mettre en pause pendant 3 jours", "2025-02-01T13:00:00+00:00", "2025-02-04T13:00:00+00:00"),
    ("Suspension jusqu'à nouvel ordre", "2025-02-01T13:00:00+00:00", None),
])
def test_pause_in_natural_phrasings(table, line, start, end):
    answer = table.mj(line)
    (pause,) = table.store.pauses("toy1")
    assert (iso(pause.starts_at), pause.ends_at and iso(pause.ends_at)) == (start, end), answer


@pytest.mark.parametrize("line", ["Reprise", "reprends la partie", "Fin de la pause", "resume", "reprendre le jeu"])
def test_resume_in_natural_phrasings(table, line):
    table.mj("Pause jusqu'à nouvel ordre")
    table.now = T0 + hours(5)
    answer = table.mj(line)
    assert "pause finie : la partie reprend" in answer
    assert table.deadline() == T0 + timedelta(days=2, hours=5)  # the five hours of the pause given back


@pytest.mark.parametrize("line", ["APPROUVE", "Approuve le tour 1", "publie les résultats", "valide le tour 1",
                                  "approve turn 1", "Approbation"])
def test_approve_in_natural_phrasings(tmp_path, line):
    t = Table(tmp_path, publish="mj")
    t.due(T0 + timedelta(days=2))
    t.new()
    answer = t.mj(line)
    assert "résultats de « Étape 1 » publiés" in answer
    assert sorted(a for a, k, _s, _b in t.new() if k == "private") == sorted(PLAYERS.values())
    t.close()
