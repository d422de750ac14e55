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


class TerminalReader:
    """A reader for ``PlaySession``: one prompt_toolkit session, so the history lasts the whole game."""

    def __init__(self, words: Callable[[], Iterable[str]], prompt: str) -> None:
        self.prompt = prompt
        self.session: PromptSession[str] = PromptSession(
            history=InMemoryHistory(), completer=WordsCompleter(words), complete_while_typing=False
        )

    def __call__(self, _markup_prompt: str) -> str:
        return self.session.prompt(self.prompt, in_thread=True)  # works even where an event loop runs

    @property
    def line(self) -> str:
        """The line as typed so far (the prompt's buffer)."""
        return self.session.default_buffer.text


def terminal_input(words: Callable[[], Iterable[str]], prompt: str) -> TerminalReader:
    return TerminalReader(words, prompt)
