package dev.corelogic;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The native methods of the JNI glue ({@code libcorelogic_jni}), one per C function, and
 * the two entry points the glue calls back. Internal: arguments are checked by the
 * public classes before they get here.
 *
 * <p>The glue library is loaded from, in order: the {@code corelogic.jni.library} system
 * property (a path), the {@code CORELOGIC_JNI_LIBRARY} environment variable (a path),
 * the jar this class came from ({@code native/<os>-<arch>/libcorelogic_jni.so}, extracted
 * to a temporary directory, as {@code make package} builds it), and
 * {@code System.loadLibrary("corelogic_jni")} ({@code java.library.path}). The glue
 * does not link {@code libcorelogic}: it loads it at run time ({@code dlopen}, with
 * {@code RTLD_LOCAL}) from the path given to {@link CoreLogic#load(String)}, else the
 * {@code corelogic.library} system property, else the {@code CORELOGIC_LIBRARY}
 * environment variable, else the app's library in the jar (named by
 * {@code native/<os>-<arch>/app-library}, extracted beside the glue), else
 * {@code libcorelogic.so} on the system's loader path.
 */
final class Native {
    static final int OK = 0;
    static final int STALE = 1;
    static final int KIND_COMMAND = 0;
    static final int KIND_STATE = 1;

    /** The C ABI version this binding and its glue are built for (include/corelogic.h). */
    static final int ABI_VERSION = Header.ABI_VERSION;

    private Native() {}

    /** Why the glue could not be loaded, or null. */
    private static final LibraryException GLUE_ERROR;
    /** The path of the loaded libcorelogic; null until {@link #open} succeeds. */
    private static volatile String opened;

    static {
        GLUE_ERROR = loadGlue();
    }

    /** The jar's directory of native libraries for this machine: {@code native/linux-x86_64/}. */
    static String platformDirectory() {
        String os = java.lang.System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        String arch = java.lang.System.getProperty("os.arch", "").toLowerCase(java.util.Locale.ROOT);
        if (os.startsWith("mac") || os.startsWith("darwin")) os = "macos";
        else if (os.startsWith("windows")) os = "windows";
        else if (os.startsWith("linux")) os = "linux";
        if (arch.equals("amd64") || arch.equals("x86-64")) arch = "x86_64";
        else if (arch.equals("arm64")) arch = "aarch64";
        return "native/" + os + "-" + arch + "/";
    }

    /** Where the jar's native libraries were extracted; null until one is. */
    private static Path extracted;

    /**
     * Copies the resource {@code platformDirectory() + name} out of the jar into a
     * temporary directory of this process (removed at exit), and returns the copy's
     * path; null when the jar has no such resource.
     */
    static synchronized String extract(String name) {
        String resource = platformDirectory() + name;
        try (InputStream in = Native.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) return null;
            if (extracted == null) {
                extracted = Files.createTempDirectory("corelogic-");
                extracted.toFile().deleteOnExit();
            }
            Path target = extracted.resolve(name);
            if (!Files.exists(target)) {
                Files.copy(in, target);
                target.toFile().deleteOnExit();
            }
            return target.toString();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract " + resource + " from the jar", e);
        }
    }

    /** The app's library carried in the jar, extracted; null when the jar carries none. */
    static String bundledLibrary() {
        try (InputStream in = Native.class.getClassLoader().getResourceAsStream(platformDirectory() + "app-library")) {
            if (in == null) return null;
            String name = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            return name.isEmpty() ? null : extract(name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + platformDirectory() + "app-library from the jar", e);
        }
    }

    private static LibraryException loadGlue() {
        String path = java.lang.System.getProperty("corelogic.jni.library");
        if (path == null || path.isEmpty()) path = java.lang.System.getenv("CORELOGIC_JNI_LIBRARY");
        try {
            if (path == null || path.isEmpty()) path = extract("libcorelogic_jni.so");
            if (path != null) {
                java.lang.System.load(new File(path).getAbsolutePath());
            } else {
                java.lang.System.loadLibrary("corelogic_jni");
            }
        } catch (UncheckedIOException e) {
            return new LibraryException(e.getMessage() + ": " + e.getCause().getMessage(), e);
        } catch (UnsatisfiedLinkError e) {
            return new LibraryException("cannot load the corelogic JNI library ("
                    + (path != null && !path.isEmpty() ? path : "corelogic_jni on java.library.path")
                    + "): " + e.getMessage() + "; set -Dcorelogic.jni.library=/path/to/libcorelogic_jni.so", e);
        }
        return null;
    }

    /** The library's path when none was given to {@link CoreLogic#load(String)}. */
    static String defaultPath() {
        String path = java.lang.System.getProperty("corelogic.library");
        if (path == null || path.isEmpty()) path = java.lang.System.getenv("CORELOGIC_LIBRARY");
        if (path == null || path.isEmpty()) {
            try {
                path = bundledLibrary();
            } catch (UncheckedIOException e) {
                throw new LibraryException(e.getMessage() + ": " + e.getCause().getMessage(), e);
            }
        }
        return path == null || path.isEmpty() ? "libcorelogic.so" : path;
    }

    /** Loads libcorelogic from {@code path}; once per process (another path afterwards is refused). */
    static synchronized void open(String path) {
        if (GLUE_ERROR != null) throw new LibraryException(GLUE_ERROR.libraryMessage(), GLUE_ERROR.getCause());
        if (opened != null) {
            if (opened.equals(path)) return;
            throw new LibraryException("libcorelogic is already loaded from " + opened + "; cannot load " + path, null);
        }
        // The glue refuses a library whose C ABI version is not the one of the corelogic.h
        // it was compiled against, naming both.
        String error = text(open(path.getBytes(StandardCharsets.UTF_8)));
        if (error != null) throw new LibraryException("cannot load libcorelogic (" + path + "): " + error, null);
        opened = path;
    }

    /** Loads the library (from {@link #defaultPath()} if none is loaded yet); throws {@link LibraryException} if it cannot be used. */
    static void load() {
        if (opened == null) open(defaultPath());
    }

    private static native byte[] open(byte[] path);
    static native byte[] version();
    static native int abiVersion();
    static native byte[] statusName(int status);
    static native byte[] features();

    static native long systemNew(byte[] feature, byte[] state, byte[][] batchOut);
    static native void systemFree(long system);
    /** Returns OK or STALE; the batch goes to batchOut[0] when batchOut is not null. */
    static native int send(long system, byte[] event, byte[][] batchOut);
    static native int deliver(long system, long effect, byte[] event, byte[][] batchOut);
    static native int complete(long system, long effect, byte[][] batchOut);
    static native byte[] state(long system);
    static native byte[] query(long system, byte[] name);
    static native byte[] effects(long system);
    static native byte[] check(long system);
    static native void setHandler(long system, int kind, boolean install);

    static native byte[] setOutput(long system, int mode);
    static native byte[] resync(long system);
    static native byte[] watchQueries(long system, byte[] names);

    static native void openJournal(long system, byte[] directory, int durability);
    static native void checkpoint(long system);
    static native void syncJournal(long system);
    static native void closeJournal(long system);
    /** out[0] receives the report, out[1] the creation batch. */
    static native long restore(byte[] feature, byte[] directory, byte[][] out);

    // -- called from C ---------------------------------------------------------------

    /** Systems with handlers, by handle: the C callback's context is the handle. */
    private static final ConcurrentHashMap<Long, WeakReference<System>> HANDLED = new ConcurrentHashMap<>();

    static void register(long handle, System system) {
        HANDLED.putIfAbsent(handle, new WeakReference<>(system));
    }

    static void unregister(long handle) {
        HANDLED.remove(handle);
    }

    /** Called by the glue for every command and state; never throws. */
    static void dispatch(int kind, long handle, byte[] json) {
        try {
            WeakReference<System> reference = HANDLED.get(handle);
            System system = reference == null ? null : reference.get();
            if (system != null) system.dispatch(kind, new String(json, StandardCharsets.UTF_8));
        } catch (Throwable t) {
            System.LOG.log(java.lang.System.Logger.Level.ERROR, "corelogic handler dispatch failed", t);
        }
    }

    /** Called by the glue to build the exception for a failed call. */
    static RuntimeException error(int status, byte[] message) {
        return CorelogicException.of(status, message == null ? "" : new String(message, StandardCharsets.UTF_8));
    }

    static String text(byte[] bytes) {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
