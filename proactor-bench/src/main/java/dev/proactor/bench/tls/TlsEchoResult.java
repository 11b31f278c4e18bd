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
 * @param serverCpuSeconds CPU time (user + system) the server process used during the measurement, NaN if unknown
 * @param clientCpuSeconds CPU time the client process (this JVM) used during the measurement, NaN if unknown
 * @param clientReads plaintext chunks the client's {@code SslHandler} passed up during the measurement (one per
 *                    unwrapped batch of records): how the server's records came in, the same client work for any
 *                    server that echoes alike
 */
public record TlsEchoResult(String server, String transport, Mode mode, int run, int block, long bytes,
                            double seconds, Histogram latencyUs, String cipher, double serverCpuSeconds,
                            double clientCpuSeconds, long clientReads) {

    /**
     * Plaintext chunks the client received per echoed block: {@code 1 / window} when every window came back as one
     * chunk, more when the server echoes in smaller pieces (and the client does more work per block).
     *
     * @return chunks per block, NaN if nothing was echoed
     */
    public double clientReadsPerMsg() {
        double msgs = bytes / (double) block;
        return msgs > 0 ? clientReads / msgs : Double.NaN;
    }

    /**
     * The server's CPU over the measurement: 100 = one core busy the whole time.
     *
     * @return percent, NaN if unknown
     */
    public double serverCpuPercent() {
        return serverCpuSeconds / seconds * 100;
    }

    /**
     * The client's CPU over the measurement: near 100 on its one pinned core, the client is the limit.
     *
     * @return percent, NaN if unknown
     */
    public double clientCpuPercent() {
        return clientCpuSeconds / seconds * 100;
    }

    /**
     * The server's CPU time per echoed block: the cost that compares servers when the client is the limit.
     *
     * @return microseconds, NaN if unknown or nothing was echoed
     */
    public double serverCpuUsPerMsg() {
        double msgs = bytes / (double) block;
        return msgs > 0 ? serverCpuSeconds * 1e6 / msgs : Double.NaN;
    }

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
