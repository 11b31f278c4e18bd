/**
 * The proactor's user API: a service implements {@link dev.proactor.AsynchHandler}, starts operations on an
 * {@link dev.proactor.AsynchChannel} bound to a {@link dev.proactor.Demultiplexor}, and is called back with the
 * completed operation ({@link dev.proactor.OpRead}, {@link dev.proactor.OpWrite}, ...).
 *
 * <p>Only the API types are here. The machinery behind them is in {@code dev.proactor.internal}, which the module
 * does not export: each public object is a view over its state there ({@code AsynchChannel} over a
 * {@code ChannelCore}, {@code Demultiplexor} over a {@code DemultiplexorCore}, each operation over its
 * {@code ChannelSlot} or {@code TimerSlot}), so only that package reads or writes that state.
 */
package dev.proactor;
