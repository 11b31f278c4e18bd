package dev.proactor.jni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.proactor.jni.internal.ErrnoNative;
import dev.proactor.jni.internal.IoNative;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.nio.channels.ClosedChannelException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ErrorsTest {

    @BeforeEach
    void requireNativeLibrary() {
        NativeTestSupport.assumeNativeLibrary();
    }

    @Test
    void errnoValuesComeFromTheLinuxHeaders() {
        // Fixed by the Linux ABI on every architecture we build for.
        assertEquals(9, ErrnoNative.EBADF);
        assertEquals(11, ErrnoNative.EAGAIN);
        assertEquals(ErrnoNative.EAGAIN, ErrnoNative.EWOULDBLOCK);
        assertEquals(111, ErrnoNative.ECONNREFUSED);
    }

    @Test
    void connectionRefusedBecomesConnectExceptionCarryingTheErrno() {
        IOException e = Errors.newException("connect", -ErrnoNative.ECONNREFUSED);
        assertInstanceOf(ConnectException.class, e);
        NativeIoException cause = assertInstanceOf(NativeIoException.class, e.getCause());
        assertEquals(ErrnoNative.ECONNREFUSED, cause.errno());
        assertEquals("connect", cause.call());
        assertTrue(e.getMessage().contains("connect failed: " + Errors.describe(ErrnoNative.ECONNREFUSED)),
                e.getMessage());
    }

    @Test
    void socketErrnosBecomeTheJdksSocketExceptions() {
        assertInstanceOf(BindException.class, Errors.newException("bind", -ErrnoNative.EADDRINUSE));
        assertInstanceOf(BindException.class, Errors.newException("bind", -ErrnoNative.EADDRNOTAVAIL));
        IOException unreachable = Errors.newException("connect", -ErrnoNative.EHOSTUNREACH);
        assertInstanceOf(NoRouteToHostException.class, unreachable);
        assertEquals(ErrnoNative.EHOSTUNREACH,
                assertInstanceOf(NativeIoException.class, unreachable.getCause()).errno());
        assertInstanceOf(NoRouteToHostException.class, Errors.newException("connect", -ErrnoNative.ENETUNREACH));
    }

    @Test
    void badDescriptorBecomesClosedChannelException() {
        int result = IoNative.close(-1);
        assertEquals(-ErrnoNative.EBADF, result);
        IOException e = Errors.newException("close", result);
        assertInstanceOf(ClosedChannelException.class, e);
        assertEquals(ErrnoNative.EBADF, assertInstanceOf(NativeIoException.class, e.getCause()).errno());
    }

    @Test
    void otherErrnosBecomeNativeIoException() {
        NativeIoException e = assertInstanceOf(NativeIoException.class,
                Errors.newException("write", -ErrnoNative.EPIPE));
        assertEquals(ErrnoNative.EPIPE, e.errno());
        assertEquals("write", e.call());
        assertEquals("write failed: Broken pipe (errno " + ErrnoNative.EPIPE + ")", e.getMessage());
    }

    @Test
    void checkPassesResultsThroughAndThrowsOnErrors() throws IOException {
        assertEquals(5, Errors.check("read", 5));
        assertEquals(0L, Errors.check("readv", 0L));
        NativeIoException e = assertThrows(NativeIoException.class,
                () -> Errors.check("readv", (long) -ErrnoNative.ECONNRESET));
        assertEquals(ErrnoNative.ECONNRESET, e.errno());
        assertThrows(ConnectException.class, () -> Errors.check("connect", -ErrnoNative.ECONNREFUSED));
    }

    @Test
    void eagainIsNotAnErrorButCanBeRecognised() {
        assertTrue(Errors.isAgain(-ErrnoNative.EAGAIN));
        assertFalse(Errors.isAgain(-ErrnoNative.EINTR));
        assertFalse(Errors.isAgain(0));
    }

    @Test
    void successIsNotAnErrno() {
        assertThrows(IllegalArgumentException.class, () -> Errors.newException("read", 0));
        assertThrows(IllegalArgumentException.class, () -> Errors.newException("read", 3));
    }
}
