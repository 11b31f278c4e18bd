package dev.proactor.nio;

import dev.proactor.conformance.AbstractDrainedReadTest;
import dev.proactor.spi.Engine;
import java.io.IOException;
import java.nio.channels.Selector;

/** The drained-read rule on the nio engine (a level-triggered selector: see {@code NioChannel.inputDrained}). */
class NioDrainedReadTest extends AbstractDrainedReadTest {

    @Override
    protected Engine openEngine() throws IOException {
        return new NioEngine(Selector.open(), (selector, onReady, done) ->
                new SelectorWaitStrategy("test", selector, onReady, done));
    }
}
