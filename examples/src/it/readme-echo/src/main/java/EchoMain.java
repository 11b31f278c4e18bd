// The class of README.md, "Use it in your project", verbatim below the imports (ReadmeConsumerCopyTest checks it).
import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.Demultiplexor;
import dev.proactor.OpAccept;
import java.io.IOException;
import java.net.InetSocketAddress;

public class EchoMain {
    public static void main(String[] args) throws Exception {
        Demultiplexor demux = Demultiplexor.open().start();   // engine, threads: -Dproactor.* (Configuration)
        AsynchChannel server = listen(demux, new InetSocketAddress("127.0.0.1", 7000));
        System.out.println("echo on " + server.getLocalAddress() + " engine=" + demux.getEngineName());
        Thread.currentThread().join();                        // the pool threads are daemons
    }

    static AsynchChannel listen(Demultiplexor demux, InetSocketAddress address) throws IOException {
        AsynchHandler acceptor = new AsynchHandler() {         // implements only the callback it uses
            @Override
            public void onAcceptCompleted(OpAccept op) throws IOException {
                if (op.isSuccess()) {
                    new Echo(op);
                }
                if (op.getChannel().isOpen()) {                // a closed server fails accepts at once
                    op.getChannel().accept();                  // the next connection
                }
            }
        };
        AsynchChannel server = AsynchChannel.openServer(demux, acceptor, address, 0);
        server.accept();
        return server;
    }
}
