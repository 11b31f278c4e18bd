package dev.proactor.toolkit;

import dev.proactor.AsynchChannel;
import dev.proactor.AsynchHandler;
import dev.proactor.OpAccept;
import dev.proactor.OpConnect;
import dev.proactor.OpRead;
import dev.proactor.OpReceive;
import dev.proactor.OpSend;
import dev.proactor.OpTimer;
import dev.proactor.OpTransmit;
import dev.proactor.OpWrite;
import java.net.SocketAddress;
import java.util.Objects;

/**
 * The handler of a socket opened by a {@link Connector}: takes the connect completion, then forwards every
 * completion to the service made on success. The service is set before {@link Service#start} runs, and no
 * other completion can come before it starts operations, so forwarding never finds it missing.
 */
final class Connection implements AsynchHandler {

    private final SocketAddress remote;
    private final ServiceFactory factory;
    private final Connector.FailureHandler onFailure;
    /** Set by the connecting thread before the connect is started. */
    volatile AsynchChannel channel;
    private volatile Service service;

    Connection(SocketAddress remote, ServiceFactory factory, Connector.FailureHandler onFailure) {
        this.remote = remote;
        this.factory = factory;
        this.onFailure = onFailure;
    }

    @Override
    public void onConnectCompleted(OpConnect op) throws Exception {
        Service s = service;
        if (s != null) {
            s.onConnectCompleted(op); // a later connect started by the service itself
            return;
        }
        AsynchChannel ch = op.getChannel();
        if (!op.isSuccess()) {
            ch.close();
            onFailure.onConnectFailed(remote, op.getError());
            return;
        }
        try {
            s = Objects.requireNonNull(factory.newService(), "service factory returned null");
        } catch (Exception | Error e) {
            ch.close();
            onFailure.onConnectFailed(remote, e);
            return;
        }
        service = s;
        s.start(ch); // if it throws, the framework logs it and closes the channel
    }

    private Service service() {
        Service s = service;
        if (s == null) {
            throw new IllegalStateException("completion on " + channel + " before its service started");
        }
        return s;
    }

    @Override
    public void onReadCompleted(OpRead op) throws Exception {
        service().onReadCompleted(op);
    }

    @Override
    public void onWriteCompleted(OpWrite op) throws Exception {
        service().onWriteCompleted(op);
    }

    @Override
    public void onAcceptCompleted(OpAccept op) throws Exception {
        service().onAcceptCompleted(op);
    }

    @Override
    public void onReceiveCompleted(OpReceive op) throws Exception {
        service().onReceiveCompleted(op);
    }

    @Override
    public void onSendCompleted(OpSend op) throws Exception {
        service().onSendCompleted(op);
    }

    @Override
    public void onTransmitCompleted(OpTransmit op) throws Exception {
        service().onTransmitCompleted(op);
    }

    @Override
    public void onTimerCompleted(OpTimer op) throws Exception {
        service().onTimerCompleted(op);
    }

    @Override
    public String toString() {
        Service s = service;
        return s != null ? s.toString() : "Connection[" + remote + "]";
    }
}
