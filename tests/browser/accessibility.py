"""WCAG 2 A/AA in the browser: axe-core (the tests' own npm dev dependency in tests/browser/axe/, installed by
`make axe`) runs on the page as drawn, shadow roots included, and every violation it finds fails the test."""

from __future__ import annotations

from pathlib import Path

AXE_JS = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")


def violations(page) -> list[dict]:
    """axe-core's violations of the WCAG 2.0 and 2.1 A/AA rules on the page as it is now."""
    if not AXE_JS.exists():
        raise FileNotFoundError(f"{AXE_JS} is missing: run `make axe` (npm ci in tests/browser/axe)")
    if page.evaluate("() => typeof window.axe") == "undefined":
        page.add_script_tag(path=str(AXE_JS))
    result = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", list(TAGS))
    return result["violations"]


def describe(found: list[dict]) -> str:
    """Each violation's rule id and help text, then each element it names: its selector, its HTML and why."""
    lines = []
    for violation in found:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"]:
            summary = " ".join(node.get("failureSummary", "").split())
            lines.append(f"  {' > '.join(map(str, node['target']))}\n    {node['html'][:100]}\n    {summary}")
    return "\n".join(lines)


def assert_accessible(page) -> None:
    found = violations(page)
    assert not found, f"axe-core found {len(found)} WCAG 2 A/AA violation(s):\n{describe(found)}"
