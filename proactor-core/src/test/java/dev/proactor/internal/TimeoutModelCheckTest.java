package dev.proactor.internal;

import java.util.List;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Model checks operation timeouts against one channel direction ({@link OpTimeout}, {@link ChannelDirection#beginUse},
 * {@link ChannelDirection#timeOut}): timed reads whose timers are due at once and plain reads, reusing each other's
 * recycled operation objects, completed by the engine and dispatched (timers included) by {@code handleEvents(0)}
 * from three threads.
 *
 * <p>Checked in every explored interleaving (see {@link ReadJournal}): a read without a timeout never times out (a
 * late timer of an earlier use of its object does nothing); every timed read has ended once the due timers were
 * dispatched (a timer that fires before its read is admitted still ends it); the direction's ordering and
 * exactly-once rules; nothing left after close and drain.
 */
// The class is public in an exported package of the module the tests are compiled into; JUnit is on the class path.
@SuppressWarnings("exports")
@Tag("model-check")
public class TimeoutModelCheckTest {

    private final ReadJournal j = new ReadJournal();

    public TimeoutModelCheckTest() {
        j.tickTimerClockOnEveryRead();
    }

    @Operation
    public void timedRead() {
        j.readTimed();
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

    @Validate
    public void timersEndTheirReadsThenCloseDrainAndCheck() {
        j.drainAndCheckTimedReadsEnded();
        j.closeDrainAndCheck();
    }

    @Test
    void modelCheck() throws NoSuchMethodException {
        ModelCheckingOptions options = ModelChecking.options(20, 100)
                .threads(3)
                .actorsPerThread(2)
                .actorsBefore(1)
                .actorsAfter(0);
        // A timed read racing with its own timer's dispatch, and a plain read reusing its object afterwards.
        options.addCustomScenario(ModelChecking.scenario(getClass(),
                List.of(),
                List.of(List.of("timedRead", "read"), List.of("handleEvents", "complete"),
                        List.of("complete", "handleEvents"))));
        ModelChecking.check(options, getClass());
    }
}
