package dev.corelogic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The golden runner itself can fail: a file with wrong expectations is reported line by line. */
class GoldenRunnerTest {
    @Test
    void theRunnerReportsAWrongExpectation(@TempDir Path directory) throws Exception {
        Path wrong = directory.resolve("counter").resolve("wrong.json");
        Files.createDirectories(wrong.getParent());
        Files.writeString(wrong, """
                {"feature": "counter", "description": "wrong on purpose", "state": null,
                 "steps": [
                   {"send": "increment", "expect": {"status": "ok", "state": {"count": 2}}},
                   {"query": "isZero", "expect": {"status": "ok", "value": 0}},
                   {"deliver": {"effect": 1, "event": "increment"}, "expect": {"status": "ok"}}
                 ]}
                """);
        assertEquals(List.of(wrong), GoldenRunner.collect(directory));
        assertEquals(List.of(
                "step 1 (send): $.state.count: expected 2, got 1",
                "step 2 (query): $.value: expected 0, got false",
                "step 3 (deliver): status: expected \"ok\", got \"stale\""), GoldenRunner.runFile(wrong));
    }

    @Test
    void theComparatorFollowsTheSharedCases() {
        List<String> failures = new java.util.ArrayList<>();
        int[] counts = GoldenRunner.checkComparisons(Path.of("Examples", "Cookbook", "golden", "comparisons.json"), failures);
        assertEquals(List.of(), failures);
        assertEquals(true, counts[0] >= 10, "cases passed: " + counts[0]);
    }

    /** Tests/hosts/golden-edge: a file named passes-* passes and fails-* fails, as in the Swift and C runners. */
    @Test
    void edgeCasesGetTheSameVerdictAsTheOtherRunners() throws Exception {
        Path edge = Path.of("Tests", "hosts", "golden-edge");
        List<Path> files = GoldenRunner.collect(edge);
        assertEquals(true, files.size() >= 30, "edge cases found: " + files.size());
        for (Path file : files) {
            boolean passes = file.getFileName().toString().startsWith("passes-");
            List<String> failures = GoldenRunner.runFile(file);
            assertEquals(passes, failures.isEmpty(), file + ": " + failures);
        }
    }

    @Test
    void aStaleOrFailingStepMustLeaveTheStateAlone(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("counter").resolve("error.json");
        Files.createDirectories(file.getParent());
        Files.writeString(file, """
                {"feature": "counter", "description": "an error step", "state": {"count": 3},
                 "steps": [{"sendRaw": "{", "expect": {"status": "error:json", "error": "corelogic_system_send"}},
                           {"sendRaw": "{", "expect": {"status": "error:json", "error": "no such text"}}]}
                """);
        List<String> failures = GoldenRunner.runFile(file);
        assertEquals(1, failures.size(), failures.toString());
        assertEquals(true, failures.get(0).startsWith("step 2 (sendRaw): error: expected a message containing \"no such text\""));
    }
}
