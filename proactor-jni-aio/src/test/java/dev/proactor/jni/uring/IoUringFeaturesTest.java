package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import dev.proactor.ProactorConfig;
import dev.proactor.jni.IoUring;
import dev.proactor.jni.internal.IoUringNative;
import dev.proactor.spi.EngineSettings;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The io_uring engine's properties, its availability report, and a read with each poll-first setting. */
class IoUringFeaturesTest {

    @AfterEach
    void clearProperties() {
        System.clearProperty(IoUringFeatures.ENTRIES_PROPERTY);
        System.clearProperty(IoUringFeatures.POLL_FIRST_PROPERTY);
        System.clearProperty(IoUringFeatures.TRY_FIRST_PROPERTY);
        System.clearProperty(IoUringFeatures.COOP_TASKRUN_PROPERTY);
        System.clearProperty(IoUringFeatures.SINGLE_ISSUER_PROPERTY);
        System.clearProperty(IoUringFeatures.PROVIDED_BUFFERS_PROPERTY);
    }

    @Test
    void malformedPropertiesAreRejectedWithTheAllowedValues() {
        System.setProperty(IoUringFeatures.ENTRIES_PROPERTY, "1000");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IoUringFeatures.fromProperties(false));
        assertTrue(e.getMessage().contains("power of two"), e.getMessage());
        System.clearProperty(IoUringFeatures.ENTRIES_PROPERTY);
        System.setProperty(IoUringFeatures.POLL_FIRST_PROPERTY, "yes");
        e = assertThrows(IllegalArgumentException.class, () -> IoUringFeatures.fromProperties(false));
        assertTrue(e.getMessage().contains("true or false"), e.getMessage());
        System.clearProperty(IoUringFeatures.POLL_FIRST_PROPERTY);
        System.setProperty(IoUringFeatures.TRY_FIRST_PROPERTY, "sometimes");
        e = assertThrows(IllegalArgumentException.class, () -> IoUringFeatures.fromProperties(false));
        assertTrue(e.getMessage().contains("auto, true or false"), e.getMessage());
        System.clearProperty(IoUringFeatures.TRY_FIRST_PROPERTY);
        for (String bad : new String[] {"100", "-1", "65536", "many"}) {
            System.setProperty(IoUringFeatures.PROVIDED_BUFFERS_PROPERTY, bad);
            e = assertThrows(IllegalArgumentException.class, () -> IoUringFeatures.fromProperties(false));
            assertTrue(e.getMessage().contains(IoUringFeatures.PROVIDED_BUFFERS_PROPERTY)
                    && e.getMessage().contains("0 or a power of two"), e.getMessage());
        }
    }

    @Test
    void optionalFeaturesCanBeSwitchedOff() {
        System.setProperty(IoUringFeatures.POLL_FIRST_PROPERTY, "false");
        assertFalse(IoUringFeatures.fromProperties(false).pollFirst());
        assertEquals(IoUringFeatures.TryFirst.AUTO, IoUringFeatures.fromProperties(false).tryFirst(), "the default");
        System.setProperty(IoUringFeatures.TRY_FIRST_PROPERTY, "false");
        assertEquals(IoUringFeatures.TryFirst.NEVER, IoUringFeatures.fromProperties(false).tryFirst());
        System.setProperty(IoUringFeatures.TRY_FIRST_PROPERTY, "true");
        assertEquals(IoUringFeatures.TryFirst.ALWAYS, IoUringFeatures.fromProperties(false).tryFirst());
        assertEquals(IoUring.isCoopTaskrunSupported(), IoUringFeatures.fromProperties(false).coopTaskrun(),
                "on wherever the kernel has it");
        System.setProperty(IoUringFeatures.COOP_TASKRUN_PROPERTY, "false");
        assertFalse(IoUringFeatures.fromProperties(false).coopTaskrun());
        System.setProperty(IoUringFeatures.ENTRIES_PROPERTY, "64");
        assertEquals(64, IoUringFeatures.fromProperties(false).entries());
        int byDefault = IoUring.isSingleIssuerSupported() ? 256 : 0;
        assertEquals(byDefault, IoUringFeatures.fromProperties(false).providedBuffers(), "on where the kernel has it");
        System.setProperty(IoUringFeatures.PROVIDED_BUFFERS_PROPERTY, "0");
        assertEquals(0, IoUringFeatures.fromProperties(false).providedBuffers());
        System.setProperty(IoUringFeatures.PROVIDED_BUFFERS_PROPERTY, "8");
        assertEquals(Math.min(8, byDefault), IoUringFeatures.fromProperties(false).providedBuffers());
    }

    /**
     * {@code proactor.uring.multishotRecv}: {@code off} (the default), {@code heap} or {@code all}; off without the
     * provided-buffer ring or on a kernel without multishot receive; printed. The run's own value (a {@code -D} that
     * switches the mode for the whole suite) is put back afterwards.
     */
    @Test
    void theMultishotReceiveHasThreeModesAndIsOffWithoutTheProvidedBufferRing() {
        String before = System.getProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY);
        try {
            System.clearProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY);
            boolean kernel = IoUring.isSingleIssuerSupported(); // 6.0, as IORING_RECV_MULTISHOT
            IoUringFeatures.MultishotRecv byDefault = kernel ? IoUringFeatures.DEFAULT_MULTISHOT_RECV
                    : IoUringFeatures.MultishotRecv.OFF;
            assertEquals(IoUringFeatures.MultishotRecv.OFF, IoUringFeatures.DEFAULT_MULTISHOT_RECV);
            assertEquals(byDefault, IoUringFeatures.fromProperties(false).multishotRecv(), "the default");
            for (IoUringFeatures.MultishotRecv mode : IoUringFeatures.MultishotRecv.values()) {
                System.setProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY, mode.name().toLowerCase(Locale.ROOT));
                IoUringFeatures features = IoUringFeatures.fromProperties(false);
                assertEquals(kernel ? mode : IoUringFeatures.MultishotRecv.OFF, features.multishotRecv());
                assertTrue(features.toString().contains("multishotRecv=" + features.multishotRecv().name()
                        .toLowerCase(Locale.ROOT)), features.toString());
            }
            System.setProperty(IoUringFeatures.PROVIDED_BUFFERS_PROPERTY, "0");
            assertEquals(IoUringFeatures.MultishotRecv.OFF, IoUringFeatures.fromProperties(false).multishotRecv(),
                    "its blocks come from the provided-buffer ring");
            System.setProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY, "true");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> IoUringFeatures.fromProperties(false));
            assertTrue(e.getMessage().contains(IoUringFeatures.MULTISHOT_RECV_PROPERTY)
                    && e.getMessage().contains("off, heap or all"), e.getMessage());
        } finally {
            if (before == null) {
                System.clearProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY);
            } else {
                System.setProperty(IoUringFeatures.MULTISHOT_RECV_PROPERTY, before);
            }
        }
    }

    /**
     * {@code proactor.uring.multishotAccept}: off by default ({@link IoUringFeatures#MULTISHOT_ACCEPT_DEFAULT}), on
     * when asked where the kernel has it, a malformed value refused, printed with the features. The property's value
     * for the rest of this JVM (a run with it set on the command line) is put back after.
     */
    @Test
    void multishotAcceptIsOffByDefaultAndOnWhenAskedWhereTheKernelHasIt() {
        String before = System.getProperty(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY);
        try {
            System.clearProperty(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY);
            assertFalse(IoUringFeatures.MULTISHOT_ACCEPT_DEFAULT, "measured: no less CPU per connection, see it");
            IoUringFeatures byDefault = IoUringFeatures.fromProperties(false);
            assertEquals(IoUringFeatures.MULTISHOT_ACCEPT_DEFAULT && IoUring.isSingleIssuerSupported(),
                    byDefault.multishotAccept(), "the default (off), where the kernel has it (5.19+)");
            assertTrue(byDefault.toString().contains("multishotAccept=" + byDefault.multishotAccept()),
                    byDefault::toString);
            System.setProperty(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY, "false");
            assertFalse(IoUringFeatures.fromProperties(false).multishotAccept());
            System.setProperty(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY, "true");
            assertEquals(IoUring.isSingleIssuerSupported(), IoUringFeatures.fromProperties(false).multishotAccept(),
                    "never on a kernel without it");
            System.setProperty(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY, "often");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> IoUringFeatures.fromProperties(false));
            assertTrue(e.getMessage().contains(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY)
                    && e.getMessage().contains("true or false"), e.getMessage());
        } finally {
            if (before == null) {
                System.clearProperty(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY);
            } else {
                System.setProperty(IoUringFeatures.MULTISHOT_ACCEPT_PROPERTY, before);
            }
        }
    }

    @Test
    void theRingIsMadeWithCoopTaskrunWhereTheKernelHasIt() throws Exception {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring unavailable: " + IoUring.unavailabilityCause());
        assertEquals(IoUring.isCoopTaskrunSupported(), ringHasCoopTaskrun());
        System.setProperty(IoUringFeatures.COOP_TASKRUN_PROPERTY, "false");
        assertFalse(ringHasCoopTaskrun());
    }

    private static boolean ringHasCoopTaskrun() throws Exception {
        return (ringFlags(false) & IoUringNative.SETUP_COOP_TASKRUN) != 0;
    }

    @Test
    void theRingHasOneIssuerOnlyWhenOneThreadLeadsIt() throws Exception {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring unavailable: " + IoUring.unavailabilityCause());
        int oneIssuer = IoUringNative.SETUP_SINGLE_ISSUER | IoUringNative.SETUP_DEFER_TASKRUN;
        assertEquals(0, ringFlags(false) & oneIssuer, "any thread may lead: a ring for many");
        assertEquals(IoUring.isDeferTaskrunSupported() ? oneIssuer : 0, ringFlags(true) & oneIssuer,
                "the owner leads alone: one issuer wherever the kernel has DEFER_TASKRUN");
        System.setProperty(IoUringFeatures.SINGLE_ISSUER_PROPERTY, "false");
        assertEquals(0, ringFlags(true) & oneIssuer, "switched off");
        System.setProperty(IoUringFeatures.SINGLE_ISSUER_PROPERTY, "maybe");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ringFlags(true));
        assertTrue(e.getMessage().contains(IoUringFeatures.SINGLE_ISSUER_PROPERTY), e.getMessage());
    }

    @Test
    void theProvidedBufferRingIsRegisteredWhateverThreadLeads() throws Exception {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring unavailable: " + IoUring.unavailabilityCause());
        assumeTrue(IoUring.isSingleIssuerSupported(), "a kernel before 6.0: the engine does not ask for one");
        for (boolean soleLeader : new boolean[] {false, true}) { // true: a single-issuer ring, not enabled yet
            IoUringEngine engine = (IoUringEngine) new IoUringEngineProvider().create(
                    new EngineSettings(IoUringWaitStrategy.NAME, "buffer-ring-test", () -> false, soleLeader));
            try {
                assertNotNull(engine.providedBuffers(), "registered, sole leader: " + soleLeader);
            } finally {
                engine.close();
            }
        }
        System.setProperty(IoUringFeatures.PROVIDED_BUFFERS_PROPERTY, "0");
        IoUringEngine engine = (IoUringEngine) new IoUringEngineProvider().create(
                new EngineSettings(IoUringWaitStrategy.NAME, "buffer-ring-test", () -> false, false));
        try {
            assertEquals(null, engine.providedBuffers(), "switched off");
        } finally {
            engine.close();
        }
    }

    /** The setup flags of a new engine's ring, told whether one thread alone leads it. */
    private static int ringFlags(boolean soleLeader) throws Exception {
        IoUringEngine engine = (IoUringEngine) new IoUringEngineProvider().create(
                new EngineSettings(IoUringWaitStrategy.NAME, "flags-test", () -> false, soleLeader));
        try {
            return engine.ringFlags();
        } finally {
            engine.close();
        }
    }

    @Test
    void availabilityIsReportedWithACause() {
        Supplier<String> cause = () -> String.valueOf(IoUring.unavailabilityCause());
        if (!IoUring.isAvailable()) {
            assertNotNull(IoUring.unavailabilityCause());
            assertThrows(UnsatisfiedLinkError.class, IoUring::ensureAvailability);
        }
        assumeTrue(IoUring.isAvailable(), cause);
        IoUring.ensureAvailability();
    }

    @Test
    void readsCompleteWithPollFirstOnAndOff() throws Exception {
        assumeTrue(IoUring.isAvailable(), () -> "io_uring unavailable: " + IoUring.unavailabilityCause());
        System.setProperty(IoUringFeatures.TRY_FIRST_PROPERTY, "false"); // the read goes to the ring
        for (String pollFirst : new String[] {"true", "false"}) {
            System.setProperty(IoUringFeatures.POLL_FIRST_PROPERTY, pollFirst);
            assertEquals("hello " + pollFirst, echoOnce("hello " + pollFirst));
        }
    }

    /** Connects to a plain socket server, writes a line, reads it back through the engine. */
    private static String echoOnce(String text) throws Exception {
        ProactorConfig config = ProactorConfig.builder().engine(IoUringEngineProvider.NAME).threads(2).strict(true)
                .build();
        try (ServerSocket server = new ServerSocket(0);
             Demultiplexor demux = Demultiplexor.open(config).start()) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(64);
            CompletableFuture<String> got = new CompletableFuture<>();
            AsynchChannel[] holder = new AsynchChannel[1];
            AsynchHandler handler = new AsynchHandler() {
                @Override
                public void onReadCompleted(OpRead op) {
                    buffer.flip();
                    byte[] bytes = new byte[buffer.remaining()];
                    buffer.get(bytes);
                    got.complete(new String(bytes, java.nio.charset.StandardCharsets.US_ASCII));
                }

                @Override
                public void onWriteCompleted(OpWrite op) {
                }

                @Override
                public void onConnectCompleted(dev.proactor.OpConnect op) {
                    holder[0].read(buffer);
                }
            };
            try (AsynchChannel ch = AsynchChannel.openSocket(demux, handler)) {
                holder[0] = ch;
                ch.connect(new InetSocketAddress("127.0.0.1", server.getLocalPort()));
                try (Socket peer = server.accept()) {
                    OutputStream out = peer.getOutputStream();
                    out.write(text.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                    out.flush();
                    return got.get(10, TimeUnit.SECONDS);
                }
            }
        }
    }
}
