package dev.proactor.nio;

import dev.proactor.conformance.AbstractStartOutsideLockTest;
import dev.proactor.spi.Engine;
import java.io.IOException;
import java.nio.channels.Selector;

/** Stream tries outside the channel's lock on the nio engine (see {@code NioEngine.start}). */
class NioStartOutsideLockTest extends AbstractStartOutsideLockTest {

    @Override
    protected Engine openEngine() throws IOException {
        return new NioEngine(Selector.open(), (selector, onReady, beforeSelect, done) ->
                new SelectorWaitStrategy("test", selector, onReady, beforeSelect, done));
    }

    @Override
    protected void beforeTryOutsideLock(Engine engine, Runnable hook) {
        ((NioEngine) engine).beforeTryOutsideLock = hook;
    }
}
