package dev.proactor.bench.matrix;

import dev.proactor.bench.harness.UsageException;

/**
 * A window as given on the command line: {@code 0} (ping-pong), {@code Nx} (N blocks) or
 * a byte count.
 *
 * @param token the text as given
 */
public record WindowSpec(String token) {

    /**
     * Parses and checks a token.
     *
     * @param token the text
     * @return the spec
     * @throws UsageException when malformed
     */
    public static WindowSpec parse(String token) throws UsageException {
        String t = token.trim();
        boolean relative = t.endsWith("x");
        String digits = relative ? t.substring(0, t.length() - 1) : t;
        int n;
        try {
            n = Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new UsageException("window must be 0, Nx (N blocks) or a byte count, got '" + token + "'");
        }
        if (n < 0 || relative && n == 0) {
            throw new UsageException("window must be 0, Nx with N >= 1, or a positive byte count, got '" + token + "'");
        }
        return new WindowSpec(t);
    }

    private boolean isBytes() {
        return !token.endsWith("x");
    }

    private int multiplier() {
        return isBytes() ? 0 : Integer.parseInt(token.substring(0, token.length() - 1));
    }

    /**
     * The window in bytes for a block size.
     *
     * @param block bytes per write
     * @return bytes in flight per session (0 = ping-pong)
     */
    public int bytes(int block) {
        return isBytes() ? Integer.parseInt(token) : Math.multiplyExact(multiplier(), block);
    }
}
