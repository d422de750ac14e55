"""What the commands say when they stop (issue #25): every missing extra is named with its install command
exactly, every error is one ``Error: <message>`` line on stderr, and the printed commands can be run again."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from courtcards.cli import main as cli_main
from courtcards.cli import say
from courtcards.cli.main import EXTRAS, app, missing_extra
from courtcards.cli.play import setup_session

runner = CliRunner()


def error_line(args: list[str], code: int = 2) -> str:
    """The one line a refused command prints: on stderr, nothing of it on stdout."""
    res = runner.invoke(app, args, env={"COLUMNS": "60"})  # narrow: a long message must not be wrapped
    assert res.exit_code == code, res.output
    assert "Traceback" not in res.output and "Error" not in res.stdout, res.stdout
    (line,) = res.stderr.strip().splitlines()
    return line


def block(monkeypatch: pytest.MonkeyPatch, *modules: str) -> None:
    """As if the modules were not installed: importing them raises ModuleNotFoundError."""
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


# -- missing extras ---------------------------------------------------------------------------------------
def test_ladder_without_openskill_names_the_analysis_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    block(monkeypatch, "openskill", "openskill.models")
    line = error_line(["ladder", "rank", "--games", "2", "--workers", "1"])
    assert line == "Error: the ladder needs openskill: pip install 'courtcards[analysis]'"


def test_ladder_plot_without_matplotlib_names_the_analysis_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    block(monkeypatch, "matplotlib", "matplotlib.pyplot")
    line = error_line(["ladder", "rank", "--games", "2", "--workers", "1", "--plot", str(tmp_path / "l.png")])
    assert line == "Error: plots need matplotlib: pip install 'courtcards[analysis]'"


def test_analyze_plot_without_matplotlib_names_the_analysis_extra(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    block(monkeypatch, "matplotlib", "matplotlib.pyplot")
    for out in (["--plot", str(tmp_path / "p.png")], ["--html", str(tmp_path / "report")]):
        line = error_line(["analyze", "royale", "--games", "2", "--workers", "1", *out])
        assert line == "Error: plots need matplotlib: pip install 'courtcards[analysis]'"


def test_analyze_ray_without_ray_names_the_scale_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    block(monkeypatch, "ray")
    line = error_line(["analyze", "royale", "--games", "2", "--ray", "local"])
    assert line == "Error: --ray needs Ray: pip install 'courtcards[scale]'"


def test_serve_postgres_without_psycopg_names_the_postgres_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("sqlalchemy")
    block(monkeypatch, "psycopg", "psycopg2")
    line = error_line(["serve", "--port", "0", "--database-url", "postgresql+psycopg://u:p@127.0.0.1:1/db"])
    assert line == (
        "Error: PostgreSQL needs the psycopg driver: pip install 'courtcards[postgres]' "
        "(or pip install 'psycopg[binary]')"
    )


@pytest.mark.parametrize("module", sorted(EXTRAS))
def test_a_command_stopped_by_any_missing_extra_names_it(
    module: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def app_needing_it() -> None:
        raise ModuleNotFoundError(f"No module named {module!r}", name=f"{module}.sub")

    monkeypatch.setattr(cli_main, "app", app_needing_it)
    with pytest.raises(SystemExit) as stop:
        cli_main.main()
    assert stop.value.code == 2
    extra = EXTRAS[module]
    assert capsys.readouterr().err.strip().splitlines() == [
        f"Error: this command needs {module}, which comes with the {extra} extra: pip install 'courtcards[{extra}]'"
    ]


def test_ladder_needs_openskill_which_comes_with_analysis() -> None:
    fix = missing_extra(ModuleNotFoundError("No module named 'openskill'", name="openskill"))
    assert fix is not None and fix.endswith("pip install 'courtcards[analysis]'")


def test_the_error_helper_never_reads_markup(capsys: pytest.CaptureFixture[str]) -> None:
    say.error("[bold]x[/] needs pip install 'courtcards[analysis]' " + "long " * 40)
    err = capsys.readouterr().err
    assert err == "Error: [bold]x[/] needs pip install 'courtcards[analysis]' " + "long " * 40 + "\n"


# -- one style of error -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "args",
    [
        ["play", "rank", "--players", "99"],
        ["replay", "no-such-file.json"],
        ["simulate", "rank", "--bots", "nobody"],
        ["ladder", "rank", "--bots", "nobody"],
        ["tournament", "rank"],
        ["analyze", "rank", "--bots", "nobody"],
        ["serve", "--log-level", "loud"],
    ],
)
def test_every_command_refuses_with_one_error_line_on_stderr(args: list[str]) -> None:
    line = error_line(args)
    assert line.startswith("Error: ") and not line.startswith("Error: Error"), line


# -- commands printed to run again ---------------------------------------------------------------------------
def fake_bin(tmp_path: Path, name: str = "courtcards") -> Path:
    folder = tmp_path / ".venv" / "bin"
    folder.mkdir(parents=True)
    script = folder / name
    script.write_text("#!/bin/sh\n")
    script.chmod(0o755)
    return script


def test_program_is_the_path_launched_when_it_is_not_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = fake_bin(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "elsewhere"))
    monkeypatch.setattr(sys, "argv", [".venv/bin/courtcards", "play"])
    assert say.program() == ".venv/bin/courtcards"
    # activated (the venv's bin on PATH): the bare name runs it
    monkeypatch.setenv("PATH", str(script.parent))
    monkeypatch.setattr(sys, "argv", [str(script), "play"])
    assert say.program() == "courtcards"
    # a folder with a space is quoted for the shell
    spaced = tmp_path / "my games"
    spaced.mkdir()
    other = fake_bin(spaced)
    monkeypatch.setenv("PATH", str(tmp_path / "elsewhere"))
    monkeypatch.setattr(sys, "argv", [str(other), "play"])
    assert say.program() == f"'{other}'"


def test_program_run_as_a_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", [os.path.join("courtcards", "__main__.py"), "play"])
    assert say.program().endswith(" -m courtcards")


def test_quitting_prints_a_resume_command_that_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_bin(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "elsewhere"))
    monkeypatch.setattr(sys, "argv", [".venv/bin/courtcards", "play", "royale"])
    out = Console(file=io.StringIO(), width=40, color_system=None)
    session = setup_session(
        "royale", seed=2, console=out, input_fn=lambda _p: "quit", record=Path("records") / "g.json"
    )
    session.run()
    text = out.file.getvalue()  # type: ignore[attr-defined]
    assert "Continue it with: .venv/bin/courtcards play --resume records/g.json\n" in text


def test_readme_says_to_activate_before_its_first_bare_courtcards_command() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    lines = readme.splitlines()
    activate = next(i for i, line in enumerate(lines) if "source .venv/bin/activate" in line)
    in_sh, first_bare = False, None
    for i, line in enumerate(lines):
        if line.startswith("```"):
            in_sh = line.strip() == "```sh"
        elif in_sh and line.startswith("courtcards "):
            first_bare = i
            break
    assert first_bare is not None and activate < first_bare, (activate, first_bare)
    section = readme.split("## Playing in the terminal", 1)[1].split("\n## ", 1)[0]
    assert "source .venv/bin/activate" in section.split("courtcards play rank --players 5")[0]
