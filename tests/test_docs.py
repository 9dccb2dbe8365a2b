"""Documentation generated from code must match the code."""
import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_rules_doc_is_current():
    spec = importlib.util.spec_from_file_location("rules_doc", REPO / "scripts" / "rules_doc.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert (REPO / "docs" / "rules.md").read_text(encoding="utf-8") == module.render(), \
        "docs/rules.md is stale: run python scripts/rules_doc.py"
