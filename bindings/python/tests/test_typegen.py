"""``python -m corelogic.typegen``: typed Python, TypeScript and C from the
features' schemas (docs/schemas.md).

The generated code is checked by the tools its users run (mypy --strict, tsc,
a C compiler) and against the library: every golden state, event, request and
query value reads into the generated types and writes back to the same JSON.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any, Dict, Iterator, List, Tuple

import pytest

import corelogic
from corelogic import typegen
from conftest import PACKAGE_ROOT, REPOSITORY

GOLDEN = REPOSITORY / "Examples" / "Cookbook" / "golden"
FILES = sorted(GOLDEN.glob("*/*.json"))


@pytest.fixture(scope="module")
def features(library) -> List[str]:
    return [feature["name"] for feature in library.features()]


@pytest.fixture(scope="module")
def generated(library, features, tmp_path_factory) -> Path:
    """Every feature's files, in every language, in one directory."""
    directory = tmp_path_factory.mktemp("generated")
    for feature in features:
        for name, contents in typegen.generate(feature, library=library).items():
            (directory / name).write_text(contents, encoding="utf-8")
    return directory


def load(directory: Path, feature: str) -> ModuleType:
    name = f"generated_{feature}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, directory / f"{feature}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses looks the module up while building classes
    spec.loader.exec_module(module)
    return module


def run(command: List[str], cwd: Path, **env: str) -> subprocess.CompletedProcess:
    environment = dict(os.environ, **env)
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=environment, timeout=300)


def typegen_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return run([sys.executable, "-m", "corelogic.typegen", *args], cwd, PYTHONPATH=str(PACKAGE_ROOT))


# -- deterministic output ----------------------------------------------------------


def test_generation_is_deterministic(library, features, generated):
    for feature in features:
        again = typegen.generate(feature, library=library)
        for name, contents in again.items():
            assert (generated / name).read_text(encoding="utf-8") == contents, name


def test_check_with_all_reports_a_missing_schema(tmp_path):
    result = typegen_cli("--all", "--lang", "schema", "--out", str(tmp_path), "--check", cwd=tmp_path)
    assert result.returncode == 1 and "counter.schema.json is out of date" in result.stderr
    assert typegen_cli("--all", "--lang", "schema", "--out", str(tmp_path), cwd=tmp_path).returncode == 0
    assert typegen_cli("--all", "--lang", "schema", "--out", str(tmp_path), "--check", cwd=tmp_path).returncode == 0


def test_check_reports_a_stale_file(tmp_path):
    assert typegen_cli("counter", "--out", str(tmp_path), cwd=tmp_path).returncode == 0
    assert typegen_cli("counter", "--out", str(tmp_path), "--check", cwd=tmp_path).returncode == 0
    stale = tmp_path / "counter.py"
    stale.write_text(stale.read_text() + "# edited\n")
    result = typegen_cli("counter", "--out", str(tmp_path), "--check", cwd=tmp_path)
    assert result.returncode == 1
    assert "counter.py is out of date" in result.stderr


# -- bad input: one line, non-zero exit ----------------------------------------------


def test_unknown_feature_exits_non_zero_with_one_line(tmp_path):
    result = typegen_cli("nope", "--out", str(tmp_path), cwd=tmp_path)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "no feature named 'nope'" in lines[0] and "counter" in lines[0]
    assert list(tmp_path.iterdir()) == []


def test_unwritable_output_exits_non_zero_with_one_line(tmp_path):
    missing = tmp_path / "missing" / "dir"
    result = typegen_cli("counter", "--out", str(missing), cwd=tmp_path)
    assert result.returncode != 0
    assert len(result.stderr.strip().splitlines()) == 1 and "cannot write to" in result.stderr
    a_file = tmp_path / "file"
    a_file.write_text("")
    result = typegen_cli("counter", "--out", str(a_file), cwd=tmp_path)
    assert result.returncode != 0 and "cannot write to" in result.stderr


def test_unknown_language_exits_non_zero(tmp_path):
    result = typegen_cli("counter", "--lang", "cobol", "--out", str(tmp_path), cwd=tmp_path)
    assert result.returncode != 0 and "unknown language cobol" in result.stderr


# -- the tools users run accept the code ---------------------------------------------


def test_generated_python_passes_mypy_strict(generated, features):
    result = run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
                  "--cache-dir", str(generated / ".mypy_cache"), *[f"{f}.py" for f in features]], generated)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_rejects_wrong_use_of_generated_types(generated, tmp_path):
    shutil.copy(generated / "search.py", tmp_path / "search.py")
    (tmp_path / "use.py").write_text(textwrap.dedent("""
        from search import Search, State
        Search.QueryChanged(text=5)
        Search.QueryChanged(txt="swift")
        def stars(state: State) -> str:
            return state.items[0].stars
    """))
    result = run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary",
                  "--cache-dir", str(tmp_path / ".mypy_cache"), "use.py"], tmp_path)
    assert result.returncode == 1
    assert 'Argument "text" to "EventQueryChanged" has incompatible type "int"; expected "str"' in result.stdout
    assert 'Unexpected keyword argument "txt"' in result.stdout
    assert 'Incompatible return value type (got "int", expected "str")' in result.stdout


def _golden_values() -> Iterator[Tuple[str, str, str, Any]]:
    """(file, feature, kind, value): states, events and query values of the golden
    files the library accepted, and the requests of their start commands."""
    for path in FILES:
        scenario = json.loads(path.read_text(encoding="utf-8"))
        feature = scenario["feature"]
        if scenario.get("state") is not None:
            yield path.name, feature, "state", scenario["state"]
        for step in scenario["steps"]:
            expect = step["expect"]
            if expect["status"] != "ok":
                continue
            if "send" in step:
                yield path.name, feature, "event", step["send"]
            if "event" in step.get("deliver", {}):
                yield path.name, feature, "event", step["deliver"]["event"]
            if "state" in expect:
                yield path.name, feature, "state", expect["state"]
            if "query" in step and "value" in expect:
                yield path.name, feature, "query:" + step["query"], expect["value"]
            for command in expect.get("effects", []):
                if "start" in command:
                    yield path.name, feature, "request:" + command["start"]["feedback"], command["start"]["request"]


def _to_json(value: Any) -> Any:
    if hasattr(type(value), "to_json"):
        return value.to_json()
    if isinstance(value, list):
        return [_to_json(item) for item in value]
    return value


def _canonical(value: Any) -> Any:
    """The library's own form: members that are null left out."""
    if isinstance(value, dict):
        return {key: _canonical(item) for key, item in value.items() if item is not None}
    if isinstance(value, list):
        return [_canonical(item) for item in value]
    return value


def test_golden_values_round_trip_through_the_generated_types(generated):
    checked = 0
    for name, feature, kind, value in _golden_values():
        module = load(generated, feature)
        if kind == "state":
            typed = module.State.from_json(value)
        elif kind == "event":
            # Hosts may send either form of a payload-less case at any depth, so the
            # JSON need not come back byte for byte; the value must.
            typed = module.Event.from_json(value)
            assert module.Event.from_json(typed.to_json()) == typed, f"{name}: {kind}: {json.dumps(value)}"
            checked += 1
            continue
        elif kind.startswith("query:"):
            query = kind[len("query:"):]
            reader = getattr(module.Queries, typegen.snake(query))
            typed = reader(value)
            assert _to_json(typed) == _canonical(value), f"{name}: {kind}"
            checked += 1
            continue
        else:
            typed = module.request_from_json(kind[len("request:"):], value)
        assert typed.to_json() == _canonical(value), f"{name}: {kind}: {json.dumps(value)}"
        checked += 1
    assert checked > 300


def test_from_json_names_the_member_that_does_not_fit(generated):
    search = load(generated, "search")
    with pytest.raises(ValueError, match="text: expected a string, found int"):
        search.Event.from_json({"queryChanged": {"text": 5}})
    with pytest.raises(ValueError, match="unknown case 'nope'"):
        search.Event.from_json("nope")
    with pytest.raises(ValueError, match="missing member 'query'"):
        search.State.from_json({"items": []})


def test_generated_typescript_passes_tsc_and_accepts_golden_values(generated, features):
    if shutil.which("tsc") is None:
        pytest.fail("tsc not found: install Debian's node-typescript (.ci/run does)")
    lines = []
    for index, (name, feature, kind, value) in enumerate(_golden_values()):
        alias = f"F{features.index(feature)}"
        if kind == "state":
            declared = f"{alias}.FeatureState"
        elif kind == "event":
            declared = f"{alias}.FeatureEvent"
        elif kind.startswith("query:"):
            declared = f'{alias}.QueryValues["{kind[6:]}"]'
        else:
            declared = f'{alias}.Requests["{kind[8:]}"]'
        lines.append(f"export const v{index}: {declared} = {json.dumps(value)};")
    imports = [f'import * as F{i} from "./{feature}";' for i, feature in enumerate(features)]
    (generated / "golden.ts").write_text("\n".join(imports + lines) + "\n")
    (generated / "wrong.ts").write_text(
        'import * as S from "./search";\nexport const e: S.FeatureEvent = {"queryChanged": {"text": 5}};\n')
    ok = run(["tsc", "--noEmit", "--strict", *[f"{f}.d.ts" for f in features], "golden.ts"], generated)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    wrong = run(["tsc", "--noEmit", "--strict", "wrong.ts"], generated)
    assert wrong.returncode != 0 and "wrong.ts" in wrong.stdout


def test_generated_c_header_names_drive_the_library(generated, library, tmp_path):
    program = tmp_path / "names.c"
    program.write_text(textwrap.dedent(r"""
        #include <corelogic.h>
        #include "corelogic_counter.h"
        #include "corelogic_search.h"
        #include <stdio.h>
        #include <string.h>
        int main(void) {
            corelogic_system counter;
            char *value = NULL;
            if (corelogic_system_new(CORELOGIC_COUNTER_FEATURE, NULL, &counter, NULL) != CORELOGIC_OK) return 1;
            if (corelogic_system_send(counter, CORELOGIC_COUNTER_EVENT_INCREMENT_JSON, NULL) != CORELOGIC_OK) return 2;
            if (corelogic_system_query(counter, CORELOGIC_COUNTER_QUERY_IS_ZERO, &value) != CORELOGIC_OK) return 3;
            int ok = strcmp(value, "false") == 0
                && strcmp(CORELOGIC_SEARCH_FEEDBACK_LOAD_PAGE, "loadPage") == 0
                && strcmp(CORELOGIC_SEARCH_EVENT_QUERY_CHANGED, "queryChanged") == 0;
            corelogic_free(value);
            corelogic_system_free(counter);
            puts(ok ? "names ok" : "names wrong");
            return ok ? 0 : 4;
        }
    """))
    build = Path(library.path).parent
    compiled = run(["cc", "-std=c11", "-Wall", "-Wextra", "-Werror", f"-I{REPOSITORY / 'include'}", f"-I{generated}",
                    str(program), "-o", str(tmp_path / "names"), f"-L{build}", "-l" + Path(library.path).stem[3:],
                    f"-Wl,-rpath,{build}"], tmp_path)
    assert compiled.returncode == 0, compiled.stderr
    result = run([str(tmp_path / "names")], tmp_path)
    assert result.returncode == 0 and result.stdout.strip() == "names ok", result.stdout + result.stderr


# -- the binding takes and gives typed values ----------------------------------------


def test_system_accepts_typed_events_and_state_and_hands_back_typed_state(generated, library):
    search = load(generated, "search")
    with corelogic.System("search", library=library) as typed, corelogic.System("search", library=library) as plain:
        typed_batch = typed.send(search.Search.QueryChanged(text="swift"))
        plain_batch = plain.send({"queryChanged": {"text": "swift"}})
        assert typed_batch == plain_batch
        assert typed.send(search.Search.ReachedBottom()) == plain.send("reachedBottom")
        state = typed.state_as(search.State)
        assert isinstance(state, search.State) and state.query == "swift"
        assert state.to_json() == plain.state
    start = search.State(query="rust", items=[], shouldLoadNextPage=True, nextURL="/p1")
    with corelogic.System("search", start, library=library) as system:
        assert system.state_as(search.State) == start
        (command,) = system.initial_batch.effects
        request = search.request_from_json(command["start"]["feedback"], command["start"]["request"])
        assert request == search.PageRequest(url="/p1")


def test_runner_hands_typed_requests_to_handlers(generated, library):
    playcatch = load(generated, "playcatch")
    seen: List[Any] = []
    with corelogic.System("playcatch", library=library) as system, corelogic.ThreadRunner(system) as runner:

        @runner.effect(playcatch.Feedbacks.THROW_TIMER, request=playcatch.TimerRequest)
        def timer(request):
            seen.append(request)
            return playcatch.Playcatch.MachineThrows()

        runner.start()
        runner.send(playcatch.Playcatch.HumanThrows())
        state = runner.run_until(lambda s: s["throwCount"] == 2, timeout=10)
    assert seen == [playcatch.TimerRequest(seconds=1)]
    assert playcatch.State.from_json(state) == playcatch.State(ball="human", throwCount=2)


def test_async_runner_hands_typed_requests_to_handlers(generated, library):
    import asyncio

    playcatch = load(generated, "playcatch")
    seen: List[Any] = []

    async def scenario() -> Any:
        with corelogic.System("playcatch", library=library) as system:
            runner = corelogic.AsyncRunner(system)

            @runner.effect(playcatch.Feedbacks.THROW_TIMER, request=playcatch.TimerRequest)
            async def timer(request):
                seen.append(request)
                return playcatch.Playcatch.MachineThrows()

            async with runner:
                runner.send(playcatch.Playcatch.HumanThrows())
                return await runner.run_until(lambda s: s["throwCount"] == 2, timeout=10)

    state = asyncio.run(scenario())
    assert seen == [playcatch.TimerRequest(seconds=1)]
    assert playcatch.State.from_json(state) == playcatch.State(ball="human", throwCount=2)


# -- Swift: the library's direct JSON conformances -----------------------------------


def _swift_schema(defs: Dict[str, Any]) -> typegen.Schema:
    document = {"$defs": {"state": {"$ref": "#/$defs/Demo.State"}, "event": {"$ref": "#/$defs/Demo.Event"}, **defs}}
    return typegen.Schema("demo", document, {"events": [], "feedbacks": [], "queries": []})


def test_swift_conformances_follow_the_schema_members_in_order():
    source = typegen.swift_direct(_swift_schema({
        "Demo.State": {"type": "object", "properties": {"default": {"type": "string"}, "note": {"type": "string"}},
                       "required": ["default"]},
        "Demo.Event": {"oneOf": [
            {"type": "object", "properties": {"wrapped": {"type": "object", "properties": {"_0": {"type": "integer"}},
                                                          "required": ["_0"]}}},
            {"type": "object", "properties": {"tick": {"type": "object", "properties": {}}}},
            {"type": "string", "enum": ["tick"]}]},
    }))
    # A keyword member is escaped; a member absent from "required" is optional.
    assert "try out.field(\"default\", `default`)" in source
    assert "`default`: try input.field(\"default\")," in source
    assert "note: try input.optionalField(\"note\"))" in source
    # An unlabeled associated value (`_0`) is bound and passed by position.
    assert "case .wrapped(let value0):" in source
    assert "value = .wrapped(try input.field(\"_0\"))" in source
    assert "case .tick: out.payloadlessCase(\"tick\")" in source
    assert source.index("extension Demo.State") < source.index("extension Demo.Event")


def test_swift_generator_refuses_a_member_swift_cannot_name():
    schema = _swift_schema({
        "Demo.State": {"type": "object", "properties": {"a-b": {"type": "string"}}, "required": ["a-b"]},
        "Demo.Event": {"oneOf": [{"type": "string", "enum": ["tick"]}]},
    })
    with pytest.raises(typegen.TypegenError, match="'a-b' is not a Swift identifier"):
        typegen.swift_direct(schema)


@pytest.fixture(scope="module")
def generated_java(library, features, tmp_path_factory) -> Path:
    """Every feature's Java file, in package ``app.types``, compiled as a user compiles it."""
    if shutil.which("javac") is None:
        pytest.fail("javac not found: install Debian's default-jdk-headless (make setup does)")
    directory = tmp_path_factory.mktemp("java")
    for feature in features:
        for name, contents in typegen.generate(feature, ["java"], library, java_package="app.types").items():
            (directory / name).write_text(contents, encoding="utf-8")
    sources = sorted(path.name for path in directory.glob("*.java"))
    compiled = run(["javac", "-Xlint:all", "-Werror", "-d", "classes", *sources], directory)
    (directory / "javac.txt").write_text(f"{compiled.returncode}\n{compiled.stdout}{compiled.stderr}")
    return directory


def _java_literal(value: Any) -> str:
    """A Java expression building ``value`` as the JVM binding's JSON values."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "Boolean.TRUE" if value else "Boolean.FALSE"
    if isinstance(value, int):
        return f"Long.valueOf({value}L)"
    if isinstance(value, float):
        return f"Double.valueOf({value!r})"
    if isinstance(value, str):
        return json.dumps(value)  # a JSON string with ASCII escapes is a Java string literal
    if isinstance(value, list):
        return "l(" + ", ".join(_java_literal(item) for item in value) + ")"
    return "m(" + ", ".join(f"{json.dumps(key)}, {_java_literal(item)}" for key, item in value.items()) + ")"


def test_generated_java_compiles_with_every_lint_as_an_error(generated_java):
    status, output = (generated_java / "javac.txt").read_text().split("\n", 1)
    assert status == "0", output
    assert (generated_java / "classes" / "app" / "types" / "Search$Event$QueryChanged.class").exists()


def test_javac_rejects_wrong_use_of_generated_java_types(generated_java, tmp_path):
    (tmp_path / "Wrong.java").write_text(textwrap.dedent("""
        import app.types.Search;
        class Wrong {
            Object event = new Search.Event.QueryChanged(5);
            String stars(Search.State state) { return state.items().get(0).stars(); }
        }
        final class Elsewhere implements Search.LoadError {
            public Object toJson() { return "elsewhere"; }
        }
    """))
    result = run(["javac", "-d", str(tmp_path), "-cp", str(generated_java / "classes"), "Wrong.java"], tmp_path)
    assert result.returncode != 0
    assert "incompatible types: int cannot be converted to String" in result.stderr
    assert "incompatible types: long cannot be converted to String" in result.stderr
    assert "class is not allowed to extend sealed class: LoadError" in result.stderr


def test_golden_values_round_trip_through_the_generated_java_types(generated_java, features):
    """Each golden state, event, request and query value is read into the Java types and
    written back; Python compares what comes back with the library's JSON."""
    java = typegen._Java
    cases: List[str] = []
    values: List[Tuple[str, str, Any]] = []
    for index, (name, feature, kind, value) in enumerate(_golden_values()):
        schema_document = json.loads((REPOSITORY / "Examples" / "Cookbook" / "schemas" / f"{feature}.schema.json").read_text())
        outer = typegen.java_class_name(feature)
        if kind == "state":
            expression = f"{outer}.stateFromJson(v).toJson()"
        elif kind == "event":
            # Either form of a payload-less case may be sent, at any depth, so the JSON need
            # not come back byte for byte; the value read back must equal the value.
            expression = f"{outer}.eventFromJson({outer}.eventFromJson(v).toJson()).equals({outer}.eventFromJson(v))"
        else:
            entry, item = kind.split(":", 1)
            node = schema_document["$defs"][f"{entry}.{item}"]
            holder = "Queries" if entry == "query" else "Requests"
            schema = typegen.Schema(feature, schema_document, {"events": [], "feedbacks": [], "queries": []})
            typed = f"{outer}.{holder}.{typegen.java_identifier(item)}(v)"
            expression = java(schema, "app.types").encode(node, "t")
            expression = f"((java.util.function.Function<Object, Object>) (x -> {{ var t = {typed}; return {expression}; }})).apply(null)"
        cases.append(f"            case {index} -> {{ Object v = {_java_literal(value)}; yield {expression}; }}")
        values.append((name, kind, value))
    harness = textwrap.dedent("""
        import app.types.*;
        import java.util.*;
        class RoundTrip {
            static Map<String, Object> m(Object... pairs) {
                Map<String, Object> map = new LinkedHashMap<>();
                for (int i = 0; i < pairs.length; i += 2) map.put((String) pairs[i], pairs[i + 1]);
                return map;
            }
            static List<Object> l(Object... items) { return Arrays.asList(items); }
            static <T> List<Object> encodeList(List<T> values, java.util.function.Function<T, Object> write) {
                List<Object> out = new ArrayList<>();
                for (T value : values) out.add(value == null ? null : write.apply(value));
                return out;
            }
            static void write(Object value, StringBuilder out) {
                if (value == null || value instanceof Boolean || value instanceof Number) { out.append(value); return; }
                if (value instanceof String s) { out.append('"');
                    for (char c : s.toCharArray()) out.append(c == '"' || c == '\\\\' ? "\\\\" + c : c < 0x20 || c > 0x7e ? String.format("\\\\u%04x", (int) c) : String.valueOf(c));
                    out.append('"'); return; }
                if (value instanceof List<?> list) { out.append('['); String sep = "";
                    for (Object item : list) { out.append(sep); write(item, out); sep = ","; } out.append(']'); return; }
                out.append('{'); String sep = "";
                for (Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) { out.append(sep); write(e.getKey(), out); out.append(':'); write(e.getValue(), out); sep = ","; }
                out.append('}');
            }
            static Object value(int index) {
                return switch (index) {
        CASES
                    default -> throw new IllegalStateException();
                };
            }
            public static void main(String[] args) {
                for (int i = 0; i < COUNT; i++) { StringBuilder out = new StringBuilder(); write(value(i), out); System.out.println(out); }
            }
        }
    """).replace("CASES", "\n".join(cases)).replace("COUNT", str(len(cases)))
    (generated_java / "RoundTrip.java").write_text(harness)
    compiled = run(["javac", "-d", "classes", "-cp", "classes", "RoundTrip.java"], generated_java)
    assert compiled.returncode == 0, compiled.stderr[-3000:]
    ran = run(["java", "-cp", "classes", "RoundTrip"], generated_java)
    assert ran.returncode == 0, ran.stderr[-3000:]
    lines = ran.stdout.splitlines()
    assert len(lines) == len(values) > 300
    for line, (name, kind, value) in zip(lines, values):
        written = json.loads(line)
        if kind == "event":
            assert written is True, f"{name}: {kind}: {json.dumps(value)}"
        else:
            assert written == _canonical(value), f"{name}: {kind}: {json.dumps(value)}"


def test_java_package_must_be_a_java_package_name(tmp_path):
    result = typegen_cli("counter", "--lang", "java", "--java-package", "app.class", "--out", str(tmp_path), cwd=tmp_path)
    assert result.returncode == 1
    assert "--java-package app.class: not a Java package name" in result.stderr
    assert not list(tmp_path.iterdir())
