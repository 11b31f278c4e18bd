package dev.proactor.internal;

import java.nio.channels.ClosedChannelException;
import java.util.List;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model checks one channel direction with the processor's start and cancel paths ({@link ChannelDirection},
 * {@link Processor#start}, {@link Processor#cancel}, {@link ChannelSlot#claimCompletion}): reads submitted,
 * completed by the engine, dispatched by {@code handleEvents(0)} (the callback's return runs
 * {@link ChannelDirection#finish}, which starts the next read), cancelled and closed, from three threads.
 *
 * <p>Checked in every explored interleaving (see {@link ReadJournal}): read callbacks run in submission order and
 * never two at once; each read completes at most once, and exactly once after the final close and drain; a read
 * submitted after a {@code close()} returned fails with {@link ClosedChannelException}; after close and drain
 * nothing is active, waiting, parked in the engine or leading.
 */
// The class is public in an exported package of the module the tests are compiled into; JUnit is on the class path.
@SuppressWarnings("exports")
@Tag("model-check")
public class DirectionModelCheckTest {

    private final ReadJournal j = new ReadJournal();

    public DirectionModelCheckTest() {
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
    public void cancel() {
        j.ch.cancel();
    }

    @Operation
    public void close() {
        j.close();
    }

    @Validate
    public void closeDrainAndCheck() {
        j.closeDrainAndCheck();
    }

    @Test
    void modelCheck() throws NoSuchMethodException {
        ModelCheckingOptions options = ModelChecking.options(20, 100)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(2)
                .actorsAfter(0);
        // Races worth exploring every time, not only when the generator happens to produce them:
        // a cancel racing with the start of the next read (activated by finish after a callback) in the engine
        options.addCustomScenario(ModelChecking.scenario(getClass(),
                List.of("read", "read", "complete"),
                List.of(List.of("handleEvents"), List.of("cancel"), List.of("complete", "handleEvents"))));
        // two close() calls: the one that returns first must not let a read started after it succeed
        options.addCustomScenario(ModelChecking.scenario(getClass(),
                List.of(),
                List.of(List.of("close", "read"), List.of("close"), List.of("complete", "handleEvents"))));
        ModelChecking.check(options, getClass());
    }
}
