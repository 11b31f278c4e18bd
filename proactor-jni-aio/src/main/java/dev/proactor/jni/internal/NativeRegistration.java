package dev.proactor.jni.internal;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Registers the binding classes' natives and checks that Java and C agree on them.
 *
 * <p>{@code RegisterNatives} fails (NoSuchMethodError) when a C table names a method or signature the
 * Java class lacks. The reverse, a Java {@code native} method with no C entry, would only fail at its
 * first call; {@link #verify(String[])} finds it at load time instead, and also catches a C module for a
 * class Java does not know.
 */
public final class NativeRegistration {

    /** Every class declaring natives; each must correspond to one module table in the C library. */
    static final List<Class<?>> BINDINGS = List.of(
            LibraryNative.class,
            ErrnoNative.class,
            BufferNative.class,
            IoNative.class,
            SocketNative.class,
            EpollNative.class,
            FileNative.class,
            LinuxAioNative.class,
            IoUringNative.class);

    private NativeRegistration() {
    }

    /**
     * Registers every binding class but {@link LibraryNative} (which {@code JNI_OnLoad} registered) and
     * then {@link #verify(String[]) verifies} the whole set.
     *
     * @throws NoSuchMethodError if a C entry has no Java counterpart
     * @throws IllegalStateException if a binding class has no C module or a Java native no C entry
     */
    public static void registerAll() {
        for (Class<?> binding : BINDINGS) {
            if (binding != LibraryNative.class) {
                int result = LibraryNative.registerModule(internalName(binding), binding);
                if (result != 0) {
                    throw new IllegalStateException("the native library has no natives for " + binding.getName()
                            + " (result " + result + "); rebuild it from this source tree");
                }
            }
        }
        verify(LibraryNative.registeredMethods());
    }

    /**
     * Checks the library's registered natives against {@link #BINDINGS}.
     *
     * @param registered {@code "pkg/Class.name(descriptor)"} of every method the library registered
     * @throws IllegalStateException naming every Java native without a C entry and every unknown class
     */
    public static void verify(String[] registered) {
        verify(registered, BINDINGS);
    }

    static void verify(String[] registered, List<Class<?>> bindings) {
        Set<String> registeredSet = Set.of(registered);
        Set<String> registeredClasses = new HashSet<>();
        for (String entry : registered) {
            registeredClasses.add(entry.substring(0, entry.indexOf('.')));
        }
        List<String> problems = new ArrayList<>();
        Set<String> javaClasses = new HashSet<>();
        for (Class<?> binding : bindings) {
            javaClasses.add(internalName(binding));
            for (String method : declaredNatives(binding)) {
                if (!registeredSet.contains(method)) {
                    problems.add("Java native " + method + " has no C implementation");
                }
            }
        }
        for (String registeredClass : registeredClasses) {
            if (!javaClasses.contains(registeredClass)) {
                problems.add("C registers natives of " + registeredClass + ", which is not a known binding class");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalStateException("the native library does not match the Java bindings "
                    + "(rebuild both from one source tree): " + String.join("; ", problems));
        }
    }

    /** {@code "pkg/Class.name(descriptor)"} of every native method the class declares, sorted. */
    static Set<String> declaredNatives(Class<?> binding) {
        Set<String> result = new TreeSet<>();
        for (Method method : binding.getDeclaredMethods()) {
            if (Modifier.isNative(method.getModifiers())) {
                result.add(internalName(binding) + "." + method.getName() + descriptor(method));
            }
        }
        return result;
    }

    static String descriptor(Method method) {
        StringBuilder builder = new StringBuilder("(");
        for (Class<?> parameter : method.getParameterTypes()) {
            builder.append(descriptor(parameter));
        }
        return builder.append(')').append(descriptor(method.getReturnType())).toString();
    }

    private static String descriptor(Class<?> type) {
        if (type.isArray()) {
            return "[" + descriptor(type.getComponentType());
        }
        if (type.isPrimitive()) {
            switch (type.getName()) {
                case "boolean": return "Z";
                case "byte": return "B";
                case "char": return "C";
                case "short": return "S";
                case "int": return "I";
                case "long": return "J";
                case "float": return "F";
                case "double": return "D";
                case "void": return "V";
                default: throw new IllegalArgumentException("unknown primitive " + type);
            }
        }
        return "L" + internalName(type) + ";";
    }

    private static String internalName(Class<?> type) {
        return type.getName().replace('.', '/');
    }
}
