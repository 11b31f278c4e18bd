package dev.proactor.bench.harness;

import dev.proactor.bench.Main;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.CodeSource;
import java.util.List;
import java.util.Optional;

/**
 * Where things are: the repository root (found from the working directory, else from the
 * bench jar's location) and how to launch this very jar or class directory again.
 */
public final class RepoLayout {
    private final Path root;
    private final Path selfLocation;

    private RepoLayout(Path root, Path selfLocation) {
        this.root = root;
        this.selfLocation = selfLocation;
    }

    /**
     * Detects the layout.
     *
     * @return the layout
     */
    public static RepoLayout detect() {
        Path self = selfLocation();
        Path root = findRoot(Paths.get("").toAbsolutePath())
                .or(() -> self == null ? Optional.empty() : findRoot(self))
                .orElse(Paths.get("").toAbsolutePath());
        return new RepoLayout(root, self);
    }

    private static Optional<Path> findRoot(Path start) {
        for (Path p = start; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("proactor-bench").resolve("pom.xml"))) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private static Path selfLocation() {
        CodeSource cs = Main.class.getProtectionDomain().getCodeSource();
        if (cs == null || cs.getLocation() == null) {
            return null;
        }
        try {
            return Paths.get(cs.getLocation().toURI()).toAbsolutePath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("bad code source " + cs.getLocation(), e);
        }
    }

    /**
     * The repository root (the working directory when it cannot be found).
     *
     * @return root directory
     */
    public Path root() {
        return root;
    }

    /**
     * Default location of the project's examples jar.
     *
     * @return {@code ROOT/examples/target/proactor-examples.jar}
     */
    public Path defaultExamplesJar() {
        return root.resolve("examples").resolve("target").resolve("proactor-examples.jar");
    }

    /**
     * Default directory of the native programs: next to the bench jar, else under the module.
     *
     * @return {@code .../proactor-bench/target/native}
     */
    public Path defaultNativeDir() {
        if (selfLocation != null && selfLocation.toString().endsWith(".jar")) {
            return selfLocation.getParent().resolve("native");
        }
        return root.resolve("proactor-bench").resolve("target").resolve("native");
    }

    /**
     * JVM arguments that run {@link Main} again: {@code -jar JAR} (its manifest enables native access) or
     * {@code --enable-native-access=ALL-UNNAMED -cp CP MAIN}.
     *
     * @return the arguments
     */
    public List<String> selfLaunchArgs() {
        if (selfLocation != null && selfLocation.toString().endsWith(".jar")) {
            return List.of("-jar", selfLocation.toString());
        }
        return List.of("--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                Main.class.getName());
    }
}
