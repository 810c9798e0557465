"""Before it serves, the app is warmed and frozen for the garbage collector (webapp/serving.py), by
`redbook serve` as by gunicorn's master (deploy/gunicorn.conf.py; its own test is in test_deploy.py).
How long requests and collector passes take is measured by bench/pauses.py, not asserted here."""
import gc
import re

import flask
import pytest
from click.testing import CliRunner

from webapp import create_app
from webapp.cli import main as redbook
from webapp.serving import GC_THRESHOLDS, ready_to_serve, warm_paths
from webapp.state import state_of


@pytest.fixture
def collector_restored():
    """gc.freeze() and the thresholds are the process's: put them back for the tests that follow."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_ready_to_serve_warms_every_calculator_and_freezes_the_app(tmp_path, collector_restored):
    app = create_app({"INSTANCE_PATH": str(tmp_path), "TRUSTED_HOSTS": ["rules.example.org"]})
    state = state_of(app)
    # every template was compiled when the app was created, each source's hash kept for the ETags
    assert set(state.templates) == set(app.jinja_env.list_templates())
    paths = warm_paths(app)
    assert {path.split("?")[0] for path in paths} >= {
        f"/{calc.game}/calc/{calc.slug}" for calc in state.calculators.values()}
    assert "/search?q=combat" in paths and "/api/search?q=combat" in paths
    before = gc.get_freeze_count()
    line = ready_to_serve(app)  # the warm requests go to a trusted host: none is refused
    frozen = gc.get_freeze_count() - before
    assert frozen > 100_000, frozen  # the loaded app, which no collector pass walks again
    assert gc.get_threshold() == GC_THRESHOLDS
    said = re.fullmatch(rf"ready to serve: {len(paths)} pages and (\d+) searches warmed, ([\d,]+) objects frozen "
                        rf"for the collector, thresholds \({', '.join(map(str, GC_THRESHOLDS))}\)", line)
    assert said and int(said.group(1)) >= 500 and int(said.group(2).replace(",", "")) >= frozen, line
    # still answers after it, the warmed caches included
    assert app.test_client().get(paths[-1], base_url="http://rules.example.org").status_code == 200


def test_redbook_serve_makes_the_app_ready_before_it_listens(monkeypatch, collector_restored):
    served = []

    def run(app, **options):  # stands in for the server loop only: it records what would be served
        served.append((gc.get_freeze_count(), gc.get_threshold(), options))

    monkeypatch.setattr(flask.Flask, "run", run)
    result = CliRunner().invoke(redbook, ["serve", "--port", "5055"])
    assert result.exit_code == 0, result.output
    assert "ready to serve: " in result.output
    [(frozen, thresholds, options)] = served
    assert frozen > 100_000 and thresholds == GC_THRESHOLDS
    assert options["port"] == 5055 and options["debug"] is False
