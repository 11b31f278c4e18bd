// The class of README.md, "A service in 15 lines", verbatim below the imports (ReadmeConsumerCopyTest checks it).
import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.OpAccept;
import dev.proactor.OpRead;
import dev.proactor.OpWrite;
import java.io.IOException;
import java.nio.ByteBuffer;

class Echo implements AsynchHandler {
    private final ByteBuffer buf = ByteBuffer.allocateDirect(16 * 1024);
    private final AsynchChannel ch;

    Echo(OpAccept accepted) throws IOException { ch = accepted.adopt(this); ch.read(buf); }

    public void onReadCompleted(OpRead op) {
        if (!op.isSuccess() || op.isEndOfStream()) { ch.close(); return; }
        buf.flip();
        ch.write(buf);                       // completes when every byte is written
    }

    public void onWriteCompleted(OpWrite op) {
        if (!op.isSuccess()) { ch.close(); return; }
        buf.clear();
        ch.read(buf);
    }
}
