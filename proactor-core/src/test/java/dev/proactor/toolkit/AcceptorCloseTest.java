package dev.proactor.toolkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.testengine.ScriptedEngineProvider;
import dev.proactor.testengine.ScriptedEngineProvider.ScriptedEngine;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AcceptorCloseTest {

    @Test
    void aConnectionAcceptedWhileTheAcceptorClosesIsNeverServed() throws Exception {
        AtomicInteger services = new AtomicInteger();
        try (Demultiplexor demux = Demultiplexor.open(
                ProactorConfig.builder().engine(ScriptedEngineProvider.NAME).threads(1).build())) { // no pool
            ScriptedEngine engine = ScriptedEngineProvider.last();
            Acceptor acceptor = Acceptor.builder(demux, new InetSocketAddress(0), () -> {
                services.incrementAndGet();
                return new Service() {
                    @Override
                    public void start(AsynchChannel channel) {
                    }

                    @Override
                    public void onReadCompleted(OpRead op) {
                    }

                    @Override
                    public void onWriteCompleted(OpWrite op) {
                    }
                };
            }).pendingAccepts(1).open();
            assertTrue(engine.completeAccept(engine.lastServer), "an accept was posted");
            acceptor.close(); // the accept has completed, its callback has not run yet
            demux.handleEvents(0, TimeUnit.MILLISECONDS);
            assertEquals(0, services.get(), "a connection accepted during close was handed to a service");
            assertEquals(0, acceptor.openConnections());
        }
    }
}
