package dev.proactor.bench.tls;

import org.HdrHistogram.Histogram;

/**
 * One measured run against one server.
 *
 * @param server    server name, e.g. {@code proactor-tls}
 * @param transport engine or Netty transport, e.g. {@code epoll}
 * @param mode      window or ping-pong
 * @param run       run number from 1
 * @param block     block size in bytes
 * @param bytes     bytes echoed and verified during the measured seconds
 * @param seconds   length of the measurement
 * @param latencyUs round trips in microseconds (recorded in ping-pong mode; empty otherwise)
 * @param cipher    the negotiated cipher suite
 */
public record TlsEchoResult(String server, String transport, Mode mode, int run, int block, long bytes,
                            double seconds, Histogram latencyUs, String cipher) {

    /**
     * Throughput in one direction.
     *
     * @return MiB per second
     */
    public double mibPerSecond() {
        return bytes / seconds / (1024.0 * 1024.0);
    }

    /**
     * Blocks echoed per second.
     *
     * @return messages per second
     */
    public double msgsPerSecond() {
        return bytes / (double) block / seconds;
    }

    /**
     * A round-trip percentile, or -1 when none was recorded.
     *
     * @param percentile e.g. 99.0
     * @return microseconds
     */
    public long latencyPercentileUs(double percentile) {
        return latencyUs.getTotalCount() == 0 ? -1 : latencyUs.getValueAtPercentile(percentile);
    }
}
