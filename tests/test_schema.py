"""The run record and the saved results, defined once (data/results.schema.json): the schema is valid JSON Schema,
and the jsonschema library and the kit's own checker (course.record.Schema, SchemaTest) give the same verdict on one
table of documents (tests/schema_cases.json). The harnesses' output is held to it wherever a test runs a snippet
(conftest.rows), and each lab's saved results in the notebook test."""
import copy
import json

import jsonschema
import pytest

from conftest import HOME, SAVED_RESULTS, SCHEMA

TABLE = json.loads((HOME / "tests/schema_cases.json").read_text())


def changed(base, case):
    """The base document with the case's change made: set path to a value, or remove it."""
    doc = copy.deepcopy(base)
    if not case["path"]:
        return case.get("set", doc)
    *outer, last = case["path"]
    target = doc
    for key in outer:
        target = target[key]
    if case.get("remove"):
        del target[last]
    else:
        target[last] = case["set"]
    return doc


def test_the_schema_is_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("case", TABLE["cases"], ids=[c["why"] for c in TABLE["cases"]])
def test_jsonschema_agrees_with_the_table(case):
    assert SAVED_RESULTS.is_valid(changed(TABLE["base"], case)) == case["valid"]


def test_the_table_has_both_answers():
    assert {c["valid"] for c in TABLE["cases"]} == {True, False}
