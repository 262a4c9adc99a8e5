"""The French help of every `pbem` command: its description and its options' help, keyed by command path.

The English help is each command's docstring and each option's ``help=``; `pbem.cli.shell` shows these
texts instead when the configured language is French.  Each description keeps its docstring's
« Exemple : pbem … » line, with the command unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Help:
    """A command's help in French: its description (paragraphs split by a blank line) and, by option
    name (the click parameter's name), each option's help."""

    text: str
    options: dict[str, str] = field(default_factory=dict)


# options shared by many commands (NOW, click's --help); a command's own entry comes first
SHARED_OPTIONS: dict[str, str] = {
    "help": "Affiche cette aide et s'arrête.",
    "now": "Heure courante simulée (ISO, dans le fuseau de la partie si aucun n'est donné).",
}

HELP: dict[str, Help] = {
    "": Help(
        "pbem\u00a0: le MJ automatique des parties par courriel.\n\n"
        "Exemple\u00a0: pbem tick",
        {"config_path": "Fichier de configuration (variable d'environnement PBEM_CONFIG).",
         "verbose": "Journalise ce que fait le démon."}),
    "run": Help(
        "Lance le démon\u00a0: relève la boîte aux lettres (ou l'écoute en IDLE), déclenche les dates limites, "
        "envoie le courrier.\n\n"
        "Exemple\u00a0: pbem run"),
    "tick": Help(
        "Une passe pour cron\u00a0: relève, traite, déclenche les dates limites et les rappels échus, envoie.\n\n"
        "Sort avec le code 1 (raisons sur stderr) quand la passe a rencontré des erreurs\u00a0: une résolution "
        "ou un courriel en échec, une boîte aux lettres illisible, une configuration que le serveur SMTP "
        "refuse. Une seule passe à la fois travaille sur une base\u00a0: une seconde attend jusqu'à "
        "pbem.lock_wait_seconds, puis s'efface (code 0, une ligne sur stderr), ou sort avec le code 1 si la "
        "passe en cours semble bloquée.\n\n"
        "Exemple\u00a0: pbem tick --now 2026-12-01T21:05"),
    "game": Help(
        "Créer, lancer et consulter les parties.\n\n"
        "Exemple\u00a0: pbem game list"),
    "game new": Help(
        "Crée GAME_ID (déclarée dans config.toml) et ouvre les inscriptions.\n\n"
        "Exemple\u00a0: pbem game new pmb1",
        {"seed": "Fixe la graine secrète (hexadécimale)\u00a0; par défaut, une graine tirée au hasard."}),
    "game start": Help(
        "Clôt les inscriptions maintenant, distribue les rôles et écrit à chacun.\n\n"
        "Exemple\u00a0: pbem game start pmb1"),
    "game finish": Help(
        "Termine une partie maintenant (une campagne 1626 ne s'achève pas d'elle-même) et révèle la graine des dés.\n\n"
        "Exemple\u00a0: pbem game finish gant --yes",
        {"yes": "Ne demande pas de confirmation."}),
    "game status": Help(
        "Phase, étape, date limite, qui a donné ses ordres.\n\n"
        "Exemple\u00a0: pbem game status pmb1"),
    "game list": Help(
        "Toutes les parties de la base et de config.toml.\n\n"
        "Exemple\u00a0: pbem game list"),
    "game extend": Help(
        "Déplace la date limite de l'étape ouverte\u00a0; chaque joueur est prévenu.\n\n"
        "Exemple\u00a0: pbem game extend pmb1 --hours 24",
        {"hours": "Ajoute ce nombre d'heures à la date limite actuelle.",
         "until": "Nouvelle date limite\u00a0: ISO, ou comme vous l'écrivez («\u00a0lundi 17 février à 21 h\u00a0»).",
         "earlier": "Permet d'avancer la date limite (les joueurs sont prévenus)."}),
    "game pause": Help(
        "Arrête l'horloge de la partie (dates limites, rappels) entre deux dates ou jusqu'à la reprise\u00a0; "
        "les joueurs sont prévenus.\n\n"
        "Les dates sont en ISO ou comme vous les écrivez (un jour sans heure en désigne le début\u00a0: "
        "--until \"17 février\" reprend le 17 à 0 h).\n\n"
        "Exemple\u00a0: pbem game pause pmb1 --from \"samedi 8 février\" --until \"lundi 17 février\" "
        "--reason vacances",
        {"start": "Début de la pause (par défaut, maintenant).",
         "until": "Reprise du jeu (par défaut, quand vous la reprenez).",
         "reason": "Le motif, dit aux joueurs."}),
    "game resume": Help(
        "Termine la pause maintenant (ou en fixe la fin)\u00a0; le temps qui restait est rendu\u00a0; les "
        "joueurs sont prévenus.\n\n"
        "Exemple\u00a0: pbem game resume pmb1",
        {"at": "Reprend plus tard, à cette date (par défaut, maintenant)."}),
    "game missing": Help(
        "Qui doit encore donner ses ordres pour l'étape ouverte, qui est absent, ce qui retient la partie.\n\n"
        "Exemple\u00a0: pbem game missing pmb1"),
    "player": Help(
        "Ajouter, retirer ou remplacer des joueurs (le côté MJ des inscriptions).\n\n"
        "Exemple\u00a0: pbem player list pmb1"),
    "player add": Help(
        "Inscrit NAME à l'adresse ADDRESS pendant les inscriptions.\n\n"
        "Exemple\u00a0: pbem player add pmb1 \"dame Olenna\" olenna@example.org --gender f",
        {"role": "Fixe le rôle de ce joueur (reprise d'une partie, tests).",
         "sheet": "Fichier TOML avec les données du joueur.",
         "gender": "Les textes s'accordent à ce genre (sinon ils restent neutres)."}),
    "player remove": Help(
        "Cesse d'écrire à NAME (qui en est prévenu)\u00a0; ses décisions prennent les valeurs par défaut "
        "des règles.\n\n"
        "Exemple\u00a0: pbem player remove pmb1 Arya --at-end",
        {"at_end": "À la fin de l'étape ouverte\u00a0: ses ordres pour cette étape comptent encore."}),
    "player replace": Help(
        "Un nouveau venu reprend la place de NAME (même personnage, nouvelle adresse)\u00a0; il reçoit un "
        "briefing, l'ancienne adresse est prévenue.\n\n"
        "Exemple\u00a0: pbem player replace pmb1 Arya jeanne@example.org --name \"Jeanne Dupont\"",
        {"new_name": "Le nom du nouveau venu (pour le courriel de bienvenue).",
         "from_turn": "L'étape à partir de laquelle le nouveau venu joue (par défaut, l'étape ouverte)."}),
    "player list": Help(
        "Les joueurs et leurs adresses.\n\n"
        "Exemple\u00a0: pbem player list pmb1"),
    "player absence": Help(
        "Enregistre l'absence d'un joueur (la règle d'absence de la partie s'applique\u00a0: valeurs par "
        "défaut, ou la date limite attend).\n\n"
        "Exemple\u00a0: pbem player absence pmb1 Arya --from \"8 février\" --until \"17 février\"",
        {"start": "Début de l'absence (par défaut, maintenant).",
         "until": "Retour du joueur.",
         "cancel": "Annule les absences à venir du joueur."}),
    "turn": Help(
        "Consulter, résoudre et recalculer les étapes.\n\n"
        "Exemple\u00a0: pbem turn show pmb1 3"),
    "turn show": Help(
        "Le résumé MJ d'une étape résolue (par défaut, la dernière)\u00a0; dans une partie 1626, ses tests "
        "(NUMBER\u00a0: un seul relevé).\n\n"
        "Exemple\u00a0: pbem turn show pmb1 3"),
    "turn resolve": Help(
        "Résout l'étape ouverte maintenant, sans attendre la date limite (les courriels sont mis en file\u00a0; "
        "pbem tick les envoie).\n\n"
        "Exemple\u00a0: pbem turn resolve pmb1"),
    "turn preview": Help(
        "Résout l'étape ouverte sur une copie, avec les ordres reçus et les valeurs par défaut\u00a0: résumé, "
        "message du forum, chaque lettre privée. Rien n'est enregistré ni envoyé.\n\n"
        "Exemple\u00a0: pbem turn preview pmb1"),
    "turn publish": Help(
        "Envoie les résultats qui attendent votre accord (publish = \"mj\")\u00a0; les ordres corrigés sont "
        "appliqués d'abord.\n\n"
        "Exemple\u00a0: pbem turn publish pmb1 3 --chronicle chronique.txt",
        {"chronicle": "Un fichier (ou - pour l'entrée standard)\u00a0: le texte en tête du message du forum."}),
    "turn rerun": Help(
        "Recalcule l'étape NUMBER à partir de son relevé (avec les ordres corrigés), montre les différences "
        "et, sur demande, publie.\n\n"
        "Exemple\u00a0: pbem turn rerun pmb1 3 --publish",
        {"publish": "Remplace les résultats publiés et envoie un RECTIFICATIF."}),
    "orders": Help(
        "Voir et corriger les ordres (les corrections du MJ sont journalisées).\n\n"
        "Exemple\u00a0: pbem orders show pmb1"),
    "orders show": Help(
        "Les ordres en cours de chaque joueur pour une étape, avec leur provenance.\n\n"
        "Exemple\u00a0: pbem orders show pmb1 --turn 2",
        {"turn_no": "Numéro de l'étape (par défaut, l'étape ouverte)."}),
    "orders set": Help(
        "Fixe les ordres de PLAYER_NAME, un argument par ligne.\n\n"
        "Exemple\u00a0: pbem orders set pmb1 Arya \"ESCOUADE Joffrey\"",
        {"turn_no": "Corrige une étape résolue (ensuite\u00a0: pbem turn rerun)."}),
    "outbox": Help(
        "Consulter et renvoyer le courrier sortant.\n\n"
        "Exemple\u00a0: pbem outbox list --status failed"),
    "outbox list": Help(
        "Les courriels sortants et leur état.\n\n"
        "Exemple\u00a0: pbem outbox list --status failed",
        {"status": "Seulement les courriels dans cet état.",
         "game_id": "Seulement les courriels de cette partie."}),
    "outbox retry": Help(
        "Remet en file les courriels en échec (ils partent avec la prochaine passe).\n\n"
        "Exemple\u00a0: pbem outbox retry --failed",
        {"all_failed": "Renvoie tous les courriels en échec ou revenus."}),
    "mail": Help(
        "Le courrier reçu tel qu'il est enregistré\u00a0: le lister, et traiter de nouveau celui qui a échoué.\n\n"
        "Exemple\u00a0: pbem mail list --status error"),
    "mail list": Help(
        "Le courrier reçu enregistré, avec son verdict.\n\n"
        "Exemple\u00a0: pbem mail list --status error",
        {"status": "Seulement le courrier dans cet état."}),
    "mail retry": Help(
        "Traite de nouveau le courrier enregistré à la prochaine passe (après avoir corrigé ce qui l'a fait "
        "échouer).\n\n"
        "Seul le courrier dont le traitement a échoué (état error) et n'a rien enregistré est traité de "
        "nouveau\u00a0: le courrier déjà traité reste tel quel, ses ordres ne sont donc jamais appliqués deux "
        "fois.\n\n"
        "Exemple\u00a0: pbem mail retry --errors",
        {"all_errors": "Tout le courrier dont le traitement a échoué."}),
    "export": Help(
        "Tout sur une partie\u00a0: joueurs, relevés des étapes, jets de dés, événements, journal.\n\n"
        "Exemple\u00a0: pbem export pmb1 --json > pmb1.json",
        {"as_json": "Sortie en JSON (le seul format).",
         "with_seed": "Inclut la graine même avant la fin de la partie (réservé au MJ\u00a0!)."}),
    "verify": Help(
        "Vérifie la graine contre son engagement et recalcule chaque jet de dés enregistré.\n\n"
        "Exemple\u00a0: pbem verify --file pmb1.json --seed 3f2a...",
        {"seed": "La graine révélée (par défaut, celle de la base).",
         "export_file": "Vérifie un export (pbem export --json) au lieu de la base."}),
    "archive": Help(
        "Écrit les archives publiques d'une partie en site HTML statique\u00a0: chaque message du forum, les "
        "images, des graphiques sur la partie et, une fois la graine révélée, la vérification des dés. "
        "Lisible hors ligne\u00a0; FOLDER est remplacé.\n\n"
        "Exemple\u00a0: pbem archive pmb1 archives/pmb1"),
    "demo": Help(
        "Joue des parties scriptées par courriel sur des Maildir locaux, en temps simulé\u00a0; affiche où "
        "tout est allé.\n\n"
        "Exemple\u00a0: pbem demo pmb",
        {"out_dir": "Où la démo écrit tout."}),
    "doctor": Help(
        "Vérifie la configuration, la connexion à la boîte aux lettres et la connexion SMTP. N'écrit rien.\n\n"
        "Exemple\u00a0: pbem doctor"),
    "init": Help(
        "Crée un dossier de partie\u00a0: un config.toml commenté (Maildir locaux), data/, templates/, les "
        "unités systemd, LISEZMOI.md.\n\n"
        "Lancez ensuite chaque commande pbem depuis ce dossier.\n\n"
        "Exemple\u00a0: pbem init ~/pourmabelle",
        {"user": "L'utilisateur système sous lequel tournent les unités systemd."}),
    "scenario": Help(
        "Fichiers de scénario\u00a0: jouer un cas des règles d'un jeu depuis un fichier, sans courriel ni base.\n\n"
        "Exemple\u00a0: pbem scenario run docs/rules/pmb-cases/"),
    "scenario run": Help(
        "Joue chaque CASE (un fichier .toml, ou un dossier de fichiers) et vérifie ce qu'il attend "
        "(format\u00a0: docs/scenarios.md).\n\n"
        "Code de sortie\u00a0: 0 quand toutes les attentes sont tenues, 1 quand l'une ne l'est pas, 2 quand un "
        "fichier est mal formé.\n\n"
        "Exemple\u00a0: pbem scenario run docs/rules/pmb-cases/C1-escouade-correcte-tue-la-cible.toml --lang en",
        {"lang": "Langue du compte rendu.",
         "quiet": "Seulement les attentes non tenues et le résultat de chaque cas.",
         "show_state": "Affiche aussi l'état final de chaque cas (JSON)."}),
    "templates": Help(
        "Les textes qu'écrit pbem, et ceux que remplace votre dossier de partie (templates/ à côté de "
        "config.toml).\n\n"
        "Exemple\u00a0: pbem templates list"),
    "templates list": Help(
        "Tous les modèles de pbem\u00a0; ceux que votre dossier remplace sont marqués.\n\n"
        "Exemple\u00a0: pbem templates list"),
    "templates copy": Help(
        "Copie un modèle fourni (tel que listé) dans templates/ pour le modifier\u00a0; il sert dès la passe "
        "suivante.\n\n"
        "Exemple\u00a0: pbem templates copy common/ack.fr.j2",
        {"force": "Écrase un remplacement qui existe déjà."}),
}


def option_help(command: str, option: str) -> str | None:
    """The French help of ``option`` (a click parameter's name) of ``command`` (its path, "" for pbem)."""
    entry = HELP.get(command)
    own = entry.options.get(option) if entry is not None else None
    return own if own is not None else SHARED_OPTIONS.get(option)
