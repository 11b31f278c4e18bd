/**
 * The service toolkit built on the public API of {@code dev.proactor}: an {@link dev.proactor.toolkit.Acceptor}
 * that keeps accepts posted and starts a {@link dev.proactor.toolkit.Service} per connection, a
 * {@link dev.proactor.toolkit.Connector} that connects with a timeout and starts the service on success, and
 * {@link dev.proactor.toolkit.ReadFully}, the exact-length read (the seed's {@code read_n}). Writes need no such
 * helper: {@link dev.proactor.AsynchChannel#write(java.nio.ByteBuffer) write} already completes only when every
 * byte is written.
 */
package dev.proactor.toolkit;
