"""``courtcards agent``: an external program plays a seat of a server table."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from websockets.exceptions import ConnectionClosed

from courtcards.agents.text import CommandAgent, play_table
from courtcards.cli.say import fail
from courtcards.core.errors import CourtcardsError


def register(app: typer.Typer) -> None:
    @app.command()
    def agent(
        table: Annotated[str, typer.Option("--table", help="http://HOST:PORT/table/ID or a join link.")],
        command: Annotated[str, typer.Option("--command", help="The agent program: prompt on stdin, move on stdout.")],
        seat: Annotated[int | None, typer.Option("--seat", help="Seat to join (default: the link's, or free).")] = None,
        token: Annotated[str | None, typer.Option("--token", help="Play the seat of this token (resume).")] = None,
        name: Annotated[str, typer.Option("--name", help="The name shown at the table.")] = "agent",
        retries: Annotated[int, typer.Option("--retries", min=0, help="Asks again after a refused move.")] = 3,
        rules: Annotated[str, typer.Option("--rules", help="Rules in the prompt: brief or full.")] = "brief",
        timeout: Annotated[float, typer.Option("--timeout", help="Seconds the program may take per decision.")] = 300.0,
    ) -> None:
        """Join a server table and let an external program play the seat, one run per decision."""
        try:
            last = play_table(
                table,
                CommandAgent(command, timeout),
                seat=seat,
                token=token,
                name=name,
                max_retries=retries,
                rules=rules,
                log=typer.echo,
            )
        except CourtcardsError as exc:
            raise fail(str(exc), 1) from None
        except ConnectionClosed as exc:
            raise fail(f"the connection was lost ({exc}); resume the seat with --token", 1) from None
        except OSError as exc:
            raise fail(f"cannot reach the server of {table}: {getattr(exc, 'reason', exc)}", 1) from None
        typer.echo(f"game over at version {last['version']}: " + json.dumps(last["result"]))
