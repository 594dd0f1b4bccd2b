package dev.corelogic;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** The library as a whole: its version and the features it runs. */
public final class CoreLogic {
    private CoreLogic() {}

    /** The C ABI version this binding is written for; loading a library with another one fails. */
    public static final int ABI_VERSION = Native.ABI_VERSION;

    /** The binding's version, {@code "MAJOR.MINOR.PATCH"}: the {@code corelogic.h} it was built from. */
    public static final String BINDING_VERSION = Header.VERSION;

    /**
     * Loads {@code libcorelogic} from {@code path} (the app's build of the library), before
     * any other call. Without it the first call loads it from the {@code corelogic.library}
     * system property, the {@code CORELOGIC_LIBRARY} environment variable, or
     * {@code libcorelogic.so} on the loader path. One library per process: loading another
     * path afterwards throws.
     *
     * @throws LibraryException the library cannot be loaded or has another C ABI version
     */
    public static void load(String path) {
        if (path == null || path.isEmpty()) throw new ArgumentException("library path must not be empty");
        Native.open(path);
    }

    /** The library's version, {@code "MAJOR.MINOR.PATCH"}. */
    public static String version() {
        Native.load();
        return Native.text(Native.version());
    }

    /** The loaded library's C ABI version (always {@link #ABI_VERSION} once loading succeeded). */
    public static int abiVersion() {
        Native.load();
        return Native.abiVersion();
    }

    /** The C constant's name of a status, e.g. {@code "CORELOGIC_ERR_SCHEMA"}. */
    public static String statusName(int status) {
        Native.load();
        return Native.text(Native.statusName(status));
    }

    /**
     * Every feature the library runs: {@code [{"name":"counter","events":[...],
     * "feedbacks":[{"name":...,"kind":...}],"queries":[...],"invariants":[...],"stateVersion":1}, ...]}.
     */
    public static List<Map<String, Object>> features() {
        Native.load();
        Object parsed = Json.parse(Native.text(Native.features()));
        List<Map<String, Object>> out = new ArrayList<>();
        if (parsed instanceof List<?> list) for (Object feature : list) out.add(Json.object(feature));
        return Collections.unmodifiableList(out);
    }
}
