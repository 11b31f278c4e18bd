package dev.proactor.nio2.files;

import dev.proactor.ProactorOpenOption;
import dev.proactor.nio2.ProactorFiles;
import java.nio.file.OpenOption;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * What the options given to {@link ProactorFiles} mean: the options the JDK opens the file with (everything but
 * direct I/O, so creating, truncating, {@code DELETE_ON_CLOSE} and the access checks are exactly the JDK's), which
 * directions the channel has, whether it appends, and whether the file engine is asked for {@code O_DIRECT}.
 *
 * <p>Direct I/O is {@link ProactorOpenOption#DIRECT}, or the JDK's own {@code com.sun.nio.file.ExtendedOpenOption
 * .DIRECT} (recognised by name, so {@code jdk.unsupported} is not needed): either way the file engine sets
 * {@code O_DIRECT} and checks alignment, instead of the JDK.
 *
 * <p>Immutable.
 */
final class FileOptions {

    /** The options for {@link java.nio.channels.FileChannel#open}: direct I/O removed. */
    final Set<OpenOption> jdk;
    final boolean readable;
    final boolean writable;
    final boolean append;
    final boolean direct;

    private FileOptions(Set<OpenOption> jdk, boolean direct) {
        this.jdk = Set.copyOf(jdk);
        this.direct = direct;
        this.append = jdk.contains(StandardOpenOption.APPEND);
        this.writable = jdk.contains(StandardOpenOption.WRITE) || append;
        this.readable = jdk.contains(StandardOpenOption.READ) || !writable;
    }

    /**
     * The options of a {@link java.nio.channels.FileChannel}, as {@code FileChannel.open} takes them (no option:
     * read only). Combinations the JDK refuses are refused by its {@code open}.
     *
     * @throws NullPointerException if {@code options} or an element is null
     */
    static FileOptions of(OpenOption... options) {
        Objects.requireNonNull(options, "options");
        Set<OpenOption> jdk = new HashSet<>();
        boolean direct = false;
        for (OpenOption o : options) {
            if (isDirect(Objects.requireNonNull(o, "options contains null"))) {
                direct = true;
            } else {
                jdk.add(o);
            }
        }
        return new FileOptions(jdk, direct);
    }

    /**
     * The options of an {@link java.nio.channels.AsynchronousFileChannel}: as {@link #of}, but
     * {@link StandardOpenOption#APPEND} is refused as the JDK refuses it (an asynchronous channel has no position).
     *
     * @throws UnsupportedOperationException for {@code APPEND}
     */
    static FileOptions ofAsynchronous(OpenOption... options) {
        FileOptions o = of(options);
        if (o.append) {
            throw new UnsupportedOperationException("APPEND not allowed");
        }
        return o;
    }

    /** Whether {@code o} asks for direct I/O: ours, or the JDK's {@code ExtendedOpenOption.DIRECT}. */
    static boolean isDirect(OpenOption o) {
        return o == ProactorOpenOption.DIRECT || (o instanceof Enum<?> e && e.name().equals("DIRECT")
                && o.getClass().getName().equals("com.sun.nio.file.ExtendedOpenOption"));
    }

    @Override
    public String toString() {
        return jdk + (direct ? " + DIRECT" : "");
    }
}
