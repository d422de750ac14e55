"""Plots (matplotlib, the ``[analysis]`` extra) and the self-contained HTML report.

Files are written to a temporary name in the target folder and renamed into
place, so an interrupted run never leaves a half-written file under the real name.
"""

from __future__ import annotations

import base64
import html
import io
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from courtcards.analysis.report import LENGTH, Figure, Report, figure_keys, title, to_csv, to_json
from courtcards.core.errors import CourtcardsError


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise CourtcardsError("plots need matplotlib: pip install 'courtcards[analysis]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def check_writable(path: Path, folder: bool = False) -> None:
    """Fail now, before any game is played, if ``path`` (a file, or a folder to create) cannot be written."""
    parent = path.parent if not folder or not path.exists() else path
    what = "folder" if folder else "file"
    if folder and path.exists() and not path.is_dir():
        raise CourtcardsError(f"cannot write the report folder {path}: it is a file")
    if not folder and path.is_dir():
        raise CourtcardsError(f"cannot write the file {path}: it is a folder")
    if not parent.is_dir():
        raise CourtcardsError(f"cannot write the {what} {path}: folder {parent} does not exist")
    try:
        with tempfile.NamedTemporaryFile(dir=parent, prefix=".courtcards-check-"):
            pass
    except OSError as exc:
        raise CourtcardsError(f"cannot write the {what} {path}: {exc.strerror or exc}") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: Path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename."""
    raw = data.encode() if isinstance(data, str) else data
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(raw)
            os.chmod(tmp, 0o666 & ~_umask())  # as an ordinary new file, not mkstemp's 0600
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise CourtcardsError(f"cannot write {path}: {exc.strerror or exc}") from None


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    _pyplot().close(fig)
    return buf.getvalue()


def length_histogram(values: Sequence[int], name: str, heading: str) -> bytes:
    """A histogram of one game-length measure, as PNG bytes."""
    if not values:
        raise CourtcardsError("no games to plot")
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.6))
    lo, hi = min(values), max(values)
    bins: Any = [v - 0.5 for v in range(lo, hi + 2)] if hi - lo <= 60 else 60  # integer bins, centred
    ax.hist(values, bins=bins, color="#4670be", edgecolor="white", linewidth=0.4)
    ax.set_title(heading)
    ax.set_xlabel(f"{name} per game")
    ax.set_ylabel("games")
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.xaxis.get_major_locator().set_params(integer=True)
    return _png(fig)


def _errors(figs: Sequence[Figure]) -> list[list[float]]:
    # max(0, ...): a Wilson bound at 0 or 1 may sit a rounding error inside the value
    return [
        [max(0.0, f.value - (f.low if f.low is not None else f.value)) for f in figs],
        [max(0.0, (f.high if f.high is not None else f.value) - f.value) for f in figs],
    ]


def _scale(figs: Sequence[Figure]) -> float:
    return 100.0 if figs and figs[0].kind == "rate" else 1.0


def section_bars(report: Report, section: str, kind: str) -> bytes:
    """Horizontal bars of one section's figures of one kind with their 95% intervals (and the even share)."""
    figs = [f for f in report.figures if f.section == section and f.kind == kind]
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(figs) + 1.4))
    k = _scale(figs)
    ys = range(len(figs))
    ax.barh(
        ys,
        [k * f.value for f in figs],
        xerr=[[k * e for e in row] for row in _errors(figs)],
        color="#4670be",
        ecolor="black",
        capsize=3,
    )
    ax.set_yticks(list(ys), [f.name for f in figs])
    ax.invert_yaxis()
    fair = {f.fair for f in figs if f.fair is not None}
    if len(fair) == 1:
        ax.axvline(k * fair.pop(), color="#c0392b", linestyle="--", label="even share")
        ax.legend(loc="lower right")
    ax.set_title(f"{section} (95% CI)\n{title(report)}", fontsize=9)
    ax.set_xlabel("percent" if k == 100 else "value")
    return _png(fig)


def _unit(f: Figure) -> str:
    """A panel's axis label: rates in percent, a length in its own unit, other means as named."""
    if f.kind == "rate":
        return "percent"
    head = f.name.split(":")[0]
    return head if f.section == LENGTH else "mean"


def sweep_lines(reports: Sequence[Report], section: str) -> bytes:
    """One section's figures across the combinations of a sweep: small multiples, one panel per figure on its
    own axis and unit, with 95% intervals and the even share where there is one."""
    from courtcards.analysis.verdict import label

    keys = [key for key in figure_keys(reports) if key[0] == section]
    series = []
    for key in keys:
        figs = [next((f for f in r.figures if f.key == key), None) for r in reports]
        points = [(x, f) for x, f in enumerate(figs) if f is not None and f.kind != "quantile"]
        if points:
            series.append((key[1], points))
    plt = _pyplot()
    cols = min(3, max(1, len(series)))
    rows = max(1, -(-len(series) // cols))
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 2.9 * rows), squeeze=False)
    labels = [label(r) for r in reports]
    xs = list(range(len(reports)))
    for ax, (name, points) in zip(axes.flat, series, strict=False):
        first = points[0][1]
        k = 100.0 if first.kind == "rate" else 1.0
        errs = _errors([f for _, f in points])
        ax.errorbar(
            [x for x, _ in points],
            [k * f.value for _, f in points],
            yerr=[[k * e for e in row] for row in errs],
            marker="o",
            capsize=3,
            color="#4670be",
        )
        fair = {f.fair for _, f in points if f.fair is not None}
        if len(fair) == 1:
            ax.axhline(k * fair.pop(), color="#c0392b", linestyle="--", linewidth=1, label="even share")
            ax.legend(fontsize=6, loc="best")
        ax.set_title(name if len(name) <= 45 else name[:44] + "...", fontsize=8)
        ax.set_ylabel(_unit(first), fontsize=7)
        ax.set_xticks(xs, labels, rotation=30, ha="right", fontsize=6)
        ax.tick_params(axis="y", labelsize=7)
        ax.set_xlim(-0.5, len(xs) - 0.5)
    for ax in list(axes.flat)[len(series) :]:
        ax.set_visible(False)
    fig.suptitle(f"{section} across the combinations (95% CI)", fontsize=10)
    fig.tight_layout()
    return _png(fig)


def _img(png: bytes, alt: str) -> str:
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{base64.b64encode(png).decode()}">'


def _table(reports: Sequence[Report]) -> str:
    from courtcards.analysis.verdict import label

    if len(reports) == 1:  # one run: value, interval, n, even share and test, as in the terminal
        rows = []
        for f in reports[0].figures:
            even = "" if f.fair is None else f"{100 * f.fair:.1f}%"
            p = "" if f.p is None else f"{f.p:.2g} (Holm {f.p_holm:.2g})" if f.p_holm is not None else f"{f.p:.2g}"
            cells = [f.section, f.name, f.text(), str(f.n), even, p]
            rows.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
        return (
            "<table><tr><th>section</th><th>figure</th><th>value [95% CI]</th><th>n</th><th>even</th>"
            f"<th>p (exact binomial against the even share)</th></tr>{''.join(rows)}</table>"
        )
    heads = "".join(f"<th>{html.escape(label(r))}</th>" for r in reports)
    rows = []
    for key in figure_keys(reports):
        cells = []
        for r in reports:
            g = next((f for f in r.figures if f.key == key), None)
            cells.append("<td></td>" if g is None else f"<td>{html.escape(g.text())} (n {g.n})</td>")
        rows.append(f"<tr><td>{html.escape(key[0])}</td><td>{html.escape(key[1])}</td>{''.join(cells)}</tr>")
    return f"<table><tr><th>section</th><th>figure</th>{heads}</tr>{''.join(rows)}</table>"


def _differences(reports: Sequence[Report]) -> str:
    from courtcards.analysis.verdict import all_differences, label

    heads = "".join(f"<th>{html.escape(label(r))}</th>" for r in reports[1:])
    diffs = all_differences(reports)
    rows = []
    for key in figure_keys(reports):
        found = [next((d for d in ds if (d.section, d.name) == key), None) for ds in diffs]
        if all(d is None for d in found):
            continue
        cells = "".join(
            "<td></td>"
            if d is None
            else f"<td{' class=changed' if d.changed else ''}>{html.escape(d.text())}{' *' if d.changed else ''}</td>"
            for d in found
        )
        rows.append(f"<tr><td>{html.escape(key[0])}</td><td>{html.escape(key[1])}</td>{cells}</tr>")
    return (
        f"<h2>Differences from {html.escape(label(reports[0]))}</h2><p>Each figure minus the baseline's, with its 95% "
        "interval and p-value (rates: two-proportion z test, Newcombe interval, in percentage points; means: "
        "Welch's t test); * marks a significant change after Holm's correction over the figures compared.</p>"
        f"<table><tr><th>section</th><th>figure</th>{heads}</tr>{''.join(rows)}</table>"
    )


def _verdict(reports: Sequence[Report]) -> str:
    from courtcards.analysis.verdict import opening

    items = "".join(
        f"<li{' class=warning' if s.startswith('Warning') else ''}>{html.escape(s)}</li>" for s in opening(reports)
    )
    return f"<h2>Verdict</h2><ul class=verdict>{items}</ul>"


def html_report(reports: Sequence[Report], command: str) -> str:
    """The report page, its plots embedded (one file, no other requests)."""
    first = reports[0]
    sections = [s for s in dict.fromkeys(k[0] for k in figure_keys(reports)) if s != LENGTH]
    plots = []
    if len(reports) == 1:
        for name, values in first.lengths.items():
            plots.append(
                _img(length_histogram(values, name, f"Game length in {name}\n{title(first)}"), f"{name} histogram")
            )
        for s in sections:
            kinds = dict.fromkeys(f.kind for f in first.figures if f.section == s and f.kind != "quantile")
            plots += [_img(section_bars(first, s, kind), f"{s} ({kind}s)") for kind in kinds]
    else:
        plots += [_img(sweep_lines(reports, s), s) for s in [LENGTH, *sections]]
    style = (
        "body{font-family:sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse;font-size:90%}"
        "td,th{border:1px solid #ccc;padding:2px 6px;text-align:left}img{display:block;margin:1em 0;"
        "max-width:100%}.warning{color:#b00;font-weight:bold}td.changed{background:#fde8c8}"
    )
    from courtcards.analysis.verdict import label

    def options_of(r: Report) -> str:
        return ", ".join(f"{k}={v}" for k, v in r.options.items())

    opts = html.escape(options_of(first))
    if len(reports) > 1:  # every combination named with all its options
        runs = "".join(
            f"<li><b>{html.escape(label(r))}</b>: {html.escape(r.spec.game)}, {r.spec.num_players} players, "
            f"{html.escape(options_of(r))}</li>"
            for r in reports
        )
        opts += f"</p><p>runs (the first is the baseline):</p><ul>{runs}</ul><p>"
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title(first))}</title>"
        f"<style>{style}</style></head><body><h1>courtcards analysis: {html.escape(first.spec.game)}</h1>"
        f"{_verdict(reports)}"
        f"<p>{html.escape(title(first))}<br>options: {opts}</p>"
        f"<p>command: <code>{html.escape(command)}</code></p>"
        "<p>Values with 95% confidence intervals: Wilson for rates, Student's t for means. "
        "report.json and figures.csv in this folder hold every figure.</p>"
        f"{_table(reports)}{_differences(reports) if len(reports) > 1 else ''}"
        f"<h2>Plots</h2>{''.join(plots)}</body></html>"
    )


def write_html(folder: Path, page: str, reports: Sequence[Report]) -> None:
    """index.html (``page``), report.json and figures.csv into ``folder``, all written before any is moved in."""
    check_writable(folder, folder=True)
    parent = folder.parent if not folder.exists() else folder
    tmp = Path(tempfile.mkdtemp(dir=parent, prefix=".courtcards-report-"))
    try:
        (tmp / "report.json").write_text(to_json(reports))
        (tmp / "figures.csv").write_text(to_csv(reports))
        (tmp / "index.html").write_text(page)
        tmp.chmod(0o777 & ~_umask())
        if not folder.exists():
            tmp.rename(folder)
            return
        for name in ("report.json", "figures.csv", "index.html"):  # the page last: it names the others
            os.replace(tmp / name, folder / name)
    except OSError as exc:
        raise CourtcardsError(f"cannot write the report folder {folder}: {exc.strerror or exc}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
