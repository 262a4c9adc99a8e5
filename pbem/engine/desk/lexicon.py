"""The MJ's words, as data: for each command the phrasings that ask for it (French and English), and the
words around a command that change its reading (politeness, musing, yes and no, pronouns, results).

A trigger is a short pattern of folded words (`pbem.names.fold`: lower case, no accents) read anywhere
in a sentence: ``word`` is that word, ``stem*`` every word that begins so (every form of a verb: « prolonge »,
« prolonger », « prolongation »), ``a|b`` either, ``?word`` a word that may be missing, ``…`` up to three
other words.  The reader (`pbem.engine.desk.reader`) finds them; nothing here is code per phrasing.
"""

from __future__ import annotations

from dataclasses import dataclass

# --- the commands: every trigger of each --------------------------------------------------------------


@dataclass(frozen=True)
class Trigger:
    """A phrasing that asks for ``command``.

    ``noun``: a noun (« prolongation »), a request only where nothing says it is talked about
    (« la prolongation de la semaine dernière a bien aidé »).  ``guess``: the words alone leave
    the intent a guess (« on arrête tout »: a pause, or the end of the game? ``alt``).  ``needs``:
    the game state it holds in (``paused``, ``held``, ``requests``: a game whose players' tests
    wait for the MJ).  ``firm``: a guessed trigger no longer guessed when the sentence gives a date.
    """

    command: str
    pattern: str
    noun: bool = False
    # (``context`` ``#``: a number must stand within three words of it: « 24h de plus », « +24h »)
    guess: bool = False
    alt: str | None = None
    needs: str | None = None
    firm: bool = False
    not_after: tuple[str, ...] = ()  # words before it that make it another word (« merci d'avance »)
    context: tuple[str, ...] = ()  # one of these words must be in the sentence (« plus tôt »: of the turn)
    ask: bool = False  # only in a question, at the head of a sentence, or after « dis-moi », « tell me »


T = Trigger
TRIGGERS: tuple[Trigger, ...] = (
    # the deadline, later (EXTEND), earlier (EARLIER), or to a date whose place says which (DEADLINE)
    T("EXTEND", "prolong*"), T("EXTEND", "rallong*"), T("EXTEND", "repouss*"), T("EXTEND", "reporte|reporter|reportez"),
    T("EXTEND", "decal*"), T("EXTEND", "retarde|retarder|retardez"), T("EXTEND", "rajout*"),
    T("EXTEND", "prolongation", noun=True), T("EXTEND", "report de|du", noun=True), T("EXTEND", "extension", noun=True),
    T("EXTEND", "delai supplementaire", noun=True), T("EXTEND", "laisse|laisser|laissez|laisses|laissons … jusqu"),
    T("EXTEND", "de plus", context=("#",)), T("EXTEND", "plus de temps"), T("EXTEND", "supplementaire*", context=("#",)), T("EXTEND", "extend*"), T("EXTEND", "postpon*"),
    T("EXTEND", "push"), T("EXTEND", "delay"), T("EXTEND", "more", context=("#",)), T("EXTEND", "+", context=("+",)),
    T("EARLIER", "avanc*", not_after=("d", "en", "l", "a")), T("EARLIER", "raccourci*"), T("EARLIER", "ramene|ramener|ramenez"),
    T("EARLIER", "clos|clot|clore|cloture|cloturer|clotures … tour"), T("EARLIER", "plus tot", context=("tour", "limite", "dl", "deadline", "echeance", "etape", "resolution")),
    T("EARLIER", "bring … forward"), T("EARLIER", "move … up"), T("EARLIER", "earlier"), T("EARLIER", "shorten*"),
    T("DEADLINE", "date limite"), T("DEADLINE", "dl|deadline|echeance"),
    # pause and resume
    T("PAUSE", "pause|pauses"), T("PAUSE", "pauser|pausez"), T("PAUSE", "suspen*"),
    T("PAUSE", "gel|gele|geler|gelez|gelons|geles"), T("PAUSE", "break"), T("PAUSE", "freeze*"),
    T("PAUSE", "hold"), T("PAUSE", "stop", guess=True, alt="FINISH", firm=True),
    T("PAUSE", "arrete|arretes|arreter|arretons|arretez tout", guess=True, alt="FINISH", firm=True),
    T("PAUSE", "s arrete|arreter|arretons"),
    T("RESUME", "reprise"), T("RESUME", "repren*|reprend|reprends"), T("RESUME", "relanc* ?la partie|jeu|machine",
                                                                        needs="paused"),
    T("RESUME", "repart|repartons|repartir"), T("RESUME", "fin de ?la pause"), T("RESUME", "pause … termine*|finie"),
    T("RESUME", "annul* … pause"), T("RESUME", "lev* … pause"), T("RESUME", "resum*"), T("RESUME", "unpause*"),
    T("RESUME", "degel*"), T("RESUME", "end the pause"),
    # who is missing
    T("MISSING", "qui ?est ?ce ?qu ?on ?il manque*", ask=True), T("MISSING", "manque qui"), T("MISSING", "qui … pas … joue|envoye", ask=True),
    T("MISSING", "qui ?n a|as pas", ask=True), T("MISSING", "qui doit", ask=True), T("MISSING", "qui reste", ask=True), T("MISSING", "reste qui"),
    T("MISSING", "attend* qui"), T("MISSING", "qui … attend*", ask=True), T("MISSING", "retardataire*"),
    T("MISSING", "manquant*"), T("MISSING", "trainard*"), T("MISSING", "qui … en retard", ask=True),
    T("MISSING", "qui … absent*", ask=True), T("MISSING", "ordres … tout le monde", ask=True), T("MISSING", "combien … joue", ask=True),
    T("MISSING", "point sur … ordres"), T("MISSING", "a|ont envoye|joue|donne … ordres", ask=True),
    T("MISSING", "who … missing", ask=True), T("MISSING", "who … not|hasn|hasnt|haven", ask=True), T("MISSING", "who … still", ask=True),
    T("MISSING", "waiting on|for"), T("MISSING", "who … owes|owe", ask=True),
    # a mail sent again
    T("RESEND", "renvo*"), T("RESEND", "reexpedi*"), T("RESEND", "redonn*"), T("RESEND", "resend*"),
    T("RESEND", "envoi|envoie|envoies|envoyer|envoyez … resultat*|cr|compte|bilan|rapport|forum"),
    T("RESEND", "send … again"),
    # orders: given for a player (FOR is read from a game's order words, `reader`), corrected, re-run
    T("CORRECT", "corrig*"), T("CORRECT", "correction*"), T("CORRECT", "rectifi*"), T("CORRECT", "mal saisi"),
    T("CORRECT", "erreur … ordre"), T("CORRECT", "fix"), T("CORRECT", "correct"),
    T("RERUN", "recalcul*"), T("RERUN", "refai*|refais|refaire … calcul"), T("RERUN", "relanc* … calcul"),
    T("RERUN", "relanc* ?le tour", guess=True), T("RERUN", "rejou*"), T("RERUN", "republi*"), T("RERUN", "rerun*"),
    T("RERUN", "re run"), T("RERUN", "recompute*"), T("RERUN", "recalc*"),
    # seats
    T("REMOVE", "retir*"), T("REMOVE", "retrait"), T("REMOVE", "vire|virer|virez|vires|virons"),
    T("REMOVE", "sors|sortir|sortez"), T("REMOVE", "degag*"), T("REMOVE", "exclu*"), T("REMOVE", "expuls*"),
    T("REMOVE", "quitte|quittera|quitter … partie|jeu"), T("REMOVE", "ne jouera plus", guess=True),
    T("REMOVE", "kick*"), T("REMOVE", "remove*"), T("REMOVE", "boot"),
    T("REPLACE", "rempla*"), T("REPLACE", "substitu*"), T("REPLACE", "prend|prendra|prenne la place"),
    T("REPLACE", "prend|prendra|prenne le role"), T("REPLACE", "reprend|reprendra ?le|la perso|personnage|role|place"),
    T("REPLACE", "replac*"), T("REPLACE", "take|takes over"),
    # results held for approval, and the chronicle that heads them
    T("APPROVE", "approu*"), T("APPROVE", "approb*"), T("APPROVE", "valid*"), T("APPROVE", "publi*", needs="held"),
    T("APPROVE", "ok pour ca", guess=True, needs="held"), T("APPROVE", "approv*"), T("APPROVE", "release"),
    T("CHRONICLE", "chroniq*"), T("CHRONICLE", "chronicle"), T("CHRONICLE", "texte d ambiance"),
    T("CHRONICLE", "en tete du|de compte|cr"), T("CHRONICLE", "intro|introduction du|de compte|cr"),
    T("CHRONICLE", "au debut du cr|compte"), T("CHRONICLE", "ajoute ce texte"),
    # look before publishing
    T("PREVIEW", "apercu"), T("PREVIEW", "previsu*"), T("PREVIEW", "simul*"), T("PREVIEW", "pour de faux"),
    T("PREVIEW", "a blanc"), T("PREVIEW", "ce que … donnerait|donnera|donne"), T("PREVIEW", "preview*"),
    T("PREVIEW", "what would"), T("PREVIEW", "dry run"),
    # a player away
    T("ABSENCE", "absen*"), T("ABSENCE", "en vacances"), T("ABSENCE", "part … jours|jour|semaine"),
    T("ABSENCE", "ne|n sera|seront pas la"), T("ABSENCE", "ne pourra pas jouer", guess=True), T("ABSENCE", "away"),
    T("ABSENCE", "on holiday"),
    # the list of commands
    T("HELP", "aide"), T("HELP", "help"), T("HELP", "commandes"), T("HELP", "commands"), T("HELP", "syntaxe"),
    T("HELP", "syntax"), T("HELP", "comment … je|on|faire|fait"), T("HELP", "what can i"), T("HELP", "how do|to"),
    # a newcomer registered, the game ended
    T("REGISTER", "inscri*"), T("REGISTER", "ajout* … partie|jeu"), T("REGISTER", "ajoute|ajouter"),
    T("REGISTER", "register*"), T("REGISTER", "sign … up"), T("REGISTER", "add … game"),
    T("FINISH", "fin de ?la partie"), T("FINISH", "clotur* … partie"), T("FINISH", "clo|clos|clot|clore … partie"),
    T("FINISH", "la clore"), T("FINISH", "termin* … partie"), T("FINISH", "end … game"), T("FINISH", "finish … game"),
    T("FINISH", "game over"), T("FINISH", "on termine", guess=True),
    T("FINISH", "arrete|arreter|arretez … partie|jeu", guess=True, alt="PAUSE"),
    # the answers to players' requests (1626 tests)
    T("SR", "sr|seuil|threshold|dc", needs="requests"),
    T("ROLL", "lance|lancer|lancez|roll", needs="requests"),
    T("REFUSE_TEST", "refus*|decline|deny", needs="requests"), T("REFUSE_TEST", "pas de test", needs="requests"),
)

ABSORBS: dict[str, frozenset[str]] = {
    "RERUN": frozenset({"APPROVE", "RESEND", "CORRECT", "PREVIEW"}),
    "EXTEND": frozenset({"DEADLINE", "EARLIER", "PAUSE", "FOR"}), "EARLIER": frozenset({"DEADLINE", "EXTEND", "FOR"}),
    "DEADLINE": frozenset({"EXTEND", "EARLIER", "FOR"}), "PAUSE": frozenset({"RESUME", "DEADLINE", "FINISH"}),
    "RESUME": frozenset({"PAUSE"}), "REMOVE": frozenset({"FINISH", "FOR", "ABSENCE"}),
    "REPLACE": frozenset({"RESUME", "FOR", "REGISTER", "CORRECT"}), "APPROVE": frozenset({"RESEND"}),
    "CORRECT": frozenset({"REPLACE", "FOR"}), "FOR": frozenset({"CORRECT", "SR"}), "ABSENCE": frozenset({"RESUME", "FOR"}),
    "MISSING": frozenset({"ABSENCE", "FOR", "RESEND"}), "SR": frozenset({"FOR"}), "ROLL": frozenset({"FOR"}),
    "REFUSE_TEST": frozenset({"FOR"}), "REGISTER": frozenset({"FOR"}), "FINISH": frozenset({"FOR"}),
    "RESEND": frozenset({"FOR"}), "PREVIEW": frozenset({"FOR"}), "CHRONICLE": frozenset({"APPROVE", "FOR"}),
}
"""The triggers of commands on the right that belong to the sentence of the command on the left: « recalcule et
publie » is one re-run (with publication), « je gèle la partie, reprise quand je rentre » one pause.  (HELP
absorbs every other: « comment je fais pour prolonger ? » asks for the list of commands.)"""

# --- what the words around a command say -----------------------------------------------------------

REQUEST = ("tu peux", "tu pourrais", "peux tu", "pourrais tu", "pouvez vous", "pourriez vous", "vous pouvez",
           "il faudrait", "faudrait", "il faut", "faut", "merci de", "auriez vous", "could you", "can you",
           "would you", "please", "stp", "svp", "s il te plait", "s il vous plait")
"""Phrases that ask: a sentence that holds one and no command is a request pbem cannot do (a refusal, not prose)."""
REQUEST_VERBS = frozenset(
    "envoie envoyer envoyez envoies change changer changez annule annuler annulez ressuscite ressusciter fais faire "
    "faites mets mettre mettez augmente augmenter diminue diminuer relance relancer relancez donne donner donnez "
    "rappelle rappeler supprime supprimer efface effacer modifie modifier tue tuer rends rendre enleve enlever baisse "
    "baisser previens prevenir send give add make remind tell set kill delete cancel increase decrease".split())
"""Verbs that open a request (« Envoie un rappel à Bran »)."""
MUSING = ("je pense", "je me demande", "peut etre", "faudra", "je vais peut", "j hesite", "on verra", "maybe",
          "i might", "thinking of", "pense a", "penser a", "je sais pas si")
"""Words that make a command a thought, a plan or a doubt, not a request (« je pense retirer Bertrand s'il… »)."""
THANKS = ("merci pour", "thanks for", "thank you for", "merci de la", "merci du")
"""Before a command's noun: thanks for what was done (« merci pour la pause »)."""
PAST_AUX = frozenset({"a", "ai", "as", "avons", "avez", "ont", "avait", "avaient", "etait", "etaient", "fut"})
"""After a command's noun, before a participle: what was done (« la prolongation a bien aidé »)."""
PARTICIPLES = frozenset({"bien", "fait", "eu", "ete", "aide", "servi", "plu", "pris", "mis", "dit", "vraiment",
                         "beaucoup", "super", "permis", "sauve", "change", "marche"})
HOW = ("comment", "syntaxe", "syntax", "how do", "how to", "c est quoi les commandes", "quelles sont les commandes",
       "quelles commandes", "what can i")
"""Asking how: the answer is the list of commands, never the command (« comment je fais pour prolonger ? »)."""

YES = ("oui", "ouais", "ouaip", "ok", "okay", "okey", "d accord", "daccord", "dac", "vas y", "go", "confirme",
       "confirmer", "confirmee", "c est bon", "c bon", "yes", "yep", "yeah", "sure", "parfait", "entendu",
       "ca marche", "bien sur")
NO = ("non", "nan", "no", "nope", "laisse tomber", "annule", "pas maintenant", "attends", "stop")
MAYBE = ("peut etre", "maybe", "je sais pas", "je ne sais pas", "hmm", "bof")
SAME = ("la meme chose pour", "meme chose pour", "pareil pour", "idem pour", "same for", "same thing for",
        "the same for")
"""« La même chose pour X »: the command before, for X."""

WISHERS = frozenset({"veut", "veulent", "voudrait", "voudraient", "souhaite", "souhaitent", "souhaiterait",
                     "aimerait", "compte", "fais", "faites", "fait", "faire", "wants", "want", "wishes", "would",
                     "like", "make", "let"})
"""The words before a game's verb of a wish (`View.wish_words`): « Arya veut tuer Sansa », « fais tuer Sansa à
Arya », « Arya wants to kill Sansa »: an order translated from the game's words, always asked."""

# --- slots -----------------------------------------------------------------------------------------------

PRONOUNS = {"le": "m", "la": "f", "l": "", "lui": "", "il": "m", "elle": "f", "him": "m", "her": "f", "them": ""}
"""Pronouns that stand for a player, with the gender they agree with ("" either)."""
POSSESSIVES = frozenset({"son", "sa", "ses", "his", "her", "their"})
ME = frozenset({"moi", "me", "mj", "myself"})
EVERYONE = ("tout le monde", "tous les joueurs", "a tous", "everyone", "everybody", "all players")
STEP_WORDS = frozenset({"tour", "tours", "etape", "etapes", "manche", "manches", "turn", "step", "round"})
OPEN_STEP = ("ce tour", "cette etape", "cette manche", "tour en cours", "etape en cours", "tour actuel",
             "this turn", "current turn", "this step", "tour ci")
NEXT_STEP = ("prochain tour", "tour suivant", "prochaine etape", "etape suivante", "next turn", "next step")
LAST_STEP = ("tour precedent", "tour d avant", "dernier tour", "tour dernier", "etape precedente",
             "derniere etape", "derniers resultats", "dernier resultat", "last turn", "previous turn")
NOW = ("maintenant", "tout de suite", "de suite", "immediatement", "aussitot", "des maintenant", "now",
       "immediately", "right away")
END_OF_STEP = ("fin du tour", "fin de ce tour", "fin de l etape", "fin de cette etape", "fin de la manche",
               "apres ce tour", "apres le tour", "a la fin", "end of the turn", "end of turn", "after this turn",
               "end of the step", "fin du tour", "fin de tour")
RESULTS = frozenset({"resultat", "resultats", "result", "results", "rapport", "bilan", "report"})
FORUM = frozenset({"cr", "compte", "forum", "post", "bbcode", "publique", "public"})
START = ("debut de partie", "debut de la partie", "de depart", "mail de depart", "courriel de depart",
         "start of the game", "game start", "tour 0", "turn 0")
PUBLISH = frozenset({"publie", "publier", "publiez", "publication", "publish", "rectificatif", "correction",
                     "envoie", "envoyer", "publiera"})
NO_SEND = ("sans rien envoyer", "sans envoyer", "sans publier", "without sending", "without publishing")
CANCEL = frozenset({"annule", "annuler", "annulez", "annulation", "cancel", "rentre", "rentree", "retour"})
SECRET = frozenset({"secret", "secrete", "secretement", "secretly"})
REQUEST_REFS = frozenset({"n", "no", "numero", "num", "test", "demande", "request", "jet"})

FILLER = frozenset(
    "le la les l un une des de d du au aux a en et ou the a an of to for and or ce cette ces cet mon ma mes ton ta "
    "tes son sa ses y il elle on je j tu vous nous me te se s lui leur leurs moi qu que qui est c ca cela it is".split())
"""Words that fill no slot and say nothing against a reading (they are not listed as the MJ's prose)."""
KNOWN = frozenset(
    "bonjour salut merci stp svp please ok oui non bon ben alors donc mais car bien tres super top cool parfait "
    "partie jeu joueur joueurs joueuse tour tours etape ordres ordre date limite heure heures jour jours semaine "
    "forum mail courriel message pour avec sans dans sur sous par chez tout tous toute toutes encore deja aussi "
    "plus moins peu trop vite demain aujourd hui hier soir matin midi minuit week end lundi mardi mercredi jeudi "
    "vendredi samedi dimanche janvier fevrier mars avril mai juin juillet aout septembre octobre novembre decembre "
    "petit petite grand grande vieux nouveau nouvelle equipe fiche fiches test tests points influence role passe "
    "passer partir parti partie sortie votre notre vos nos leur leurs elle elles lui eux toute tous maintenant "
    "avance merci temps retard envoye envoyes envoyer recu recus pourrait pourrais jouer joue jouent tuer "
    "sorte sortie reste arrive arrivee depart debut fin suite semaines rapport prive public message mails "
    "courriels absent absente vacances malade boulot travail deplacement reseau ordi telephone forum panne "
    "ecrit ecrire prevenu dire dit rien tout personne quelqu chose truc demande demandes attendre attend "
    "monde regarde regarder reviens revenir viens venir repondre repond repondu pense crois sais voir vois "
    "lire lis lu mariage".split()
    + list(FILLER))
"""Common words that are no name (a word in a player's slot that is none of these may be a misspelt name)."""

# --- a player's common commands written as sentences ------------------------------------------------------

PLAYER_TRIGGERS: tuple[Trigger, ...] = (
    T("AWAY", "absen*"), T("AWAY", "en vacances"), T("AWAY", "ne|n serai pas la"), T("AWAY", "away"),
    T("PASS", "je passe ?mon|ce ?tour"), T("PASS", "je ne joue pas ?ce|cette ?tour|manche|etape"),
    T("PASS", "rien pour moi"), T("PASS", "i pass"), T("PASS", "je passe"),
    T("HELP", "quelles|quels … commandes|ordres"), T("HELP", "comment … je|on|faire|fait|joue"),
    T("HELP", "how do|to"), T("HELP", "quoi ecrire"),
    T("STATUS", "ou en est"), T("STATUS", "ou j en suis"), T("STATUS", "ma situation"), T("STATUS", "mon etat"),
    T("STATUS", "where do i stand"), T("STATUS", "my status"),
)
"""What a player may ask in a sentence (« je serai absent du 15 au 20 », « je passe mon tour », « où en est la
partie ? »): read only when certain; the rest of his prose stays his prose."""
