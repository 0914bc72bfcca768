// Kafka's own generated message classes (kafka-clients, package
// org.apache.kafka.common.message) as a test oracle for kwire.
// Compiled against one release's jars by interop/scripts/kafka-oracle.sh and driven
// by interop/tests/oracle.rs: one JVM, one request per line on stdin, one answer per
// line on stdout, in order.
//
// Requests (TARGET is an api key, or "header"; SIDE is "request" or "response"):
//
//   versions
//     ok KEY:MIN-MAX:S:REQ:RESP ... header:request:MIN-MAX header:response:MIN-MAX
//     one token per api key of the release: its versions, S = "u" when the
//     highest is unstable (else "s"), REQ and RESP the request and response
//     header version of each version MIN..MAX, one digit each.
//   decode TARGET SIDE VERSION HEX
//     ok HEX2 SIZE LEFT json JSON          (or "... jsonerror MESSAGE")
//     Kafka reads HEX at VERSION, then writes what it read: HEX2 is what it
//     wrote, SIZE what it computed as the size beforehand, LEFT the input
//     bytes it did not read, JSON its JSON converter's form (one line; the
//     converters leave out unknown tagged fields and write every records
//     field as empty bytes).
//   encode TARGET SIDE VERSION JSON
//     ok HEX SIZE
//     Kafka reads JSON with its JSON converter and writes it at VERSION.
//
//   rdecode FAMILY KIND TYPE VERSION HEX
//     as decode, for an internal record: FAMILY is metadata, group, share,
//     transaction, storage or raft; KIND is record (metadata and storage
//     records, and raft's and storage's data schemas, whose TYPE is then
//     their name), key or value (coordinator records); TYPE the record type.
//   rencode FAMILY KIND TYPE VERSION JSON
//     as encode, for an internal record.
//   rtypes FAMILY KIND
//     ok TYPE:NAME:MIN-MAX ...   every record type of Kafka's record-type enum.
//   mframe HEX
//     ok TYPE VERSION HEX2       Kafka's metadata log serde (MetadataRecordSerde)
//     reads the framed record HEX and writes it again (needs kafka-server-common).
//   records HEX
//     ok OFFSET:TIMESTAMP:TYPE ...   Kafka's record iterator over the records
//     field HEX (MemoryRecords, record batches v2 and legacy messages, each
//     compressed wrapper unpacked): every record's offset, timestamp and
//     timestamp type (CreateTime, LogAppendTime, NoTimestampType).
//   errresp KEY VERSION THROTTLE CODE MESSAGE HEX
//     ok HEX2 DEFAULT
//     Kafka parses the request body HEX of api KEY at VERSION (AbstractRequest
//     .parseRequest) and answers it with getErrorResponse(THROTTLE, e), e the
//     exception of error CODE with MESSAGE (hex of its UTF-8; "-" for the
//     error's own message); HEX2 is that response's body written at VERSION,
//     DEFAULT the hex of the error's own message ("-" when it has none).
//
// The internal records' classes come from the release's other jars (kafka-metadata,
// kafka-group-coordinator, ...), found beside kafka-clients and loaded when first
// needed; kafka-server-common and kafka-coordinator-common come from the Maven
// cache (.cache/kafka/m2) when there.
//
// Any failure answers "error CLASS: MESSAGE" (one line) and the next line is
// read as usual. An empty byte string is written "-". End of input ends.

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

public final class Oracle {
    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        // Answers go to the real stdout only; anything else printing to
        // System.out would break the protocol, so it goes to stderr.
        PrintStream answers = new PrintStream(
            new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false, "UTF-8");
        System.setOut(System.err);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
        String line;
        while ((line = in.readLine()) != null) {
            String answer;
            try {
                answer = answer(line);
            } catch (Throwable t) {
                answer = "error " + describe(t);
            }
            answers.print(answer);
            answers.print('\n');
            // Flush only when no more requests are waiting, so that a batch
            // of requests gets its answers in few writes.
            if (!in.ready()) {
                answers.flush();
            }
        }
        answers.flush();
    }

    private static String answer(String line) throws Exception {
        String[] w = line.split(" ", 5);
        switch (w[0]) {
            case "versions":
                return versions();
            case "flags":
                return flags();
            case "decode":
                need(w, 5, line);
                return decode(blank(w[1], w[2]), Short.parseShort(w[3]), unhex(w[4]));
            case "encode":
                need(w, 5, line);
                return encode(blank(w[1], w[2]), Short.parseShort(w[3]), w[4]);
            case "rdecode": {
                String[] r = line.split(" ", 6);
                need(r, 6, line);
                return decode(internal(r[1], r[2], r[3]), Short.parseShort(r[4]), unhex(r[5]));
            }
            case "rencode": {
                String[] r = line.split(" ", 6);
                need(r, 6, line);
                return encode(internal(r[1], r[2], r[3]), Short.parseShort(r[4]), r[5]);
            }
            case "rtypes":
                need(w, 3, line);
                return recordTypes(w[1], w[2]);
            case "mframe":
                need(w, 2, line);
                return metadataFrame(unhex(w[1]));
            case "errresp": {
                String[] r = line.split(" ", 7);
                need(r, 7, line);
                return errorResponse(Short.parseShort(r[1]), Short.parseShort(r[2]), Integer.parseInt(r[3]),
                    Short.parseShort(r[4]), r[5], unhex(r[6]));
            }
            case "records":
                need(w, 2, line);
                return records(unhex(w[1]));
            default:
                throw new IllegalArgumentException("unknown command: " + w[0]);
        }
    }

    private static void need(String[] words, int n, String line) {
        if (words.length < n) {
            throw new IllegalArgumentException("expected " + n + " words: " + line);
        }
    }

    /** A fresh message of the given api key (or "header") and side. */
    private static Message blank(String target, String side) {
        boolean request;
        if (side.equals("request")) {
            request = true;
        } else if (side.equals("response")) {
            request = false;
        } else {
            throw new IllegalArgumentException("side must be request or response: " + side);
        }
        if (target.equals("header")) {
            return request ? new RequestHeaderData() : new ResponseHeaderData();
        }
        ApiMessageType type = ApiMessageType.fromApiKey(Short.parseShort(target));
        return request ? type.newRequest() : type.newResponse();
    }

    private static String versions() {
        StringBuilder out = new StringBuilder("ok");
        for (ApiMessageType type : ApiMessageType.values()) {
            short low = type.lowestSupportedVersion();
            short high = type.highestSupportedVersion(true);
            out.append(' ').append(type.apiKey()).append(':').append(low).append('-').append(high);
            out.append(':').append(type.latestVersionUnstable() ? 'u' : 's').append(':');
            for (short v = low; v <= high; v++) {
                out.append(type.requestHeaderVersion(v));
            }
            out.append(':');
            for (short v = low; v <= high; v++) {
                out.append(type.responseHeaderVersion(v));
            }
        }
        Message request = new RequestHeaderData();
        Message response = new ResponseHeaderData();
        out.append(" header:request:").append(request.lowestSupportedVersion()).append('-')
            .append(request.highestSupportedVersion());
        out.append(" header:response:").append(response.lowestSupportedVersion()).append('-')
            .append(response.highestSupportedVersion());
        return out.toString();
    }

    /**
     * The flags of each api key in Kafka's ApiKeys table, as "KEY:FCD" with
     * F forwardable, C cluster action and D delayed allocation, each 0 or 1.
     */
    private static String flags() {
        StringBuilder out = new StringBuilder("ok");
        for (ApiKeys key : ApiKeys.values()) {
            out.append(' ').append(key.id).append(':').append(key.forwardable ? '1' : '0')
                .append(key.clusterAction ? '1' : '0').append(key.requiresDelayedAllocation ? '1' : '0');
        }
        return out.toString();
    }

    // The record classes moved to org.apache.kafka.common.record.internal in
    // Kafka 4.2; read through reflection so that one source compiles
    // against every release.
    private static String records(byte[] input) throws Exception {
        Class<?> memoryRecords;
        try {
            memoryRecords = Class.forName("org.apache.kafka.common.record.internal.MemoryRecords");
        } catch (ClassNotFoundException e) {
            memoryRecords = Class.forName("org.apache.kafka.common.record.MemoryRecords");
        }
        Object records = memoryRecords.getMethod("readableRecords", ByteBuffer.class)
            .invoke(null, ByteBuffer.wrap(input));
        StringBuilder out = new StringBuilder("ok");
        for (Object batch : (Iterable<?>) call(records, "batches")) {
            for (Object record : (Iterable<?>) batch) {
                // A legacy record is its own batch and knows its type; a v2
                // record takes its batch's.
                Object type;
                try {
                    type = call(record, "timestampType");
                } catch (NoSuchMethodException e) {
                    type = call(batch, "timestampType");
                }
                out.append(' ').append(call(record, "offset")).append(':').append(call(record, "timestamp"))
                    .append(':').append(type);
            }
        }
        return out.toString();
    }

    private static Object call(Object target, String method) throws Exception {
        Method m = target.getClass().getMethod(method);
        m.setAccessible(true);
        try {
            return m.invoke(target);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
    }

    private static String decode(Message message, short version, byte[] input) {
        ByteBuffer in = ByteBuffer.wrap(input);
        message.read(new ByteBufferAccessor(in), version);
        int left = in.remaining();
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int size = message.size(cache, version);
        ByteBuffer out = ByteBuffer.allocate(size);
        message.write(new ByteBufferAccessor(out), cache, version);
        String json;
        try {
            json = "json " + JSON.writeValueAsString(toJson(message, version));
        } catch (Throwable t) {
            json = "jsonerror " + describe(t);
        }
        return "ok " + hex(out.array(), out.position()) + " " + size + " " + left + " " + json;
    }

    private static String errorResponse(short key, short version, int throttle, short code, String message,
            byte[] request) {
        org.apache.kafka.common.protocol.Errors error = org.apache.kafka.common.protocol.Errors.forCode(code);
        Throwable e = message.equals("-") ? error.exception()
            : error.exception(new String(unhex(message), StandardCharsets.UTF_8));
        // parseRequest reads a ByteBuffer before Kafka 4.0 and a Readable from
        // it: found by its arity, so that one source serves every release.
        Object parsedAndSize = null;
        for (Method m : org.apache.kafka.common.requests.AbstractRequest.class.getMethods()) {
            if (m.getName().equals("parseRequest") && m.getParameterCount() == 3) {
                Object input = m.getParameterTypes()[2] == ByteBuffer.class ? ByteBuffer.wrap(request)
                    : new ByteBufferAccessor(ByteBuffer.wrap(request));
                try {
                    parsedAndSize = m.invoke(null, ApiKeys.forId(key), version, input);
                } catch (InvocationTargetException ex) {
                    throw ex.getCause() instanceof RuntimeException ? (RuntimeException) ex.getCause()
                        : new IllegalStateException(ex.getCause());
                } catch (IllegalAccessException ex) {
                    throw new IllegalStateException(ex);
                }
            }
        }
        if (parsedAndSize == null) {
            throw new IllegalStateException("no AbstractRequest.parseRequest of three parameters");
        }
        org.apache.kafka.common.requests.AbstractRequest parsed =
            ((org.apache.kafka.common.requests.RequestAndSize) parsedAndSize).request;
        Message data = parsed.getErrorResponse(throttle, e).data();
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer out = ByteBuffer.allocate(data.size(cache, version));
        data.write(new ByteBufferAccessor(out), cache, version);
        String own = error.message();
        byte[] ownBytes = own == null ? new byte[0] : own.getBytes(StandardCharsets.UTF_8);
        return "ok " + hex(out.array(), out.position()) + " " + hex(ownBytes, ownBytes.length);
    }

    private static String encode(Message blank, short version, String json) throws Exception {
        Message message = fromJson(blank, JSON.readTree(json), version);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int size = message.size(cache, version);
        ByteBuffer out = ByteBuffer.allocate(size);
        message.write(new ByteBufferAccessor(out), cache, version);
        return "ok " + hex(out.array(), out.position()) + " " + size;
    }

    // XxxData's generated JSON converter is XxxDataJsonConverter, with static
    // read(JsonNode, short) and write(XxxData, short); looked up once per class.
    private static final Map<Class<?>, Method> READERS = new HashMap<>();
    private static final Map<Class<?>, Method> WRITERS = new HashMap<>();

    private static JsonNode toJson(Message message, short version) throws Exception {
        Method write = WRITERS.get(message.getClass());
        if (write == null) {
            write = converterClass(message).getMethod("write", message.getClass(), short.class);
            WRITERS.put(message.getClass(), write);
        }
        return (JsonNode) invoke(write, message, version);
    }

    private static Message fromJson(Message blank, JsonNode node, short version) throws Exception {
        Method read = READERS.get(blank.getClass());
        if (read == null) {
            read = converterClass(blank).getMethod("read", JsonNode.class, short.class);
            READERS.put(blank.getClass(), read);
        }
        return (Message) invoke(read, node, version);
    }

    private static Class<?> converterClass(Message message) throws ClassNotFoundException {
        return Class.forName(message.getClass().getName() + "JsonConverter", true, message.getClass().getClassLoader());
    }

    // The internal records' jars, loaded once.
    private static ClassLoader internalLoader;

    private static ClassLoader internalLoader() throws Exception {
        if (internalLoader == null) {
            File clients = new File(ApiMessageType.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            File jars = clients.getParentFile();
            File release = jars.getParentFile();
            String version = release.getName();
            List<URL> urls = new ArrayList<>();
            File[] files = jars.listFiles();
            if (files != null) {
                for (File f : files) {
                    if (f.getName().endsWith(".jar") && !f.equals(clients)) {
                        urls.add(f.toURI().toURL());
                    }
                }
            }
            File m2 = new File(release.getParentFile(), "m2/org/apache/kafka");
            for (String artifact : new String[] {"kafka-server-common", "kafka-coordinator-common"}) {
                File jar = new File(m2, artifact + "/" + version + "/" + artifact + "-" + version + ".jar");
                if (jar.isFile()) {
                    urls.add(jar.toURI().toURL());
                }
            }
            internalLoader = new URLClassLoader(urls.toArray(new URL[0]), Oracle.class.getClassLoader());
        }
        return internalLoader;
    }

    /** The record-type enum class of a family and kind. */
    private static String typeEnum(String family, String kind) {
        switch (family + " " + kind) {
            case "metadata record":
                return "org.apache.kafka.common.metadata.MetadataRecordType";
            case "storage record":
                return "org.apache.kafka.server.log.remote.metadata.storage.generated.MetadataRecordType";
            case "group key":
            case "group value":
                return "org.apache.kafka.coordinator.group.generated.CoordinatorRecordType";
            case "share key":
            case "share value":
                return "org.apache.kafka.coordinator.share.generated.CoordinatorRecordType";
            case "transaction key":
            case "transaction value":
                return "org.apache.kafka.coordinator.transaction.generated.CoordinatorRecordType";
            default:
                throw new IllegalArgumentException("no record types for " + family + " " + kind);
        }
    }

    /** A fresh internal record of a family, kind and record type (or name). */
    private static Message internal(String family, String kind, String type) throws Exception {
        ClassLoader loader = internalLoader();
        if (family.equals("raft")) {
            return (Message) Class.forName("org.apache.kafka.raft.generated." + type, true, loader)
                .getDeclaredConstructor().newInstance();
        }
        if (family.equals("storage") && !type.matches("-?[0-9]+")) {
            return (Message) Class.forName("org.apache.kafka.server.log.remote.metadata.storage.generated." + type, true, loader)
                .getDeclaredConstructor().newInstance();
        }
        Class<?> types = Class.forName(typeEnum(family, kind), true, loader);
        Object t = invokeStatic(types.getMethod("fromId", short.class), Short.parseShort(type));
        String factory = kind.equals("key") ? "newRecordKey" : kind.equals("value") ? "newRecordValue" : "newMetadataRecord";
        return (Message) types.getMethod(factory).invoke(t);
    }

    private static Object invokeStatic(Method method, Object arg) throws Exception {
        try {
            return method.invoke(null, arg);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception) {
                throw (Exception) cause;
            }
            throw e;
        }
    }

    private static String recordTypes(String family, String kind) throws Exception {
        Class<?> types = Class.forName(typeEnum(family, kind), true, internalLoader());
        StringBuilder out = new StringBuilder("ok");
        for (Object t : types.getEnumConstants()) {
            Message m;
            String factory = kind.equals("key") ? "newRecordKey" : kind.equals("value") ? "newRecordValue" : "newMetadataRecord";
            m = (Message) types.getMethod(factory).invoke(t);
            short id = (Short) types.getMethod("id").invoke(t);
            out.append(' ').append(id).append(':').append(m.getClass().getSimpleName()).append(':')
                .append(m.lowestSupportedVersion()).append('-').append(m.highestSupportedVersion());
        }
        return out.toString();
    }

    private static String metadataFrame(byte[] input) throws Exception {
        ClassLoader loader = internalLoader();
        Object serde = Class.forName("org.apache.kafka.metadata.MetadataRecordSerde", true, loader)
            .getDeclaredConstructor().newInstance();
        Class<?> readable = Class.forName("org.apache.kafka.common.protocol.Readable");
        Class<?> writable = Class.forName("org.apache.kafka.common.protocol.Writable");
        Object read;
        try {
            read = serde.getClass().getMethod("read", readable, int.class)
                .invoke(serde, new ByteBufferAccessor(ByteBuffer.wrap(input)), input.length);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            throw cause instanceof Exception ? (Exception) cause : e;
        }
        Message message = (Message) read.getClass().getMethod("message").invoke(read);
        short version = (Short) read.getClass().getMethod("version").invoke(read);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        int size = (Integer) serde.getClass().getMethod("recordSize", Object.class, ObjectSerializationCache.class)
            .invoke(serde, read, cache);
        ByteBuffer out = ByteBuffer.allocate(size);
        serde.getClass().getMethod("write", Object.class, ObjectSerializationCache.class, writable)
            .invoke(serde, read, cache, new ByteBufferAccessor(out));
        short type = (Short) message.getClass().getMethod("apiKey").invoke(message);
        return "ok " + type + " " + version + " " + hex(out.array(), out.position());
    }

    private static Object invoke(Method method, Object first, short version) throws Exception {
        try {
            return method.invoke(null, first, version);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception) {
                throw (Exception) cause;
            }
            throw e;
        }
    }

    private static String describe(Throwable t) {
        String text = t.getClass().getName() + ": " + t.getMessage();
        return text.replace('\n', ' ').replace('\r', ' ');
    }

    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private static String hex(byte[] bytes, int length) {
        if (length == 0) {
            return "-";
        }
        char[] out = new char[2 * length];
        for (int i = 0; i < length; i++) {
            out[2 * i] = DIGITS[(bytes[i] >> 4) & 0xf];
            out[2 * i + 1] = DIGITS[bytes[i] & 0xf];
        }
        return new String(out);
    }

    private static byte[] unhex(String text) {
        if (text.equals("-")) {
            return new byte[0];
        }
        if (text.length() % 2 != 0) {
            throw new IllegalArgumentException("odd number of hex digits");
        }
        byte[] out = new byte[text.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) ((digit(text.charAt(2 * i)) << 4) | digit(text.charAt(2 * i + 1)));
        }
        return out;
    }

    private static int digit(char c) {
        int d = Character.digit(c, 16);
        if (d < 0) {
            throw new IllegalArgumentException("not a hex digit: " + c);
        }
        return d;
    }
}
