"""The terminal prompt: line editing, history and Tab completion (prompt_toolkit)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory


class WordsCompleter(Completer):
    """Completes the whole line to any of ``words()`` (the legal moves now, and the commands).

    Case does not matter; a line that already holds some cards completes to the moves that start with them.
    """

    def __init__(self, words: Callable[[], Iterable[str]]) -> None:
        self.words = words

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        typed = document.text_before_cursor
        low = " ".join(typed.lower().split()) + (" " if typed.endswith(" ") and typed.strip() else "")
        seen: set[str] = set()
        for word in self.words():
            if word in seen or not word.lower().startswith(low):
                continue
            seen.add(word)
            yield Completion(word, start_position=-len(typed))


def terminal_input(words: Callable[[], Iterable[str]], prompt: str) -> Callable[[str], str]:
    """A reader for ``PlaySession``: one prompt_toolkit session, so the history lasts the whole game."""
    session: PromptSession[str] = PromptSession(
        history=InMemoryHistory(), completer=WordsCompleter(words), complete_while_typing=False
    )

    def read(_markup_prompt: str) -> str:
        return session.prompt(prompt, in_thread=True)  # works even where an event loop runs

    return read
