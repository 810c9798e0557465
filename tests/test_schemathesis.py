"""The API against its own OpenAPI document, through schemathesis, in-process over WSGI.

Each operation gets requests that follow the document (positive) and requests that break it
(negative); every response must be a non-5xx with a documented status code, content type and
body shape. Examples are fixed (derandomized) so a run is repeatable and quick.
"""
import pytest
from hypothesis import HealthCheck, given, settings

from webapp.calculators import CALCULATORS

schemathesis = pytest.importorskip("schemathesis")
from schemathesis import GenerationMode  # noqa: E402
from schemathesis.checks import (content_type_conformance, not_a_server_error,  # noqa: E402
                                 response_schema_conformance, status_code_conformance)

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
OPERATIONS = [("GET", "/api/search")] + [(api.method, api.path) for calc in CALCULATORS.values() for api in calc.apis]


@pytest.fixture(scope="module")
def api_schema(app):
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app)


def test_the_document_is_valid_openapi(api_schema):
    api_schema.validate()  # raises when the document breaks the OpenAPI 3.0 schema
    found = {(operation.ok().method.upper(), operation.ok().path) for operation in api_schema.get_all_operations()}
    assert found == set(OPERATIONS)


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=lambda m: m.value)
@pytest.mark.parametrize("method, path", OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_operation_conforms_to_the_document(api_schema, method, path, mode):
    operation = api_schema[path][method]

    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=30, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def check(case):
        # over WSGI nothing undoes a Content-Encoding: ask for plain bodies (test_http.py checks the packed ones)
        case.call_and_validate(headers={"Accept-Encoding": "identity"}, checks=CHECKS)

    check()
