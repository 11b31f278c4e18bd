package dev.proactor.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The select a closing thread runs itself to release a closed channel's socket ({@link NioSelector#awaitDeregistration}
 * with no select running): it may consume a wake-up meant for the leader's next select, and gives one back only
 * then, so a channel closed with no wake-up asked costs no wake-up (a closed connection used to cost a wake-up, the
 * next select's return and the read of the wake-up). A lost wake-up would hang the select below: the timeout is the
 * hang guard.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NioSelectorTest {

    private static final Consumer<SelectionKey> NOTHING = key -> { };

    private Selector jdk;
    private NioSelector selector;

    @BeforeEach
    void open() throws Exception {
        jdk = Selector.open();
        selector = new NioSelector(jdk);
    }

    @AfterEach
    void close() throws Exception {
        selector.close();
    }

    private void closeARegisteredChannel() throws Exception {
        ServerSocketChannel channel = ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        channel.configureBlocking(false);
        SelectionKey key = selector.register(channel);
        key.cancel();
        channel.close();
        selector.awaitDeregistration(key);
        assertFalse(jdk.keys().contains(key), "deregistered by the closing thread's own select");
    }

    @Test
    void aCloseWithNoWakeupAskedWakesNothing() throws Exception {
        closeARegisteredChannel();
        assertEquals(0, selector.wakeupsSent(), "no wake-up was pending: none to give back");
    }

    @Test
    void aWakeupAskedBeforeTheClosingThreadsSelectIsGivenBack() throws Exception {
        selector.wakeup();
        closeARegisteredChannel();
        assertEquals(2, selector.wakeupsSent(), "the one asked, and the one given back");
        selector.select(NOTHING, -1); // returns: the wake-up was given back (else it blocks until the hang guard)
    }
}
