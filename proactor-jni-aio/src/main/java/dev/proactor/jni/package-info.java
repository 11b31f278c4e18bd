/**
 * The public face of the native library: {@link dev.proactor.jni.NativeLibrary} loads it (once, from the
 * jar or the build tree), each engine class ({@link dev.proactor.jni.Epoll}) reports whether it can run
 * here and why not, and {@link dev.proactor.jni.Errors} turns the {@code -errno} results of native calls
 * into {@link java.io.IOException}s.
 *
 * <p>Every native call returns a value {@code >= 0} or {@code -errno}; C never throws and never checks
 * Java's arguments, so all validation happens in Java before a call.
 */
package dev.proactor.jni;
