"""A game folder of one's own: what `pbem init` writes, the systemd units, and the MJ's template overrides.

pbem runs from any folder holding a ``config.toml``; the package carries its templates and default
data (`DATA`), so nothing of the source tree is needed.  A folder made by `init_folder`:

    config.toml      commented, on the embedded Maildir default (no mail account needed)
    data/            the database, the Maildirs, the forum posts; sample material (1626 sheets)
    templates/       empty: a file put here replaces the packaged template of the same name
    systemd/         a hardened service for `pbem run`, and a service + timer for `pbem tick`
    docs/            the MJ's guide and the rules pages (`pbem guide` prints them too)
    LISEZMOI.md      what to do next, in French
"""

from __future__ import annotations

import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from pbem.guide import copy_docs
from pbem.msg import Msg, PbemError
from pbem.render import TEMPLATES, packaged_templates
from pbem.shipped import DATA
from pbem.units import UnitKind, cron_line, systemd_units, unit_kind
from pbem.wording import join_list

SAMPLES = ("1626/personnages.toml",)
"""Sample material `pbem init` copies into the folder's ``data/`` for the MJ to edit."""


class FolderError(PbemError):
    """What `pbem init` or `pbem templates` cannot do, and how to fix it (one line, in both languages)."""

    def __init__(self, fr: str, en: str):
        super().__init__(Msg(fr, en))


@dataclass(frozen=True)
class Made:
    folder: Path
    files: list[Path]


def init_folder(folder: Path, *, pbem_command: str | None = None, user: str = "pbem",
                kind: UnitKind | None = None) -> Made:
    """Create a working game folder (refuses to overwrite an existing config.toml).  Its systemd units are
    of ``kind``, by default the one that works where pbem and the folder are (`pbem.units.unit_kind`)."""
    folder = folder.expanduser().resolve()
    config = folder / "config.toml"
    if config.exists():
        raise FolderError(f"{config} existe déjà\u00a0: pbem init n'écrase jamais un dossier de jeu "
                          "(choisissez un autre dossier, ou modifiez ce config.toml)",
                          f"{config} exists already: pbem init never overwrites a game folder "
                          "(choose another folder, or edit that config.toml)")
    if folder.exists() and not folder.is_dir():
        raise FolderError(f"{folder} est un fichier, pas un dossier", f"{folder} is a file, not a folder")
    made: list[Path] = []
    for sub in ("data", "templates", "systemd"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
    config.write_text((DATA / "config.toml").read_text(encoding="utf-8"), encoding="utf-8")
    made.append(config)
    for sample in SAMPLES:
        target = folder / "data" / sample
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(DATA / sample, target)
            made.append(target)
    command = pbem_command or installed_pbem()
    kind = kind or unit_kind(folder, command)
    made += write_units(folder, command, user, kind)
    made += copy_docs(folder / "docs")
    readme = folder / "LISEZMOI.md"
    readme.write_text(_README.format(folder=folder, pbem=command, cron=cron_line(folder, command),
                                     units=_UNITS_README[kind].format(folder=folder, user=user, pbem=command)),
                      encoding="utf-8")
    made.append(readme)
    return Made(folder, made)


def write_units(folder: Path, pbem: str | None = None, user: str = "pbem", kind: UnitKind | None = None) -> list[Path]:
    """The folder's ``systemd/`` units written (anew), of ``kind`` (by default, the one that works here)."""
    folder = folder.expanduser().resolve()
    command = pbem or installed_pbem()
    (folder / "systemd").mkdir(parents=True, exist_ok=True)
    made = []
    for name, text in systemd_units(folder, command, user, kind or unit_kind(folder, command)).items():
        (folder / "systemd" / name).write_text(text, encoding="utf-8")
        made.append(folder / "systemd" / name)
    return made


def installed_pbem() -> str:
    """The pbem executable that runs now (in the venv or pipx environment it was installed into)."""
    found = shutil.which("pbem")
    if found:
        return str(Path(found).resolve())
    return f"{sys.executable} -m pbem"


# --- the MJ's template overrides ---


def template_list(overrides: Path | None, game_id: str | None = None) -> list[tuple[str, bool]]:
    """Every packaged template, and whether the folder overrides it (for ``game_id``: that game's own
    override, ``templates/<game_id>/<name>``, or the folder's)."""
    folders = [f for f in (overrides / game_id if overrides is not None and game_id else None, overrides)
               if f is not None]
    return [(name, any((f / name).is_file() for f in folders)) for name in packaged_templates()]


def template_copy(name: str, overrides: Path, *, force: bool = False, game_id: str | None = None) -> Path:
    """Copy a packaged template into the folder's ``templates/`` to edit it there; with ``game_id``, into
    ``templates/<game_id>/``, where it changes that game's texts alone."""
    if game_id is not None:
        overrides = overrides / game_id
    name = name.strip().lstrip("/")
    source = TEMPLATES / name
    if ".." in Path(name).parts or not source.is_file():
        close = [n for n in packaged_templates() if n.endswith(Path(name).name) or Path(name).name in n][:3]
        hint_fr = (f" (vouliez-vous dire {join_list(close, 'fr', 'ou')}\u00a0?)" if close
                   else " (pbem templates list les montre)")
        hint = f" (did you mean {', '.join(close)}?)" if close else " (pbem templates list shows them)"
        raise FolderError(f"pbem n'a pas de gabarit «\u00a0{name}\u00a0»{hint_fr}", f"pbem has no template {name!r}{hint}")
    target = overrides / name
    if target.exists() and not force:
        raise FolderError(f"{target} existe déjà (modifiez-le, ou ajoutez --force pour repartir de celui de pbem)",
                          f"{target} exists already (edit it, or pass --force to start again from pbem's)")
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    return target


_README = """# Votre dossier de jeu pbem

Ce dossier contient tout ce qu'il faut pour mener des parties par courriel avec pbem :

- `config.toml` : la configuration, commentée. Par défaut la boîte du jeu est un Maildir local
  (`data/mail/inbox`) et les réponses vont dans un autre (`data/mail/outbox`) : rien ne part tant
  que vous n'avez pas configuré une vraie boîte (IMAP) et un serveur d'envoi (SMTP).
- `data/` : la base, les boîtes locales, les comptes rendus pour le forum, et les fiches d'exemple de 1626.
- `templates/` : vide. Un gabarit copié ici (`pbem templates copy common/ack.fr.j2`) remplace celui de
  pbem du même nom ; `pbem templates list` les montre tous, `pbem doctor` signale un gabarit cassé
  (pbem garde alors la dernière version qui marchait).
- `docs/` : le guide du MJ (`docs/guide-mj.md`) et la page de règles de chaque jeu (`docs/rules/`) ;
  `{pbem} guide` et `{pbem} guide pmb` les affichent aussi.
- `systemd/` : un service pour le démon (`pbem.service`), ou un service et un minuteur pour une passe
  toutes les cinq minutes (`pbem-tick.service`, `pbem-tick.timer`) ; `pbem doctor` vérifie qu'ils peuvent
  marcher, `pbem systemd` les réécrit (`--kind user` ou `--kind system`).

## La suite

1. Ouvrez `config.toml` : mettez l'adresse du jeu, décommentez une partie (`[games.…]`) et votre adresse de MJ.
2. Vérifiez : `{pbem} doctor`
3. Ouvrez les inscriptions : `{pbem} game new <partie>` (publiez sur le forum l'empreinte du tirage qu'il affiche).
4. Faites tourner pbem depuis ce dossier :
   - une passe (pour cron) : `cd {folder} && {pbem} tick`
   - ou le démon : `cd {folder} && {pbem} run`
   - avec cron, une passe toutes les cinq minutes (`crontab -e`, puis cette ligne ; cron ne connaît pas
     votre PATH, d'où le chemin complet de pbem) :

         {cron}

   - ou avec systemd : {units}

Pour essayer sans boîte de courriel : déposez un fichier `.eml` dans `data/mail/inbox/new/`, lancez
`{pbem} tick` et lisez la réponse dans `data/mail/outbox/new/`.
"""

_UNITS_README = {
    "user": """des unités « utilisateur » : pbem ou ce dossier est dans votre
     dossier personnel (pipx, un venv à vous), elles tournent donc sous votre nom, par votre systemd,
     sans sudo :

         mkdir -p ~/.config/systemd/user && cp {folder}/systemd/pbem.service ~/.config/systemd/user/
         systemctl --user daemon-reload && systemctl --user enable --now pbem
         loginctl enable-linger      # pour qu'il tourne aussi quand vous n'êtes pas connecté

     Le journal : `journalctl --user -u pbem`.
""",
    "system": """un service système, sous un utilisateur à lui ({user}), durci (il ne peut écrire
     que ce dossier) :

         sudo useradd --system --home-dir {folder} --shell /usr/sbin/nologin {user}
         sudo chown -R {user}: {folder}
         sudo cp {folder}/systemd/pbem.service /etc/systemd/system/
         sudo systemctl daemon-reload && sudo systemctl enable --now pbem

     Vos commandes de MJ tournent alors sous ce nom : `sudo -u {user} {pbem} game status`.
     Le journal : `journalctl -u pbem`.
""",
}
