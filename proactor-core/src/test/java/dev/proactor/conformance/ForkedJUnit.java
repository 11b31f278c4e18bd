package dev.proactor.conformance;

import java.io.PrintWriter;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Entry point of the JVM {@link VirtualThreadFork} starts: runs the test classes named by its arguments with the
 * JUnit Platform, prints one line per test ({@value #TEST} {@code STATUS display-name}), the failures, and a last
 * {@value #RESULT} line with the counts; exits 0 when nothing failed.
 */
public final class ForkedJUnit {

    static final String TEST = "FORKED-TEST";
    static final String RESULT = "FORKED-RESULT";

    private ForkedJUnit() {
    }

    public static void main(String[] args) {
        LauncherDiscoveryRequestBuilder request = LauncherDiscoveryRequestBuilder.request();
        for (String c : args) {
            request.selectors(DiscoverySelectors.selectClass(c));
        }
        Launcher launcher = LauncherFactory.create();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        TestExecutionListener lines = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (id.isTest()) {
                    System.out.println(TEST + " " + result.getStatus() + " " + id.getUniqueId()
                            + result.getThrowable().map(t -> " :: " + t).orElse(""));
                }
            }

            @Override
            public void executionSkipped(TestIdentifier id, String reason) {
                System.out.println(TEST + " SKIPPED " + id.getUniqueId() + " :: " + reason);
            }
        };
        launcher.execute(request.build(), summary, lines);
        TestExecutionSummary s = summary.getSummary();
        PrintWriter out = new PrintWriter(System.out, true);
        s.printFailuresTo(out, 40);
        out.println(RESULT + " found=" + s.getTestsFoundCount() + " succeeded=" + s.getTestsSucceededCount()
                + " failed=" + s.getTestsFailedCount() + " aborted=" + s.getTestsAbortedCount() + " skipped="
                + s.getTestsSkippedCount() + " containersFailed=" + s.getContainersFailedCount() + " jdk="
                + Runtime.version());
        out.flush();
        System.exit(s.getTotalFailureCount() == 0 ? 0 : 1);
    }
}
