"""What `changecost.py` prints: its table of figures, and a verdict for each target of the
issue, each ratio judged by the threads' schedstat."""
from __future__ import annotations

def find(results: list[dict], scenario: str, phones: int, rows: int | None = None) -> dict | None:
    for result in results:
        if (result["scenario"], result["phones"], result["rows"]) == (scenario, phones, rows):
            return result
    return None


def ratio_line(label: str, value: float | None, limit: float | None, unit: str = "x") -> str:
    if value is None:
        return f"  {label}: not measured"
    shown = f"{value:,.0f} B" if unit == "B" else f"{value:.2f}x"
    if limit is None:
        return f"  {label}: {shown}"
    bound = f"{limit:,.0f} B" if unit == "B" else f"{limit:g}x"
    verdict = "met" if value <= limit else "NOT MET"
    return f"  {label}: {shown} (target <= {bound}: {verdict})"


# The figure the verdicts compare: the CPU time from the threads' schedstat, in nanoseconds.
# The stat ticks' figure moves by whole ticks (10 ms), more than a move costs: over 20 moves
# its mean is off by a millisecond or so either way.
FIGURE = "sched_cpu_ms"


def verdicts(results: list[dict]) -> list[str]:
    go_big = find(results, "Go Big move", 6)
    sheet = find(results, "sheet entry", 12, 10)
    largest = find(results, "largest sheet entry", 20, 99)

    def against(result: dict | None) -> float | None:
        """Against the Go Big moves made alongside the sheet's entries, when there were."""
        if result and "go_big_alongside_sched_ms" in result:
            return result[FIGURE] / result["go_big_alongside_sched_ms"]
        return result[FIGURE] / go_big[FIGURE] if result and go_big else None

    lines = [ratio_line("sheet entry (12 phones, 10 rounds x 6) CPU / Go Big move (6 phones)",
                        against(sheet), 2),
             ratio_line("sheet entry: bytes to a phone that did not act",
                        sheet["phone_bytes"] if sheet else None, 4096, "B"),
             ratio_line("largest sheet entry (20 x 99 rounds x 20) CPU / Go Big move "
                        "(6 phones)", against(largest), 5)]
    for label, result in (("sheet entry (12 phones, 10 rounds)", sheet),
                          ("largest sheet entry", largest)):
        if result and "go_big_alongside_sched_ms" in result and go_big:
            lines.append(
                f"    ({label}: {result[FIGURE]:.1f} ms, against "
                f"{result['go_big_alongside_sched_ms']:.1f} ms per Go Big move made alongside "
                f"({result['go_big_alongside_changes']} moves); against the Go Big row: "
                f"{result[FIGURE] / go_big[FIGURE]:.2f}x)")
    by_phones = [find(results, "sheet entry", n, 10) for n in (2, 6, 12, 20)]
    by_rows = [find(results, "sheet entry", 12, n) for n in (1, 10, 99)]
    for label, row in (("CPU per entry against phones 2 / 6 / 12 / 20 (10 rounds)", by_phones),
                       ("CPU per entry against rows 1 / 10 / 99 (12 phones; 99: the 100th "
                        "open)", by_rows)):
        measured = [r for r in row if r]
        if not measured:
            continue
        first = measured[0][FIGURE]
        lines.append(f"  {label}: " + " / ".join(f"{r[FIGURE]:.1f}" for r in measured)
                     + " ms; against the first: "
                     + " / ".join(f"{r[FIGURE] / first:.2f}" for r in measured))
    if by_phones[0] and by_phones[3]:
        few, many = by_phones[0], by_phones[3]
        lines.append(f"    (per screen, phones + host + display: {many[FIGURE] / 22:.2f} ms "
                     f"at 20 phones, {few[FIGURE] / 4:.2f} ms at 2)")
    return lines


def print_table(results: list[dict]) -> None:
    print()
    print(f"{'scenario':<22} {'phones':>6} {'rows':>5} {'changes':>7} {'CPU ms/change':>13} "
          f"{'(schedstat)':>11} {'B to idle phone':>15} {'B to host':>10} "
          f"{'B to display':>12} {'others':>6}")
    for r in results:
        rows = "-" if r["rows"] is None else str(r["rows"])
        print(f"{r['scenario']:<22} {r['phones']:>6} {rows:>5} {r['changes']:>7} "
              f"{r['cpu_ms']:>13.1f} {r['sched_cpu_ms']:>11.1f} {r['phone_bytes']:>15,.0f} "
              f"{r['host_bytes']:>10,.0f} "
              f"{r['display_bytes']:>12,.0f} {r['others_share']:>6.0%}")
    print("(others: the share of the 2 cores other processes used during the changes)")
    print()
    print("Targets (CPU from schedstat):")
    for line in verdicts(results):
        print(line)
