package dev.proactor.jni.internal;

import dev.proactor.jni.NativeLibrary;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Locates the library file on the class path and hands it to {@link System#load(String)}.
 *
 * <p>Only {@link NativeLibrary} calls {@link #load(String)}, and only once; it owns idempotency.
 */
public final class NativeLoader {

    /** Where the build puts the library inside the jar (and target/classes). */
    public static final String RESOURCE_DIRECTORY = "META-INF/native/";

    private NativeLoader() {
    }

    /** The architecture qualifier of the file name: the kernel's name for it, not Java's. */
    public static String architecture(String osArch) {
        switch (osArch) {
            case "amd64":
            case "x86_64":
                return "x86_64";
            case "aarch64":
            case "arm64":
                return "aarch64";
            default:
                return osArch;
        }
    }

    /** {@code libproactor-jni-<arch>-<abiVersion>.so}. */
    public static String fileName(String architecture, int abiVersion) {
        return "libproactor-jni-" + architecture + "-" + abiVersion + ".so";
    }

    /**
     * Loads {@code META-INF/native/<fileName>} from the class path of this module.
     *
     * @return the file that was loaded
     * @throws UnsatisfiedLinkError if this is not Linux, the file is missing or the dynamic linker refuses it
     * @throws IOException if the library cannot be extracted to the work directory
     */
    public static Path load(String fileName) throws IOException {
        String osName = System.getProperty("os.name");
        if (!osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
            throw new UnsatisfiedLinkError("the native library exists for Linux only; this is " + osName);
        }
        String resource = RESOURCE_DIRECTORY + fileName;
        URL url = NativeLoader.class.getResource("/" + resource);
        if (url == null) {
            throw new UnsatisfiedLinkError(resource + " is not on the class path: this jar was built without gcc"
                    + " or for another architecture (this JVM runs on " + System.getProperty("os.arch") + ")");
        }
        if ("file".equals(url.getProtocol())) {
            // Build tree (target/classes): load in place, nothing to extract or clean up.
            Path path = toPath(url);
            System.load(path.toString());
            return path;
        }
        return extractAndLoad(url, fileName);
    }

    private static Path toPath(URL url) {
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("unusable class path URL " + url, e);
        }
    }

    /**
     * Copies the library to a file unique to this process (two JVMs, or two class loaders of one JVM,
     * never share a copy), loads it and deletes it right away: Linux keeps the mapping, so nothing is
     * left behind even if the JVM is killed.
     */
    private static Path extractAndLoad(URL url, String fileName) throws IOException {
        Path directory = workDirectory();
        String stem = fileName.substring(0, fileName.length() - ".so".length());
        Path copy = Files.createTempFile(directory, stem + "-" + ProcessHandle.current().pid() + "-", ".so");
        try {
            try (InputStream in = url.openStream()) {
                Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            }
            try {
                System.load(copy.toString());
            } catch (UnsatisfiedLinkError e) {
                UnsatisfiedLinkError explained = new UnsatisfiedLinkError(explainLoadFailure(copy, e.getMessage()));
                explained.initCause(e);
                throw explained;
            }
            return copy;
        } finally {
            deleteLoadedCopy(copy);
        }
    }

    private static void deleteLoadedCopy(Path copy) throws IOException {
        try {
            Files.deleteIfExists(copy);
        } catch (IOException e) {
            // Keep the promise of no leftovers at least for a normal exit, and still report the problem.
            copy.toFile().deleteOnExit();
            throw new IOException("loaded " + copy + " but could not delete it (it will be deleted on exit)", e);
        }
    }

    private static Path workDirectory() throws IOException {
        String configured = System.getProperty(NativeLibrary.WORKDIR_PROPERTY);
        Path directory = Path.of(configured != null ? configured : System.getProperty("java.io.tmpdir"));
        if (!Files.isDirectory(directory) || !Files.isWritable(directory)) {
            throw new IOException("cannot extract the native library to " + directory
                    + ": not a writable directory; set -D" + NativeLibrary.WORKDIR_PROPERTY
                    + "=<a writable directory that allows executing files>");
        }
        return directory;
    }

    /**
     * The message for a library that was extracted but not loaded. A {@code noexec} mount shows up as
     * "failed to map segment from shared object" (glibc) or "Operation not permitted"; name the fix.
     */
    static String explainLoadFailure(Path copy, String linkerMessage) {
        String message = "could not load the native library extracted to " + copy + ": " + linkerMessage;
        if (linkerMessage != null
                && (linkerMessage.contains("failed to map segment")
                        || linkerMessage.contains("Operation not permitted"))) {
            message += ". The directory " + copy.getParent() + " looks mounted noexec; set -D"
                    + NativeLibrary.WORKDIR_PROPERTY + "=<a directory that allows executing files>";
        }
        return message;
    }
}
