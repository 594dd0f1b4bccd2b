package dev.corelogic;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectPackage;

import java.io.PrintWriter;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs the binding's JUnit 5 tests through the JUnit Platform launcher and ends with the
 * line {@code jvm: N passed, N failed}; exit status 1 on any failure or if no test ran.
 */
public final class RunTests {
    private RunTests() {}

    public static void main(String[] args) {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectPackage("dev.corelogic"))
                .build();
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        launcher.execute(request, listener);
        TestExecutionSummary summary = listener.getSummary();
        PrintWriter out = new PrintWriter(java.lang.System.out, true);
        summary.printFailuresTo(out, 20);
        long failed = summary.getTotalFailureCount();
        long passed = summary.getTestsSucceededCount();
        out.println("jvm: " + passed + " passed, " + failed + " failed");
        java.lang.System.exit(failed == 0 && passed > 0 ? 0 : 1);
    }
}
