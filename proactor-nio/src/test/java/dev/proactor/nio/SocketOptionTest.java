package dev.proactor.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import org.junit.jupiter.api.Test;

/** Socket options through {@link AsynchChannel#setOption} on the nio engine. */
class SocketOptionTest {

    private static final AsynchHandler NONE = new AsynchHandler() {
        @Override
        public void onReadCompleted(OpRead op) {
        }

        @Override
        public void onWriteCompleted(OpWrite op) {
        }
    };

    @Test
    void setAndGetTcpNoDelayAndFailClearlyWhenClosed() throws Exception {
        try (Demultiplexor d = Demultiplexor.open(ProactorConfig.builder().threads(1).build())) {
            AsynchChannel ch = AsynchChannel.openSocket(d, NONE);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            assertEquals(true, ch.getOption(StandardSocketOptions.TCP_NODELAY));
            ch.setOption(StandardSocketOptions.TCP_NODELAY, false);
            assertEquals(false, ch.getOption(StandardSocketOptions.TCP_NODELAY));
            ch.close();
            assertThrows(ClosedChannelException.class, () -> ch.setOption(StandardSocketOptions.TCP_NODELAY, true));
            assertThrows(NullPointerException.class, () -> ch.getOption(null));
        }
    }
}
