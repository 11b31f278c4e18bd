package dev.proactor.nio2.files;

import java.util.Properties;

/**
 * The settings of the {@link dev.proactor.nio2.ProactorFiles} channels, which only this layer reads (the core's
 * {@link dev.proactor.ProactorConfig} does not carry them):
 *
 * <table>
 * <caption>System properties</caption>
 * <tr><th>property</th><th>values</th><th>default</th></tr>
 * <tr><td>{@code proactor.fileLanes}</td><td>positive integer: most operations one channel keeps in the file
 *     engine at once (see {@link FileLanes})</td><td>128</td></tr>
 * </table>
 *
 * <p>{@link dev.proactor.nio2.ProactorFiles} reads them from the system properties each time it opens a channel.
 * A wrong value is an {@link IllegalArgumentException} naming the property and the allowed values.
 *
 * @param lanes most operations a channel has in the file engine at once: each is one
 *              {@link dev.proactor.AsynchChannel} wrapping the file (a duplicate descriptor on the native engines),
 *              opened as concurrent operations need it; more operations queue behind them
 */
public record FileSettings(int lanes) {

    /** The property of {@link #lanes()}. */
    public static final String LANES = "proactor.fileLanes";
    /** Default of {@code proactor.fileLanes}. */
    public static final int DEFAULT_LANES = 128;

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException if {@code lanes} is not positive
     */
    public FileSettings {
        if (lanes < 1) {
            throw new IllegalArgumentException(LANES + " must be a positive integer, was " + lanes);
        }
    }

    /**
     * Settings from the system properties, defaults where a property is absent.
     *
     * @throws IllegalArgumentException if a value is wrong
     */
    public static FileSettings fromSystemProperties() {
        return fromProperties(System.getProperties());
    }

    /**
     * Settings from {@code props}, defaults where a property is absent.
     *
     * @throws IllegalArgumentException if a value is wrong
     */
    public static FileSettings fromProperties(Properties props) {
        String v = props.getProperty(LANES);
        if (v == null) {
            return new FileSettings(DEFAULT_LANES);
        }
        int lanes;
        try {
            lanes = Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(LANES + " must be a positive integer; was '" + v + "'", e);
        }
        return new FileSettings(lanes);
    }
}
