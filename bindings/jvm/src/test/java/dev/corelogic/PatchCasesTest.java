package dev.corelogic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/** Tests/hosts/patch_cases.json: the cases every host's patch applier follows, here StateMirror's. */
class PatchCasesTest {
    @TestFactory
    Stream<DynamicTest> theApplierFollowsTheSharedCases() throws IOException {
        Object file = Json.parse(Files.readString(Path.of("Tests", "hosts", "patch_cases.json")));
        List<?> cases = (List<?>) Json.object(file).get("cases");
        return cases.stream().map(Json::object).map(test -> DynamicTest.dynamicTest((String) test.get("rule"), () -> {
            String before = Json.write(test.get("document"));
            Object document = Json.parse(before);
            List<?> patch = (List<?>) test.get("patch");
            StateMirror mirror = new StateMirror(new Baseline(3, Json.object(document)));
            Map<String, Object> message = Map.of("revision", 4L, "base", 3L, "patch", patch);
            if (Boolean.TRUE.equals(test.get("error"))) {
                assertThrows(PatchException.class, () -> mirror.apply(message));
                assertEquals(before, Json.write(mirror.state()));  // exactly as it was
                assertEquals(3, mirror.revision());
            } else {
                mirror.apply(message);
                assertEquals(Json.parse(Json.write(test.get("expected"))), mirror.state());
                assertEquals(4, mirror.revision());
            }
        }));
    }
}
