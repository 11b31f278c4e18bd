package dev.proactor.bench.server.reactor;

import dev.proactor.bench.server.ConnectionErrors;
import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** One reactor thread: a selector, a shared read buffer and the connections assigned to it. */
final class ReactorLoop implements Runnable {
    private static final int READ_BUFFER_SIZE = 64 * 1024;

    private final Thread thread;
    private final Selector selector;
    private final int delayUs;
    private final ConnectionErrors errors;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(READ_BUFFER_SIZE);
    private final Queue<SocketChannel> adopted = new ConcurrentLinkedQueue<>();
    private ServerSocketChannel listener;
    private ThreadPoolReactorServer.RoundRobin spreader;
    private volatile boolean running = true;

    ReactorLoop(String name, int delayUs, ConnectionErrors errors) throws IOException {
        this.thread = new Thread(this, name);
        this.selector = Selector.open();
        this.delayUs = delayUs;
        this.errors = errors;
    }

    void registerAcceptor(ServerSocketChannel listener, ThreadPoolReactorServer.RoundRobin spreader)
            throws ClosedChannelException {
        this.listener = listener;
        this.spreader = spreader;
        listener.register(selector, SelectionKey.OP_ACCEPT);
    }

    void start() {
        thread.start();
    }

    /** Takes over a connection accepted by another loop (or by this one). */
    void adopt(SocketChannel channel) {
        adopted.add(channel);
        if (Thread.currentThread() != thread) {
            selector.wakeup();
        }
    }

    void shutdown() {
        running = false;
        selector.wakeup();
    }

    void awaitStopped() throws InterruptedException {
        thread.join();
    }

    @Override
    public void run() {
        try {
            while (running) {
                registerAdopted();
                selector.select(this::onReady);
            }
        } catch (IOException e) {
            System.err.println(thread.getName() + ": selector failed: " + e);
        } finally {
            closeAll();
        }
    }

    private void registerAdopted() {
        SocketChannel ch;
        while ((ch = adopted.poll()) != null) {
            try {
                ch.register(selector, SelectionKey.OP_READ, new ReactorConnection(ch, delayUs, errors));
            } catch (ClosedChannelException e) {
                errors.record(e);
            }
        }
    }

    private void onReady(SelectionKey key) {
        Object attachment = key.attachment();
        if (attachment instanceof ReactorConnection) {
            ((ReactorConnection) attachment).onReady(key, readBuffer);
        } else if (key.isValid() && key.isAcceptable()) {
            acceptAll();
        }
    }

    private void acceptAll() {
        try {
            SocketChannel ch;
            while ((ch = listener.accept()) != null) {
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                spreader.next().adopt(ch);
            }
        } catch (IOException e) {
            System.err.println(thread.getName() + ": accept failed: " + e);
        }
        registerAdopted();
    }

    private void closeAll() {
        for (SelectionKey key : selector.keys()) {
            if (key.attachment() instanceof ReactorConnection) {
                ((ReactorConnection) key.attachment()).close(key);
            }
        }
        try {
            selector.close();
        } catch (IOException e) {
            System.err.println(thread.getName() + ": closing selector failed: " + e);
        }
    }
}
