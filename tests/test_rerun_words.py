"""Publishing a correction of a step that is not the last resolved one is refused in the MJ's language."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from helpers import toy_config_toml

from pbem.cli import main


@pytest.mark.parametrize(("language", "said"), [
    ("fr", "Erreur\u00a0: l'étape 1 n'est pas la dernière étape résolue\u00a0: en publier une correction laisserait "
           "l'étape 2 calculée à partir de l'ancien état\u00a0; ne corrigez que la dernière."),
    ("en", "Error: step 1 is not the last resolved step; publishing a correction of it would leave step 2 computed "
           "from the old state. Correct the last step only."),
])
def test_a_correction_of_an_older_step_is_refused_in_the_mjs_language(tmp_path, language, said):
    cfg = tmp_path / "config.toml"
    cfg.write_text(toy_config_toml(tmp_path, top=f'language = "{language}"'), encoding="utf-8")
    runner = CliRunner()

    def run(*args: str, ok: bool = True) -> str:
        result = runner.invoke(main, ["--config", str(cfg), *args])
        assert (result.exit_code == 0) == ok, result.output
        return result.output

    run("game", "new", "toy1", "--now", "2026-12-01T10:00")
    for name in ("Arya", "Bran"):
        run("player", "add", "toy1", name, f"{name.lower()}@pbem.test", "--now", "2026-12-01T10:00")
    run("game", "start", "toy1", "--now", "2026-12-01T11:00")
    run("turn", "resolve", "toy1", "--now", "2026-12-01T12:00")
    run("turn", "resolve", "toy1", "--now", "2026-12-01T13:00")
    run("orders", "set", "toy1", "Bran", "GUESS 9", "--turn", "1")
    out = run("turn", "rerun", "toy1", "1", "--publish", "--now", "2026-12-01T14:00", ok=False)
    assert said in out, out
