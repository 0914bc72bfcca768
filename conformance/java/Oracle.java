// Kafka's own generated message classes (kafka-clients, package
// org.apache.kafka.common.message) as a test oracle for kafka-wire.
// Compiled against one release's jars by scripts/kafka-oracle.sh and driven
// by tests/oracle.rs: one JVM, one request per line on stdin, one answer per
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
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
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
            case "decode":
                need(w, 5, line);
                return decode(blank(w[1], w[2]), Short.parseShort(w[3]), unhex(w[4]));
            case "encode":
                need(w, 5, line);
                return encode(blank(w[1], w[2]), Short.parseShort(w[3]), w[4]);
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
        return Class.forName(message.getClass().getName() + "JsonConverter");
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
