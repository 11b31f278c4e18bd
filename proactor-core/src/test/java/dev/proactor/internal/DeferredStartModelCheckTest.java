package dev.proactor.internal;

import dev.proactor.Demultiplexor;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model checks the processor's in-flight limit ({@link EngineStarter#start} deferring, the iterative drain of the
 * deferred queue when a request leaves the engine ({@link DeferredStarts}), {@link EngineStarter#cancel} taking a
 * deferred operation back): two channels on a demultiplexor that lets one operation into the engine at a time,
 * reads on both, engine completions, {@code handleEvents(0)}, a cancel of one channel and a close of the other,
 * from three threads.
 *
 * <p>Checked in every explored interleaving: the rules of {@link ReadJournal} for each channel (start order, never
 * two callbacks at once, exactly once, nothing left after close and drain), never two requests of one direction in
 * the engine (the scripted engine throws), no operation left deferred while the engine's slot is free once
 * every thread finished, and after close and drain no slot is still taken, nothing is deferred and no drain of
 * the deferred queue is pending.
 */
// The class is public in an exported package of the module the tests are compiled into; JUnit is on the class path.
@SuppressWarnings("exports")
@Tag("model-check")
public class DeferredStartModelCheckTest {

    private final Demultiplexor demux = ModelChecking.openScripted(1);
    private final ReadJournal a = new ReadJournal(demux);
    private final ReadJournal b = new ReadJournal(demux);

    public DeferredStartModelCheckTest() {
    }

    @Operation
    public void readA() {
        a.read(false);
    }

    @Operation
    public void readB() {
        b.read(false);
    }

    @Operation
    public void completeA() {
        a.complete();
    }

    @Operation
    public void completeB() {
        b.complete();
    }

    @Operation
    public void handleEvents() {
        a.handleEvents();
        b.checkNoViolation();
    }

    @Operation
    public void cancelA() {
        a.ch.cancel();
    }

    @Operation
    public void closeB() {
        b.close();
    }

    @Validate
    public void closeDrainAndCheck() {
        a.checkNoViolation();
        b.checkNoViolation();
        DeferredStarts starts = (DeferredStarts) ModelChecking.field(ModelChecking.processor(a.ch), "deferred");
        // At rest, an operation waits for a slot only while the slot is taken (else it was never started: lost).
        if ((Integer) ModelChecking.field(starts, "deferredCount") > 0
                && ((AtomicInteger) ModelChecking.field(starts, "inFlight")).get() == 0) {
            throw new AssertionError("an operation is deferred while the engine has a free slot");
        }
        a.close();
        b.close();
        ReadJournal.drain(demux);
        a.checkDrained();
        b.checkDrained();
        int inFlight = ((AtomicInteger) ModelChecking.field(starts, "inFlight")).get();
        int deferred = (Integer) ModelChecking.field(starts, "deferredCount");
        int drainers = ((AtomicInteger) ModelChecking.field(starts, "drainers")).get();
        if (inFlight != 0 || deferred != 0 || drainers != 0) {
            throw new AssertionError("after close and drain: in flight " + inFlight + ", deferred " + deferred
                    + ", drain requests " + drainers);
        }
    }

    @Test
    void modelCheck() {
        ModelCheckingOptions options = ModelChecking.options(15, 100)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(0);
        Class<?> c = getClass();
        // B's read waits for A's slot; A's completion frees it (collect starts the deferred ones) while B is
        // closed (cancel takes it back from the deferred queue) and A starts another read
        options.addCustomScenario(ModelChecking.scenario(c, List.of("readA", "readB"),
                List.of(List.of("completeA", "handleEvents"), List.of("closeB"), List.of("readA", "handleEvents"))));
        // both channels queue behind the slot; a cancel and completions race with the deferred drain
        options.addCustomScenario(ModelChecking.scenario(c, List.of("readA", "readB", "readA"),
                List.of(List.of("completeA", "handleEvents"), List.of("cancelA", "completeB"),
                        List.of("handleEvents", "handleEvents"))));
        ModelChecking.check(options, c);
    }
}
