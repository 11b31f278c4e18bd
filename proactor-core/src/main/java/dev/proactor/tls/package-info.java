/**
 * TLS over the proactor: {@link dev.proactor.tls.TlsChannel} runs a JDK {@link javax.net.ssl.SSLEngine} over an
 * {@link dev.proactor.AsynchChannel}, with the same completion model (reads carry plaintext, writes complete
 * when all plaintext is encrypted and sent) and the handshake and {@code close_notify} as operations.
 */
package dev.proactor.tls;
