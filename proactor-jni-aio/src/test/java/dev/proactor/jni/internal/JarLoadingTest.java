package dev.proactor.jni.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.jni.NativeLibrary;
import dev.proactor.jni.NativeTestSupport;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loads the library the way users get it: from a jar, extracted to the work directory. Each test uses
 * a fresh class loader, so it has its own {@link NativeLibrary} state and its own copy of the library.
 */
class JarLoadingTest {

    private Path classesDirectory;

    @BeforeEach
    void findBuildOutput() throws Exception {
        NativeTestSupport.assumeNativeLibrary();
        // target/classes: where NativeLibrary itself was loaded from in the build tree.
        classesDirectory = Path.of(NativeLibrary.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isDirectory(classesDirectory),
                "classes do not come from a directory: " + classesDirectory);
    }

    @Test
    void extractsToWorkDirectoryLoadsAndDeletesTheCopy(@TempDir Path temp) throws Exception {
        Path jar = jarOf(classesDirectory, temp.resolve("proactor-jni-aio.jar"));
        Path workDirectory = Files.createDirectory(temp.resolve("work"));
        Object[] outcome = loadInFreshClassLoader(jar, workDirectory);
        assertNull(outcome[0], () -> "unexpected cause: " + outcome[0]);
        Path loaded = (Path) outcome[1];
        assertEquals(workDirectory, loaded.getParent());
        String name = loaded.getFileName().toString();
        assertTrue(name.startsWith("libproactor-jni-x86_64-" + NativeLibrary.ABI_VERSION + "-"
                + ProcessHandle.current().pid() + "-"), name);
        assertFalse(Files.exists(loaded), "the extracted copy must be deleted once loaded");
        try (Stream<Path> left = Files.list(workDirectory)) {
            assertEquals(List.of(), left.collect(Collectors.toList()));
        }
    }

    @Test
    void unusableWorkDirectoryIsAClearCauseNamingTheProperty(@TempDir Path temp) throws Exception {
        Path jar = jarOf(classesDirectory, temp.resolve("proactor-jni-aio.jar"));
        Object[] outcome = loadInFreshClassLoader(jar, temp.resolve("does-not-exist"));
        Throwable cause = assertInstanceOf(IOException.class, outcome[0]);
        assertTrue(cause.getMessage().contains(NativeLibrary.WORKDIR_PROPERTY), cause.getMessage());
        assertNull(outcome[1]);
    }

    /** {cause, loadedFrom} as seen by a NativeLibrary class of its own. */
    private static Object[] loadInFreshClassLoader(Path jar, Path workDirectory) throws Exception {
        String previous = System.getProperty(NativeLibrary.WORKDIR_PROPERTY);
        System.setProperty(NativeLibrary.WORKDIR_PROPERTY, workDirectory.toString());
        try (URLClassLoader loader = new URLClassLoader(new URL[] {jar.toUri().toURL()},
                ClassLoader.getPlatformClassLoader())) {
            Class<?> library = Class.forName(NativeLibrary.class.getName(), true, loader);
            assertNotNull(library);
            Method cause = library.getMethod("unavailabilityCause");
            Method loadedFrom = library.getMethod("loadedFrom");
            return new Object[] {cause.invoke(null), loadedFrom.invoke(null)};
        } finally {
            if (previous == null) {
                System.clearProperty(NativeLibrary.WORKDIR_PROPERTY);
            } else {
                System.setProperty(NativeLibrary.WORKDIR_PROPERTY, previous);
            }
        }
    }

    private static Path jarOf(Path directory, Path jar) throws IOException {
        try (OutputStream out = Files.newOutputStream(jar);
                JarOutputStream jarOut = new JarOutputStream(out);
                Stream<Path> files = Files.walk(directory)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                jarOut.putNextEntry(new JarEntry(directory.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, jarOut);
                jarOut.closeEntry();
            }
        }
        return jar;
    }
}
