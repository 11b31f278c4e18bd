package dev.proactor.nio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.ProactorConfig;
import dev.proactor.nio2.ProactorAsynchronousChannelProvider;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousServerSocketChannel;
import java.nio.channels.AsynchronousSocketChannel;
import java.nio.channels.CompletionHandler;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Our provider's default group (channels opened with a null group) honours the JDK's properties
 * {@code java.nio.channels.DefaultThreadPool.threadFactory} and {@code .initialSize}, read when a provider makes
 * its default group. (The JDK's own default group is made once per process, so it is not compared here.)
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Nio2DefaultGroupTest {

    /** The factory named by the property: its threads are recognisable by name. */
    public static final class NamingFactory implements ThreadFactory {
        private static final AtomicInteger IDS = new AtomicInteger();

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, "custom-default-" + IDS.incrementAndGet());
            t.setDaemon(true);
            return t;
        }
    }

    @Test
    void theDefaultGroupRunsHandlersOnThreadsOfTheNamedFactory() throws Exception {
        String factoryBefore = System.getProperty(ProactorAsynchronousChannelProvider.DEFAULT_THREAD_FACTORY);
        String sizeBefore = System.getProperty(ProactorAsynchronousChannelProvider.DEFAULT_INITIAL_SIZE);
        System.setProperty(ProactorAsynchronousChannelProvider.DEFAULT_THREAD_FACTORY, NamingFactory.class.getName());
        System.setProperty(ProactorAsynchronousChannelProvider.DEFAULT_INITIAL_SIZE, "3");
        try {
            ProactorAsynchronousChannelProvider provider =
                    new ProactorAsynchronousChannelProvider(ProactorConfig.builder().engine("nio").build());
            try (AsynchronousServerSocketChannel server = provider.openAsynchronousServerSocketChannel(null);
                 AsynchronousSocketChannel client = provider.openAsynchronousSocketChannel(null)) {
                server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                assertSame(provider, server.provider());
                CompletableFuture<Thread> acceptThread = new CompletableFuture<>();
                CompletableFuture<AsynchronousSocketChannel> accepted = new CompletableFuture<>();
                server.accept(null, new CompletionHandler<AsynchronousSocketChannel, Object>() {
                    @Override
                    public void completed(AsynchronousSocketChannel ch, Object a) {
                        acceptThread.complete(Thread.currentThread());
                        accepted.complete(ch);
                    }

                    @Override
                    public void failed(Throwable e, Object a) {
                        accepted.completeExceptionally(e);
                    }
                });
                client.connect(server.getLocalAddress()).get(60, TimeUnit.SECONDS);
                try (AsynchronousSocketChannel peer = accepted.get(60, TimeUnit.SECONDS)) {
                    String name = acceptThread.get().getName();
                    assertTrue(name.startsWith("custom-default-"), () -> "handler ran on " + name);
                    client.write(ByteBuffer.wrap(new byte[] {1})).get(60, TimeUnit.SECONDS);
                    assertEquals(1, peer.read(ByteBuffer.allocate(1)).get(60, TimeUnit.SECONDS));
                }
            }
        } finally {
            restore(ProactorAsynchronousChannelProvider.DEFAULT_THREAD_FACTORY, factoryBefore);
            restore(ProactorAsynchronousChannelProvider.DEFAULT_INITIAL_SIZE, sizeBefore);
        }
    }

    @Test
    void anInitialSizeThatIsNotANumberIsAnErrorAsInTheJdk() throws Exception {
        String sizeBefore = System.getProperty(ProactorAsynchronousChannelProvider.DEFAULT_INITIAL_SIZE);
        System.setProperty(ProactorAsynchronousChannelProvider.DEFAULT_INITIAL_SIZE, "NaN");
        try {
            ProactorAsynchronousChannelProvider provider =
                    new ProactorAsynchronousChannelProvider(ProactorConfig.builder().engine("nio").build());
            Error e = org.junit.jupiter.api.Assertions.assertThrows(Error.class,
                    () -> provider.openAsynchronousSocketChannel(null));
            assertTrue(e.getMessage().contains(ProactorAsynchronousChannelProvider.DEFAULT_INITIAL_SIZE), e::getMessage);
        } finally {
            restore(ProactorAsynchronousChannelProvider.DEFAULT_INITIAL_SIZE, sizeBefore);
        }
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }
}
