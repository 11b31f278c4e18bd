package dev.proactor.tls;

import javax.net.ssl.SSLException;

/**
 * The connection ended without the peer's {@code close_notify} (possibly in the middle of a record): the data
 * received may have been cut short by an attacker or a crashed peer, so it is reported as an error, never as an
 * end-of-stream.
 */
public final class TlsTruncationException extends SSLException {

    private static final long serialVersionUID = 1L;

    TlsTruncationException(String message) {
        super(message);
    }
}
