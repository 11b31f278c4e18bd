package dev.proactor.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** Every figure of one soak run, updated from any thread; plus the first details of each kind of violation. */
final class SoakStats {

    /** Details kept per kind of violation; the counters count all. */
    private static final int DETAILS_PER_KIND = 5;

    // ---------------------------------------------------------------- server-side operation accounting
    final LongAdder opsStarted = new LongAdder();
    final LongAdder opsCompleted = new LongAdder();
    final LongAdder duplicates = new LongAdder();
    final LongAdder outOfOrder = new LongAdder();
    final LongAdder overlaps = new LongAdder();
    final LongAdder startThrew = new LongAdder();
    final LongAdder accepted = new LongAdder();
    final LongAdder acceptErrors = new LongAdder();
    final LongAdder cancelledReads = new LongAdder();
    final LongAdder cancelledWrites = new LongAdder();
    final LongAdder cancelledAccepts = new LongAdder();
    final LongAdder serverBytesWritten = new LongAdder();
    final LongAdder serverGracefulCloses = new LongAdder();
    final LongAdder bufferAnomalies = new LongAdder();
    /** Error types the server handlers saw (not counting cancellations), "Type: message" -> count. */
    final Map<String, LongAdder> serverErrors = new ConcurrentHashMap<>();

    // ---------------------------------------------------------------- faults injected
    final LongAdder faultClientRst = new LongAdder();
    final LongAdder faultClientHalfClose = new LongAdder();
    final LongAdder faultStall = new LongAdder();
    final LongAdder faultServerClose = new LongAdder();
    final LongAdder faultCancelStorms = new LongAdder();
    final LongAdder faultCancelCalls = new LongAdder();
    final LongAdder cancelProbes = new LongAdder();
    final LongAdder cancelProbeOps = new LongAdder();
    final LongAdder lostCancels = new LongAdder();
    final LongAdder faultHandlerRuntime = new LongAdder();
    final LongAdder faultHandlerError = new LongAdder();
    final LongAdder faultHandlerStackOverflow = new LongAdder();
    /** Handler failures planted; each is thrown by the connection's next callback while faults are on. */
    final LongAdder handlerFaultsPlanted = new LongAdder();

    // ---------------------------------------------------------------- clients
    final LongAdder connectionsOpened = new LongAdder();
    final LongAdder connectFailures = new LongAdder();
    final LongAdder bytesSent = new LongAdder();
    final LongAdder bytesEchoed = new LongAdder();
    final LongAdder bytesCorrupted = new LongAdder();
    final LongAdder unexpectedDisconnects = new LongAdder();
    final LongAdder serverFaultDisconnects = new LongAdder();
    final LongAdder halfClosesCompleted = new LongAdder();
    final LongAdder halfClosesTruncated = new LongAdder();
    final LongAdder drained = new LongAdder();
    final LongAdder drainIncomplete = new LongAdder();
    final LongAdder noProgress = new LongAdder();
    final LongAdder clientThreadFailures = new LongAdder();

    // ---------------------------------------------------------------- user threads, timers, pool
    final LongAdder[] handleEventsCalls = {new LongAdder(), new LongAdder(), new LongAdder()};
    final LongAdder userDispatched = new LongAdder();
    final LongAdder escapedHandleEvents = new LongAdder();
    final LongAdder timersScheduled = new LongAdder();
    final LongAdder timersFired = new LongAdder();
    final LongAdder timersCancelled = new LongAdder();
    final LongAdder timerCancelMissed = new LongAdder();
    final LongAdder timerViolations = new LongAdder();
    volatile long timersLost;
    final LongAdder threadDeaths = new LongAdder();
    volatile int poolConfigured;
    volatile int poolMinLive = Integer.MAX_VALUE;
    volatile long poolSamples;
    volatile int poolLiveBeforeClose = -1;
    volatile long failedChannelsLeftOpen;
    volatile long failedChannels;

    // ---------------------------------------------------------------- life cycle and resources
    volatile boolean rampUpComplete;
    volatile boolean closeHung;
    volatile boolean clientsHung;
    volatile long fdBefore = -1;
    volatile long fdAfter = -1;
    volatile long socketsBefore = -1;
    volatile long socketsAfter = -1;
    volatile long directBefore = -1;
    volatile long directAfter = -1;
    volatile long fdLimit = -1;

    private final Map<String, ConcurrentLinkedQueue<String>> details = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> detailCounts = new ConcurrentHashMap<>();

    /** Records the detail of a violation of kind {@code kind} (only the first few of each kind are kept). */
    void detail(String kind, String what) {
        AtomicInteger n = detailCounts.computeIfAbsent(kind, k -> new AtomicInteger());
        if (n.getAndIncrement() < DETAILS_PER_KIND) {
            details.computeIfAbsent(kind, k -> new ConcurrentLinkedQueue<>())
                    .add(Thread.currentThread().getName() + ": " + what);
        }
    }

    /** The first details of {@code kind}, or an empty list. */
    List<String> details(String kind) {
        ConcurrentLinkedQueue<String> q = details.get(kind);
        return q == null ? List.of() : new ArrayList<>(q);
    }

    void serverError(Throwable t) {
        String key = t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
        serverErrors.computeIfAbsent(key, k -> new LongAdder()).increment();
    }

    long neverCompleted() {
        return opsStarted.sum() - opsCompleted.sum();
    }

    long faultsTotal() {
        return faultClientRst.sum() + faultClientHalfClose.sum() + faultStall.sum() + faultServerClose.sum()
                + faultCancelStorms.sum() + cancelProbes.sum() + faultHandlerRuntime.sum() + faultHandlerError.sum()
                + faultHandlerStackOverflow.sum();
    }

    String faults() {
        return "rst=" + faultClientRst.sum() + " halfClose=" + faultClientHalfClose.sum()
                + " stall=" + faultStall.sum() + " serverClose=" + faultServerClose.sum()
                + " cancelStorms=" + faultCancelStorms.sum() + "(cancels=" + faultCancelCalls.sum() + ")"
                + " cancelProbes=" + cancelProbes.sum() + "(operations=" + cancelProbeOps.sum() + ")"
                + " handlerRuntimeEx=" + faultHandlerRuntime.sum() + " handlerError=" + faultHandlerError.sum()
                + " handlerStackOverflow=" + faultHandlerStackOverflow.sum() + " (planted "
                + handlerFaultsPlanted.sum() + ")";
    }

    String serverErrorSummary() {
        Map<String, Long> sorted = new TreeMap<>();
        serverErrors.forEach((k, v) -> sorted.put(k, v.sum()));
        return sorted.toString();
    }
}
