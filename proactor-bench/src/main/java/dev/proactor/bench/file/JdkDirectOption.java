package dev.proactor.bench.file;

import java.nio.file.OpenOption;

/**
 * The JDK's {@code com.sun.nio.file.ExtendedOpenOption.DIRECT} ({@code O_DIRECT} for the JDK's own file channels),
 * found by name. Naming the class in source makes javac warn that it is "internal proprietary API" (JDK 25's javac
 * does so under {@code --release 17} too, and no {@code -Xlint} key turns that warning off, so {@code -Werror}
 * fails the build); the constant found by name is the same object.
 */
final class JdkDirectOption {

    private static final String CLASS_NAME = "com.sun.nio.file.ExtendedOpenOption";

    private JdkDirectOption() {
    }

    /**
     * The option; the JDK opens a file with it only where it supports direct I/O (an error from {@code open}
     * otherwise).
     *
     * @throws UnsupportedOperationException if this JDK has no such option (it is not in the JDK's
     *                                       {@code jdk.unsupported} module)
     */
    static OpenOption get() {
        Class<?> type;
        try {
            type = Class.forName(CLASS_NAME);
        } catch (ClassNotFoundException e) {
            throw new UnsupportedOperationException("this JDK has no " + CLASS_NAME + " (O_DIRECT)", e);
        }
        for (Object constant : type.getEnumConstants()) {
            if (((Enum<?>) constant).name().equals("DIRECT")) {
                return (OpenOption) constant;
            }
        }
        throw new UnsupportedOperationException("this JDK's " + CLASS_NAME + " has no DIRECT");
    }
}
