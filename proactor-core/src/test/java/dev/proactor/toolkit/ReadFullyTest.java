package dev.proactor.toolkit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.testengine.ScriptedEngineProvider;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class ReadFullyTest {

    private static final AsynchHandler NONE = new AsynchHandler() {
        @Override
        public void onReadCompleted(OpRead op) {
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
        }
    };

    @Test
    void aFirstReadThatThrowsLeavesTheExactReadEndedAndReusable() throws Exception {
        ReadFully exact = new ReadFully(r -> { });
        try (Demultiplexor demux = Demultiplexor.open(
                ProactorConfig.builder().engine(ScriptedEngineProvider.NAME).threads(1).build())) {
            AsynchChannel listener = AsynchChannel.openServer(demux, NONE, new InetSocketAddress(0), 0);
            ByteBuffer buffer = ByteBuffer.allocate(4);
            assertThrows(UnsupportedOperationException.class, () -> exact.start(listener, buffer, null));
            assertFalse(exact.isPending(), "the exact read stayed pending although its read never started");
            assertThrows(UnsupportedOperationException.class, () -> exact.start(listener, buffer, null),
                    "a second start must fail for its own reason, not as 'still pending'");
        }
    }
}
