package dev.corelogic;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JVM golden adapter: the golden driver's line protocol (docs/golden-files.md) over
 * the public {@code dev.corelogic} API, with a {@link StateMirror} in patch mode.
 * Usage: {@code GoldenAdapter [LIBRARY]} (default: {@code CORELOGIC_LIBRARY}).
 */
public final class GoldenAdapter {
    private static System system;
    private static StateMirror mirror;

    public static void main(String[] args) throws IOException {
        if (args.length > 0) CoreLogic.load(args[0]);
        InputStream in = new BufferedInputStream(java.lang.System.in);
        PrintStream out = new PrintStream(java.lang.System.out, false, StandardCharsets.UTF_8);
        for (String line; (line = readLine(in)) != null; out.flush()) {
            String[] words = line.split(" ", 2);
            String command = words[0], argument = words.length > 1 ? words[1] : "";
            String payload = null;
            if (command.equals("create") || command.equals("send") || command.equals("deliver")) {
                int space = argument.lastIndexOf(' ');
                byte[] bytes = in.readNBytes(Integer.parseInt(argument.substring(space + 1)) + 1);
                payload = new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
                argument = space < 0 ? "" : argument.substring(0, space);
            }
            try {
                out.println(switch (command) {
                    case "features" -> "ok " + Json.write(CoreLogic.features());
                    case "create" -> {
                        system = payload.equals("null") ? new System(argument) : new System(argument, Json.raw(payload));
                        mirror = null;
                        yield batch(system.initialBatch());
                    }
                    case "output" -> {
                        Baseline baseline = system.setOutput(Output.valueOf(argument.toUpperCase()));
                        mirror = argument.equals("patch") ? new StateMirror(baseline) : null;
                        yield "ok " + Json.write(object("revision", baseline.revision(), "state", baseline.state()));
                    }
                    case "watch" -> "ok " + Json.write(system.watchQueries(
                            Json.parse(argument) instanceof List<?> names ? names.stream().map(String::valueOf).toList() : List.of()));
                    case "send" -> batch(system.sendJson(payload));
                    case "deliver" -> batch(system.deliverJson(Long.parseUnsignedLong(argument), payload));
                    case "complete" -> batch(system.complete(Long.parseUnsignedLong(argument)));
                    case "query" -> "ok " + Json.write(system.query(argument));
                    case "check" -> "ok " + Json.write(system.check());
                    case "state" -> "ok " + system.stateJson();
                    case "mirror" -> mirror == null ? "none"
                            : "ok " + Json.write(object("revision", mirror.revision(), "state", mirror.state()));
                    case "free" -> { system.close(); yield "ok"; }
                    default -> "error CORELOGIC_ERR_ARG - unknown command " + command;
                });
            } catch (CorelogicException e) {
                out.println("error " + e.statusName() + " " + e.getClass().getSimpleName() + " "
                        + e.libraryMessage().replace('\n', ' ').replace('\r', ' '));
            }
        }
    }

    private static String batch(Batch batch) {
        if (batch.stale()) return "stale";
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("effects", batch.effects().stream().map(command -> command instanceof Command.Start start
                ? object("start", object("id", Json.raw(Long.toUnsignedString(start.id())),
                        "feedback", start.feedback(), "request", start.request()))
                : object("cancel", Json.raw(Long.toUnsignedString(((Command.Cancel) command).id())))).toList());
        out.put("steps", batch.steps());
        out.put("queries", batch.queries() == null ? Map.of() : batch.queries());
        if (batch.revision() >= 0) { // patch mode: a patch, or a small state sent whole
            mirror.apply(batch);
            out.put("revision", batch.revision());
        }
        if (batch.isPatch()) {
            out.put("base", batch.base());
            out.put("patch", batch.patch());
        } else {
            out.put("state", batch.state());
        }
        return "ok " + Json.write(out);
    }

    private static Map<String, Object> object(Object... pairs) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) out.put((String) pairs[i], pairs[i + 1]);
        return out;
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int c; (c = in.read()) != '\n'; line.write(c)) if (c < 0) return null;
        return line.toString(StandardCharsets.UTF_8);
    }
}
