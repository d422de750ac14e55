"""Designer analytics: balance reports from bot-versus-bot games (``courtcards analyze``).

:mod:`.observe` reads each finished game's record and spectator views into
:class:`~.observe.GameFacts`; :mod:`.runner` plays seeded batches locally or
on Ray and builds option sweeps; :mod:`.report` totals the facts into figures
with 95% confidence intervals (:mod:`.stats`); :mod:`.plots` draws them with
matplotlib and writes the HTML report.
"""

from courtcards.analysis.observe import GameFacts, observe
from courtcards.analysis.report import Figure, Report, summarize
from courtcards.analysis.runner import RunSpec, build_specs, run_facts

__all__ = ["Figure", "GameFacts", "Report", "RunSpec", "build_specs", "observe", "run_facts", "summarize"]
