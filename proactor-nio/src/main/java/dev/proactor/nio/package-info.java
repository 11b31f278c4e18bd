/**
 * The emulated engine {@code nio}: proactive reads, writes, accepts and connects over a
 * {@link java.nio.channels.Selector}; see {@link dev.proactor.nio.NioEngineProvider} for the wait strategies.
 */
package dev.proactor.nio;
