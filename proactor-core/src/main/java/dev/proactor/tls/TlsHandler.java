package dev.proactor.tls;

/**
 * The service's side of a {@link TlsChannel}: callbacks for completed TLS operations.
 *
 * <p>Callbacks run on a demultiplexor thread. Input completions (handshake, read) are dispatched in start order
 * and never concurrently with each other; output completions (write, shutdown) likewise; an input and an output
 * completion may run at the same time. {@link #onHandshakeCompleted} comes before every read completion. A
 * callback may start further operations. The {@link TlsOp} passed in is reused after the callback returns.
 *
 * <p>If a callback throws, the error is logged and the channel is closed (its pending operations complete with
 * {@link java.nio.channels.AsynchronousCloseException}).
 */
public interface TlsHandler {

    /**
     * The handshake completed (the peer is authenticated as the engine's trust managers require, the protocol
     * and the ALPN choice are fixed, everything this side had to send is sent), or failed: a
     * {@link javax.net.ssl.SSLHandshakeException} (bad certificate, no common protocol, a peer that is not
     * speaking TLS), a connect error of {@link TlsChannel#connect}, or an I/O error.
     */
    void onHandshakeCompleted(TlsOp op) throws Exception;

    /**
     * A read completed: at least one byte of plaintext was stored in the buffer, the peer sent
     * {@code close_notify} ({@link TlsOp#isEndOfStream()}), or an error, among them
     * {@link TlsTruncationException} when the connection ended without {@code close_notify}.
     */
    void onReadCompleted(TlsOp op) throws Exception;

    /** A write completed: every plaintext byte was encrypted and the records were sent; or an error. */
    void onWriteCompleted(TlsOp op) throws Exception;

    /** {@link TlsChannel#shutdownOutput(Object)} completed: {@code close_notify} was sent; or an error. */
    default void onShutdownCompleted(TlsOp op) throws Exception {
        throw new UnsupportedOperationException(getClass().getName() + " does not implement onShutdownCompleted");
    }
}
