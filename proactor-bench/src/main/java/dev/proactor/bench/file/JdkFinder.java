package dev.proactor.bench.file;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Finds the java executable of a JDK 21+ for the virtual-thread rows. */
final class JdkFinder {

    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

    private JdkFinder() {
    }

    /**
     * The java executable for {@code --vt-java}: {@code auto} is this JVM's when it is 21+, else the newest JDK 21+
     * under {@code /usr/lib/jvm}; otherwise the given executable, or {@code bin/java} of the given Java home.
     */
    static Optional<Path> virtualThreadJava(String option) throws IOException {
        if (!option.equals("auto")) {
            Path p = Path.of(option);
            return Optional.of(Files.isDirectory(p) ? p.resolve("bin").resolve("java") : p);
        }
        Path self = Path.of(System.getProperty("java.home"));
        if (Runtime.version().feature() >= 21) {
            return Optional.of(self.resolve("bin").resolve("java"));
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> homes = Files.list(jvms)) {
            return homes.filter(h -> Files.isExecutable(h.resolve("bin").resolve("java")))
                    .filter(h -> feature(h) >= 21).max(Comparator.comparingInt(JdkFinder::feature))
                    .map(h -> h.resolve("bin").resolve("java"));
        }
    }

    /** The feature version in a Java home's {@code release} file, or 0. */
    static int feature(Path home) {
        try {
            Matcher m = VERSION.matcher(Files.readString(home.resolve("release"), StandardCharsets.UTF_8));
            return m.find() ? Integer.parseInt(m.group(1)) : 0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
