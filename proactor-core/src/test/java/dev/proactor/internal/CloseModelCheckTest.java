package dev.proactor.internal;

import java.nio.channels.ClosedChannelException;
import java.util.List;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model checks close against completions and against callbacks that start new operations: reads whose callback
 * starts the next read (as a server re-arms its read), plain reads, engine completions, {@code handleEvents(0)}
 * and {@link AsynchChannel#close()} from three threads, and in hand-written scenarios
 * {@link Demultiplexor#close()} against a callback that starts a read and against a read started from outside.
 *
 * <p>Checked in every explored interleaving (see {@link ReadJournal}): every read, those started by callbacks
 * included, completes exactly once, in submission order, never two callbacks at once; a read started after a
 * {@code close()} returned, by a callback or by another thread, fails with {@link ClosedChannelException}; after
 * close and drain nothing is active, waiting, parked in the engine or leading, and the demultiplexor's close never
 * closed the engine under a thread waiting in it.
 *
 * <p>Not combined: {@link Demultiplexor#close()} with an engine completion from another thread. The scripted
 * engine completes requests on the test's thread, like an engine with threads of its own, but has no
 * {@code quiesce()} that such an engine must have; so a completion racing with the demultiplexor's close could be
 * left in the scripted engine, which says nothing about the dispatcher.
 */
// The class is public in an exported package of the module the tests are compiled into; JUnit is on the class path.
@SuppressWarnings("exports")
@Tag("model-check")
public class CloseModelCheckTest {

    private final ReadJournal j = new ReadJournal();

    public CloseModelCheckTest() {
    }

    @Operation
    public void readChained() {
        j.read(true);
    }

    @Operation
    public void read() {
        j.read(false);
    }

    @Operation
    public void complete() {
        j.complete();
    }

    @Operation
    public void handleEvents() {
        j.handleEvents();
    }

    @Operation
    public void close() {
        j.close();
    }

    /** Not an operation (see the class comment): only in the hand-written scenarios. */
    public void closeDemultiplexor() {
        j.closeDemultiplexor();
        if (j.engine.closedUnderAWaiter.get()) {
            throw new AssertionError("the demultiplexor closed the engine under a thread waiting in it");
        }
    }

    @Validate
    public void closeDrainAndCheck() {
        j.closeDrainAndCheck();
    }

    @Test
    void modelCheck() {
        ModelCheckingOptions options = ModelChecking.options(15, 100)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(0);
        Class<?> c = getClass();
        // close while a completed read's callback starts the next read
        options.addCustomScenario(ModelChecking.scenario(c, List.of("readChained", "complete"),
                List.of(List.of("close"), List.of("handleEvents"), List.of("complete", "handleEvents"))));
        // close, then a read, while completions and callbacks run
        options.addCustomScenario(ModelChecking.scenario(c, List.of("readChained", "readChained"),
                List.of(List.of("complete", "handleEvents"), List.of("close", "read"), List.of("handleEvents"))));
        // the demultiplexor's close while a callback starts a read and another thread starts one
        options.addCustomScenario(ModelChecking.scenario(c, List.of("readChained", "complete"),
                List.of(List.of("closeDemultiplexor"), List.of("handleEvents"), List.of("read"))));
        options.addCustomScenario(ModelChecking.scenario(c, List.of("readChained", "readChained", "complete"),
                List.of(List.of("closeDemultiplexor", "read"), List.of("handleEvents", "handleEvents"))));
        ModelChecking.check(options, c);
    }
}
