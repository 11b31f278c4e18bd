package dev.proactor.jni.epoll;

import dev.proactor.spi.IoRequest;
import java.io.IOException;
import java.util.Queue;

/**
 * A second source of completions served by the same leader wait as an {@link EpollEngine}'s sockets: its
 * descriptor (an eventfd the source's kernel interface signals, e.g. Linux AIO's {@code IOCB_FLAG_RESFD}) sits in
 * the engine's epoll set, so one {@code epoll_wait} covers both and an engine built on epoll needs no second
 * leader. Attached with {@link EpollEngine#attach(int, EpollCompletionSource)}.
 */
public interface EpollCompletionSource {

    /**
     * Called by the leader after every poll of the epoll set, also a poll that did not see the descriptor (so
     * completions queued outside a poll, e.g. by {@link dev.proactor.spi.Engine#quiesce()}, are collected by the
     * next one). Leader thread only; must not block and should allocate nothing.
     *
     * @param signalled whether the poll reported the source's descriptor readable
     * @param completed where to add the requests that finished; they are then returned by the wait strategy
     * @throws IOException if collecting failed; the wait reports it (the processor logs it and waits again)
     */
    void collect(boolean signalled, Queue<IoRequest> completed) throws IOException;
}
