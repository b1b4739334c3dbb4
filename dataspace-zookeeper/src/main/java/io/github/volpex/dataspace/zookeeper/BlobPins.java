package io.github.volpex.dataspace.zookeeper;

import io.github.volpex.dataspace.zookeeper.Records.Value;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The values that live in the blob store: a put stores its value there and pins it with an ephemeral child of its
 * reference node until its commit counts the reference; a later turn of the request loop checks the pin still holds;
 * a pin no longer needed is released (with the blob, when nothing else refers to it); a value read is fetched and
 * verified against its SHA-256. Thread-safe.
 */
final class BlobPins {

    private static final Logger LOG = LoggerFactory.getLogger(ZkDataspace.class);
    private static final HexFormat HEX = HexFormat.of();
    private static final byte[] EMPTY = new byte[0];

    /**
     * A blob a put has stored and pins with an ephemeral child of its reference node until its commit; {@code attempt}
     * is the turn of the request loop that last took or checked the pin.
     */
    record Pin(String shaHex, byte[] sha256, long incarnation, String path, int length, int attempt) {
        Pin checkedIn(int turn) {
            return new Pin(shaHex, sha256, incarnation, path, length, turn);
        }
    }

    private final ZkContext context;
    private final NamespaceKeys keys;
    private final Session session;
    private final Layout layout;
    private final BlobStore blobStore;

    BlobPins(ZkContext context, NamespaceKeys keys) {
        this.context = context;
        this.keys = keys;
        this.session = context.session;
        this.layout = context.layout;
        this.blobStore = context.blobStore;
    }

    /**
     * Returns the put's value as a pinned blob, storing it first: the reference node (created with count 0 if absent)
     * gets an ephemeral child named after the call's token, so that no one deletes the blob while the put is in
     * flight; the incarnation — the reference node's creation zxid — is read after pinning, so it is the one the pin
     * protects.
     */
    Value pinnedValue(Call call) {
        if (call.pin != null && call.pin.attempt() != call.attempt) {
            call.pin = checkPin(call, call.pin);
        }
        if (call.pin == null) {
            byte[] sha = TagNames.sha256().digest(call.owned);
            String shaHex = HEX.formatHex(sha);
            String reference = layout.referencePath(shaHex);
            String pinPath = reference + "/" + HEX.formatHex(call.token);
            while (true) {
                Session.Result created = session.create(reference, Records.encodeCount(0), CreateMode.PERSISTENT);
                if (created.code() == Code.NONODE) {
                    context.createBucket(layout.referenceBucketPath(shaHex), call);
                    continue;
                }
                if (!created.ok() && created.code() != Code.NODEEXISTS) {
                    expectUnknown(created, call);
                    continue;
                }
                Session.Result pinned = session.create(pinPath, EMPTY, CreateMode.EPHEMERAL);
                if (pinned.code() == Code.NONODE) {
                    continue; // the reference was collected meanwhile
                }
                if (!pinned.ok() && pinned.code() != Code.NODEEXISTS) {
                    expectUnknown(pinned, call);
                    continue;
                }
                Session.Result read = session.getData(reference);
                if (!read.ok()) {
                    if (read.code() != Code.NONODE) {
                        expectUnknown(read, call);
                    }
                    continue;
                }
                call.pin = new Pin(shaHex, sha, read.stat().getCzxid(), pinPath, call.owned.length, call.attempt);
                break;
            }
            String key = keys.blobKey(shaHex, call.pin.incarnation());
            try {
                blobStore.write(key, call.owned);
            } catch (IOException | RuntimeException ex) {
                context.checkOpen(call);
                throw new BlobStoreException(key, "storing a value of " + call.owned.length + " bytes for "
                        + call.describe() + " failed", ex);
            }
        }
        return Value.blob(call.pin.sha256(), call.pin.incarnation(), call.pin.length());
    }

    /**
     * Checks, in a later turn of the request loop, that a put's pin still holds its blob: the pin's session may have
     * expired meanwhile (the ensemble deleted the pin with it), and then any client collecting garbage may have deleted
     * the unreferenced blob and its reference node. Returns the pin, taken again if only the pin went (its blob is
     * there: a blob is deleted only after its reference node, which is still the same incarnation); or null when the
     * reference node went too, after deleting the blob this put may have stored after the collection — the put then
     * pins and stores its value anew, under the new incarnation. The commit deletes the pin, so a pin that vanishes
     * after this check makes the commit fail and the next turn check again.
     */
    private Pin checkPin(Call call, Pin pin) {
        String reference = layout.referencePath(pin.shaHex());
        while (true) {
            // Linearizable: a server lagging behind must not make a live reference look deleted.
            List<OpResult> read = context.readAll(List.of(Op.getData(reference), Op.getData(pin.path())), true, call,
                    null);
            if (!(read.get(0) instanceof OpResult.GetDataResult found)
                    || found.getStat().getCzxid() != pin.incarnation()) {
                deleteBlob(keys.blobKey(pin.shaHex(), pin.incarnation()));
                return null;
            }
            if (read.get(1) instanceof OpResult.GetDataResult) {
                return pin.checkedIn(call.attempt);
            }
            Session.Result pinned = session.create(pin.path(), EMPTY, CreateMode.EPHEMERAL);
            if (pinned.ok() || pinned.code() == Code.NODEEXISTS) {
                return pin.checkedIn(call.attempt);
            }
            if (pinned.code() != Code.NONODE) {
                expectUnknown(pinned, call); // NONODE: the reference went meanwhile; read again
            }
        }
    }

    private void expectUnknown(Session.Result result, Call call) {
        if (!result.unknown()) {
            throw context.refused(result.code(), "storing a blob for " + call.describe());
        }
        context.waitForConnection(call);
    }

    /** Drops a pin the put no longer needs, and the blob if nothing else refers to it. */
    void releasePin(Pin pin) {
        if (context.closed()) {
            return; // the session's end removes the pin; the next connect collects the blob
        }
        try {
            session.delete(pin.path(), -1);
            Session.Result reference = session.getData(layout.referencePath(pin.shaHex()));
            if (reference.ok() && Records.decodeCount(reference.data()) == 0
                    && reference.stat().getNumChildren() == 0
                    && session.delete(layout.referencePath(pin.shaHex()), reference.stat().getVersion()).ok()) {
                deleteBlob(keys.blobKey(pin.shaHex(), reference.stat().getCzxid()));
            }
        } catch (RuntimeException ex) {
            LOG.warn("could not release the pin {}; the next garbage collection removes it", pin.path(), ex);
        }
    }

    /** Deletes a blob nothing refers to any more; a failure leaves it for the next garbage collection. */
    void deleteBlob(String key) {
        try {
            blobStore.delete(key);
        } catch (IOException | RuntimeException ex) {
            LOG.warn("could not delete blob {} from {}; the next garbage collection removes it", key, blobStore, ex);
        }
    }

    /** Returns a value's bytes: inline, or read from the blob store and verified. */
    byte[] materialize(Call call, Value value) {
        if (!value.isBlob()) {
            return value.inline.clone(); // the record may be remembered: the caller gets its own copy
        }
        String key = keys.blobKey(value.shaHex(), value.incarnation);
        Optional<byte[]> read;
        try {
            read = blobStore.read(key);
        } catch (IOException | RuntimeException ex) {
            context.checkOpen(call);
            throw new BlobStoreException(key, "reading a value of " + value.length + " bytes failed", ex);
        }
        byte[] data = read.orElseThrow(() -> new BlobStoreException(key, "a value of " + value.length
                + " bytes is missing from " + blobStore, null));
        if (data.length != value.length || !MessageDigest.isEqual(TagNames.sha256().digest(data), value.sha256)) {
            throw new BlobStoreException(key, "a value read from " + blobStore + " fails verification: "
                    + data.length + " bytes, expected " + value.length + " with SHA-256 " + value.shaHex(), null);
        }
        return data;
    }
}
