package dev.proactor.jni.uring;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The start path goes one way: the operation classes describe a step's SQE ({@link IoUringSqe}) and return it, and
 * only {@link IoUringStarter} writes SQEs. Checked on the compiled classes: a class that calls the starter (or takes
 * it as a parameter) names it in its constant pool.
 */
class IoUringStartPathTest {

    private static final List<Class<?>> OPERATION_CLASSES = List.of(IoUringOps.class, IoUringReadOps.class,
            IoUringWriteOps.class, IoUringAcceptOps.class, IoUringDatagramOps.class, IoUringTransmit.class,
            IoUringTransmit.State.class, IoUringSqe.class, IoUringOpsContext.class, IoUringMultishot.class,
            IoUringMultishotAccept.class, IoUringMultishotRecv.class);

    @Test
    void operationClassesNeverReferToTheStarter() throws IOException {
        String starter = IoUringStarter.class.getName().replace('.', '/');
        for (Class<?> type : OPERATION_CLASSES) {
            String file = type.getName().substring(type.getPackageName().length() + 1) + ".class";
            try (InputStream in = type.getResourceAsStream(file)) {
                assertNotNull(in, file);
                // Class names in the constant pool are modified UTF-8, which is ASCII for these names.
                String bytes = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
                assertFalse(bytes.contains(starter), type.getSimpleName() + " refers to " + starter);
            }
        }
    }
}
